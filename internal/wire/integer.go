package wire

import "math/bits"

// MaxInt is the largest prefixed integer a decoder accepts: QPACK's 62-bit
// limit, which also covers every HPACK value.
const MaxInt = 1<<62 - 1

// maxContinuation is the most continuation bytes a value up to MaxInt needs
// after any prefix: ceil(62/7). A longer run is rejected even when its extra
// bytes are zero, so a peer cannot make a decoder read an integer forever.
const maxContinuation = 9

// IntLen returns the encoded length of v with an n-bit prefix (1 <= n <= 8).
func IntLen(n uint8, v uint64) int {
	// (n&15 is n: the compiler then knows the shift is below 64 and
	// checks nothing, where the caller's n is not a constant.)
	m := uint64(1)<<(n&15) - 1
	if v < m {
		return 1
	}
	// At least one continuation byte, then one per further 7 bits.
	return 2 + (bits.Len64((v-m)>>7)+6)/7
}

// AppendInt appends v with an n-bit prefix (1 <= n <= 8). first carries the
// bits above the prefix (the representation's pattern and flags); its low n
// bits must be zero. Values above MaxInt are encoded faithfully, but no
// decoder here accepts them.
func AppendInt(dst []byte, first byte, n uint8, v uint64) []byte {
	m := uint64(1)<<(n&15) - 1 // (as in IntLen)
	if v < m {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(m))
	v -= m
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// ReadInt decodes an integer with an n-bit prefix (1 <= n <= 8) from the
// start of src. It returns the value and the bytes consumed, ErrTruncated
// when src ends first, or ErrIntegerOverflow for a value above MaxInt or a
// run of continuation bytes longer than any such value needs. Bits of src[0]
// above the prefix are ignored.
func ReadInt(src []byte, n uint8) (v uint64, length int, err error) {
	// Small values are the common case: decide them before any loop. (The
	// call to readIntLong alone exceeds the inlining budget, so ReadInt is
	// not inlined; keeping the loop out still keeps this path short.)
	if len(src) > 0 {
		m := byte(1)<<n - 1
		if b := src[0] & m; b != m {
			return uint64(b), 1, nil
		}
	}
	return readIntLong(src, n)
}

// readIntLong decodes an integer whose prefix is all ones, or reports an
// empty src.
func readIntLong(src []byte, n uint8) (uint64, int, error) {
	if len(src) == 0 {
		return 0, 0, ErrTruncated
	}
	v := uint64(1)<<n - 1
	end := min(len(src), 1+maxContinuation)
	// At most 9 continuation bytes of 7 bits plus a 255 prefix stay below
	// 2^64, so v cannot wrap before the MaxInt check.
	var shift uint
	for i := 1; i < end; i++ {
		b := src[i]
		v += uint64(b&0x7f) << shift
		if b < 0x80 {
			if v > MaxInt {
				return 0, 0, ErrIntegerOverflow
			}
			return v, i + 1, nil
		}
		shift += 7
	}
	// Eight continuation bytes cannot pass MaxInt, so an unfinished run is
	// only hopeless once it has reached the longest allowed length.
	if end == 1+maxContinuation {
		return 0, 0, ErrIntegerOverflow
	}
	return 0, 0, ErrTruncated
}
