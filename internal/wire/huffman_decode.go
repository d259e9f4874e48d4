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
	// The common string, a field's value: short, valid, in the room dst
	// has, and unable to pass maxLen (it decodes to at most 8/5 of its
	// length). The fast loop alone decodes it, from a small frame (the
	// general path's costs 100 instructions a call); anything else (a
	// long code, too little room, an error) starts again there.
	if len(src) < huffmanSplitMin && maxLen >= 2*len(src) {
		out := dst[len(dst):cap(dst)]
		room, i, acc, nb := huffmanDecodeFast(out, src, 0, 0, 0, huffmanLast(src))
		left := 8*len(src) - (8*i - int(nb)) // the bits not decoded
		if left >= 0 && left <= 7 && acc|^uint64(0)>>(uint(left)&63) == ^uint64(0) {
			return dst[:len(dst)+len(out)-room], nil // the rest is valid padding
		}
	}
	return appendHuffmanDecode(dst, src, maxLen)
}

// appendHuffmanDecode is AppendHuffmanDecode for any string.
func appendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
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
	// reads ahead, and past the end of src reads 1s).
	var acc uint64
	var nb uint
	i := 0
	if len(src) >= huffmanSplitMin {
		huffmanSplitOnce.Do(buildHuffmanSplitTable)
		var pos int
		n, pos = huffmanDecodeSplit(out[:min(len(out), start+maxLen)], n, src, 0)
		i = pos >> 3
		if r := uint(pos & 7); r != 0 {
			acc = uint64(src[i]) << (56 + r)
			nb = 8 - r
			i++
		}
	}
	// fast is false once the fast loop has read past the end of src into
	// a symbol, which only invalid padding makes it do: from then on the
	// checked steps alone decide where the error is.
	fast := true
	last := huffmanLast(src)
	// Unless maxLen may cut the string short (it decodes to at most 8/5 of
	// its length), the fast loop writes up to the end of out.
	capped := 5*maxLen < 8*len(src)
	for {
		if fast {
			lim := len(out)
			if capped {
				lim = min(lim, start+maxLen)
			}
			var room int
			room, i, acc, nb = huffmanDecodeFast(out[n:lim], src, i, acc, nb, last)
			n = lim - room
			bit := 8*i - int(nb) // the first bit not decoded
			if left := 8*len(src) - bit; left < 0 {
				n, bit, fast = start, 0, false // start again, checked
			} else if left <= 7 && acc|^uint64(0)>>(uint(left)&63) == ^uint64(0) {
				return out[:n], nil // the rest is valid padding (or nothing)
			}
			// A long code, the end of the room, or bad padding: resume
			// the checked steps below at the first bit left.
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
		if e := huffmanShortTable[acc>>52]; e != 0 {
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

// huffmanDecodeFast is the single-stream hot loop: while out has room for
// 4 lookups, refill acc with one load from src[i:] and do 4 lookups, which
// take at most 48 of its 56+ bits. It returns the room left in out, the new
// i and acc, nb, and stops before a window with no symbol: a code longer
// than 12 bits, or EOS. last is huffmanLast(src).
//
// Past the end of src it reads 1s, so the last bytes need no loop of their
// own: no code but EOS is all 1s, so after a valid string's last symbol the
// padding and the 1s make a window with no symbol, where it stops. After an
// invalid one it may go on into the 1s (8*i-nb > 8*len(src)), which the
// caller checks.
//
// The critical path is acc -> index -> table load -> shift of acc; the rest
// is kept off it and short. Reslicing out instead of keeping an index
// leaves few live values, so the compiler keeps acc in a register.
func huffmanDecodeFast(out []byte, src []byte, i int, acc uint64, nb uint, last uint64) (int, int, uint64, uint) {
	t := &huffmanShortTable
	if len(out) >= 10 {
		acc |= huffmanWord(src, i, last) >> (nb & 63)
		i += 7 - int(nb>>3) // the whole bytes nb |= 56 adds
		nb |= 56
	}
	for len(out) >= 10 {
		// The first lookup reads acc before the refill: its 12 bits are
		// already there (a group takes at most 48 of the 64 the last
		// refill left), and the refill only ORs in the same bits, so the
		// refill's wait for the last group's nb stays off the critical
		// path. Each lookup stores 4 bytes and emits at most 2: the
		// fourth store ends by out[10].
		e := t[acc>>52]
		acc |= huffmanWord(src, i, last) >> (nb & 63)
		i += 7 - int(nb>>3)
		nb |= 56
		// Unrolled: a loop counter costs more than the copies.
		if e == 0 {
			return len(out), i, acc, nb
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)

		e = t[acc>>52]
		if e == 0 {
			return len(out), i, acc, nb
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)

		e = t[acc>>52]
		if e == 0 {
			return len(out), i, acc, nb
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)

		e = t[acc>>52]
		if e == 0 {
			return len(out), i, acc, nb
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)
	}
	// Near the end of the room: one lookup at a time.
	for len(out) >= 4 {
		if nb < 12 {
			acc |= huffmanWord(src, i, last) >> (nb & 63)
			i += 7 - int(nb>>3)
			nb |= 56
		}
		e := t[acc>>52]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(out, e>>6)
		out = out[e>>30:]
		acc <<= e & 63
		nb -= uint(e & 63)
	}
	return len(out), i, acc, nb
}

// huffmanWord returns the 8 bytes of src from i, big-endian; past the end
// of src, the bytes of last (huffmanLast(src)) left, then 1s.
func huffmanWord(src []byte, i int, last uint64) uint64 {
	if i <= len(src)-8 {
		return binary.BigEndian.Uint64(src[i:])
	}
	r := 8 * uint(max(len(src)-i, 0)) // the bits left, < 64
	return last<<((64-r)&63) | ^uint64(0)>>(r&63)
}

// huffmanLast returns the last 8 bytes of src as a big-endian word, or all
// of a shorter src in its low bytes.
func huffmanLast(src []byte) uint64 {
	if len(src) >= 8 {
		return binary.BigEndian.Uint64(src[len(src)-8:])
	}
	var w uint64
	for _, b := range src {
		w = w<<8 | uint64(b)
	}
	return w
}
