package qpack

import (
	"errors"
	"io"
)

// errIntOverflow is quic-go's error for a prefixed integer with too many
// continuation bytes; its text is quic-go's.
var errIntOverflow = errors.New("varint integer overflow")

// readInt reads a prefixed integer (RFC 7541 §5.1) with an n-bit prefix
// from the start of p, and returns it and the bytes after it. It accepts
// and rejects what quic-go/qpack's reader does: a run of 9 continuation
// bytes is errIntOverflow, a value that ends early io.ErrUnexpectedEOF.
func readInt(p []byte, n uint8) (v uint64, rest []byte, err error) {
	if len(p) == 0 {
		return 0, p, io.ErrUnexpectedEOF
	}
	mask := uint64(1)<<n - 1
	v = uint64(p[0]) & mask
	if v < mask {
		return v, p[1:], nil
	}
	for i, m := 1, uint(0); i < len(p); i++ {
		b := p[i]
		v += uint64(b&0x7f) << m
		if b&0x80 == 0 {
			return v, p[i+1:], nil
		}
		if m += 7; m >= 63 {
			return 0, p, errIntOverflow
		}
	}
	return 0, p, io.ErrUnexpectedEOF
}

// appendInt appends v as a prefixed integer with an n-bit prefix, the
// bits above the prefix in the first byte set from first.
func appendInt(dst []byte, first byte, n uint8, v uint64) []byte {
	mask := uint64(1)<<n - 1
	if v < mask {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(mask))
	for v -= mask; v >= 0x80; v >>= 7 {
		dst = append(dst, byte(v)|0x80)
	}
	return append(dst, byte(v))
}

// intLen returns the length of appendInt's encoding of v.
func intLen(n uint8, v uint64) int {
	mask := uint64(1)<<n - 1
	if v < mask {
		return 1
	}
	k := 2
	for v -= mask; v >= 0x80; v >>= 7 {
		k++
	}
	return k
}
