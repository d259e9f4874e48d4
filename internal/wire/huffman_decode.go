package wire

import (
	"encoding/binary"
	"slices"
)

// AppendHuffmanDecode appends the decoding of the Huffman-coded src to dst.
// It stops with ErrStringTooLong once more than maxLen bytes would be
// appended, and rejects EOS and bad padding (RFC 7541 §5.2). On error it
// returns dst's original length (its capacity may have grown). It allocates
// only when dst lacks the capacity for the output.
func AppendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	huffmanDecodeOnce.Do(buildHuffmanDecodeTable)

	// Every code is at least 5 bits, so src decodes to at most 8/5 of its
	// length; clamping maxLen keeps start+maxLen from overflowing.
	maxLen = max(0, min(maxLen, 2*len(src)))
	start, n := len(dst), len(dst)
	if cap(dst) == len(dst) && len(src) > 0 {
		// No room at all: grow once, to the most the input can need.
		dst = slices.Grow(dst, min(maxLen, 8*len(src)/5+1))
	}
	out := dst[:cap(dst)]

	// acc holds nb unread bits, left-aligned; src[i:] is not yet in acc.
	// Bits below the nb are zero or the next input bits (the word refill
	// reads ahead).
	var acc uint64
	var nb uint
	i := 0
	if len(src) >= huffmanSplitMin {
		var pos int
		n, pos = huffmanDecodeSplit(out[:min(len(out), start+maxLen)], n, src, 0)
		i = pos >> 3
		if r := uint(pos & 7); r != 0 {
			acc = uint64(src[i]) << (56 + r)
			nb = 8 - r
			i++
		}
	}
	for {
		if len(src)-i >= 8 { // else the call would do nothing
			n, i, acc, nb = huffmanDecodeFast(out[:min(len(out), start+maxLen)], n, src, i, acc, nb)
		}

		if r := len(src) - i; r < 8 {
			// The last bytes, in one go: the 128 bits of acc's nb and
			// the r bytes left, padded with 1s (see huffmanDecodeTail).
			// The shifts are written so that each count is known to be
			// below 64 (r <= 7, nb <= 63), sparing Go's checks for larger
			// ones; a whole-word shift is two shifts.
			var t uint64
			if len(src) >= 8 {
				t = binary.BigEndian.Uint64(src[len(src)-8:]) << 8 << ((56 - 8*uint(r)) & 63)
			} else {
				t = loadShort(src[i:])
			}
			t |= ^uint64(0) >> (8 * uint(r) & 63)
			hi := acc | t>>(nb&63)
			lo := t<<1<<((63-nb)&63) | ^uint64(0)>>(nb&63)
			var left uint
			n, left, hi = huffmanDecodeTail(out, n, min(len(out)-4, start+maxLen-3), hi, lo, nb+8*uint(r))
			if left <= 7 && hi|^uint64(0)>>(left&63) == ^uint64(0) {
				return out[:n], nil // the rest is valid padding (or nothing)
			}
			// A long code, the end of the room, or bad padding: resume
			// the checked steps below at the first bit left.
			bit := 8*len(src) - int(left)
			i = bit >> 3
			acc = uint64(src[i]) << (56 + uint(bit&7))
			nb = 8 - uint(bit&7)
			i++
		}

		// At a long code, or near the end of the output room: one symbol
		// with every check.
		for nb <= 56 && i < len(src) {
			acc |= uint64(src[i]) << (56 - nb)
			nb += 8
			i++
		}
		var sym int
		var bits uint
		if e := huffmanDecodeTable[acc>>48]; e != 0 {
			sym = int(e >> 6 & 0xff)
			bits = uint(huffmanBits[sym])
		} else {
			sym, bits = decodeLong(acc)
		}
		if bits > nb {
			// The input ends inside a code: what is left is padding,
			// which must be at most 7 bits of EOS's leading 1s.
			switch {
			case acc>>(64-nb) != 1<<nb-1:
				return out[:start], ErrHuffmanPaddingBits
			case nb > 7:
				return out[:start], ErrHuffmanPaddingLength
			}
			return out[:n], nil
		}
		if sym == 256 {
			return out[:start], ErrHuffmanEOS
		}
		if n-start >= maxLen {
			return out[:start], ErrStringTooLong
		}
		if n == len(out) {
			// Grow once to the most the rest of src can need.
			left := (8*(len(src)-i) + int(nb)) / 5
			out = slices.Grow(out[:n], min(left, maxLen-(n-start)))
			out = out[:cap(out)]
		}
		out[n] = byte(sym)
		n++
		acc <<= bits
		nb -= bits
	}
}

// huffmanDecodeFast is the single-stream hot loop: while src has 8 more
// bytes from i and out has room for 3 lookups from n, refill acc with one
// load and do 3 lookups, which take at most 48 of its 56+ bits. It returns
// the new n and i, and stops before a long code.
//
// The critical path is acc -> index -> table load -> shift of acc; the rest
// is kept off it and short. Reslicing out and src instead of keeping indexes
// leaves few live values, so the compiler keeps acc in a register.
func huffmanDecodeFast(dst []byte, n int, in []byte, i int, acc uint64, nb uint) (int, int, uint64, uint) {
	t := &huffmanDecodeTable
	out, src := dst[n:], in[i:]
	for len(src) >= 8 && len(out) >= 10 {
		acc |= binary.BigEndian.Uint64(src) >> (nb & 63)
		src = src[(63-nb)&63>>3:]
		nb |= 56
		// Unrolled: a loop counter costs more than the copies.
		e := t[acc>>48]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)

		e = t[acc>>48]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)

		e = t[acc>>48]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)
	}
	return len(dst) - len(out), len(in) - len(src), acc, nb
}

// huffmanDecodeTail decodes the last bits of a string, left bits at the top
// of the 128-bit hi:lo, below which lo is 1s. It stops before a long code
// (or EOS, or a window of padding 1s), before a lookup whose symbols take
// more than the left bits, and once n passes limit. It returns the new n,
// the bits left, and hi.
//
// Padding with 1s lets every lookup run without a check of the input's
// end: no code but EOS is all 1s, so the padding never completes a symbol
// of a valid string, and a symbol that ends in it takes more than the left
// bits.
func huffmanDecodeTail(out []byte, n, limit int, hi, lo uint64, left uint) (int, uint, uint64) {
	t := &huffmanDecodeTable
	for left > 0 && n <= limit {
		e := t[hi>>48]
		b := uint(e & 63)
		if e == 0 || b > left {
			break
		}
		binary.LittleEndian.PutUint32(out[n:], e>>6)
		n += int(e >> 30)
		// b is 5 to 16: the masks only spare the compiler's checks.
		hi = hi<<(b&63) | lo>>((64-b)&63)
		lo = lo<<(b&63) | (1<<(b&63) - 1)
		left -= b
	}
	return n, left, hi
}

// loadShort returns the up to 7 bytes of src left-aligned in a word, the
// bits below them zero.
func loadShort(src []byte) uint64 {
	switch r := uint(len(src)); {
	case r >= 4:
		return uint64(binary.BigEndian.Uint32(src))<<32 | uint64(binary.BigEndian.Uint32(src[r-4:]))<<(64-8*r)
	case r >= 2:
		return uint64(binary.BigEndian.Uint16(src))<<48 | uint64(binary.BigEndian.Uint16(src[r-2:]))<<(64-8*r)
	case r == 1:
		return uint64(src[0]) << 56
	}
	return 0
}
