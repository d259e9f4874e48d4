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
		var rest, srcRest []byte
		end := min(len(out), start+maxLen)
		rest, srcRest, acc, nb = huffmanDecodeFast(out[n:end], src[i:], acc, nb)
		n = end - len(rest)
		i = len(src) - len(srcRest)

		// Near the end of src or of the output room, or at a long code:
		// lookups with every check, then one symbol at a time.
		for nb <= 56 && i < len(src) {
			acc |= uint64(src[i]) << (56 - nb)
			nb += 8
			i++
		}
		limit := min(len(out)-4, start+maxLen-3) // a lookup stores 4 bytes, emits up to 3
		for n <= limit {
			w := acc >> 48
			if i == len(src) {
				// All of src is in acc. Pad the window with 1s: no code
				// is all 1s but EOS, so padding never completes a symbol
				// of a valid string, and an entry that takes more than
				// the nb real bits goes to the checks below.
				w |= 0xffff >> nb
			} else if nb < 16 {
				break
			}
			e := huffmanDecodeTable[w]
			if e == 0 || uint(e&63) > nb {
				break // a long code (or EOS), or the end of src
			}
			binary.LittleEndian.PutUint32(out[n:], e>>6)
			n += int(e >> 30)
			acc <<= e & 63
			nb -= uint(e & 63)
		}
		if nb < 16 && i < len(src) {
			continue
		}

		// One symbol with every check.
		for nb <= 56 && i < len(src) {
			acc |= uint64(src[i]) << (56 - nb)
			nb += 8
			i++
		}
		if nb == 0 {
			return out[:n], nil
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
// bytes and out has room for 3 lookups, refill acc with one load and do 3
// lookups, which take at most 48 of its 56+ bits. It returns the unused
// parts of out and src, and stops before a long code.
//
// The critical path is acc -> index -> table load -> shift of acc; the rest
// is kept off it and short. Reslicing out and src instead of keeping indexes
// leaves few live values, so the compiler keeps acc in a register.
func huffmanDecodeFast(out, src []byte, acc uint64, nb uint) ([]byte, []byte, uint64, uint) {
	t := &huffmanDecodeTable
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
	return out, src, acc, nb
}
