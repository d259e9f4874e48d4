package wire

import "encoding/binary"

// The Huffman codes of '0'..'9' (RFC 7541 Appendix B): '0', '1' and '2'
// are the 5-bit codes 0x0..0x2, '3'..'9' the 6-bit codes 0x19..0x1f.
var digitCodes = [10]uint8{0x0, 0x1, 0x2, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f}

// pairCodes holds the Huffman coding of each two-digit string 00..99: the
// code, right-aligned, in the low 12 bits and its length (10 to 12 bits) in
// the high 4.
var pairCodes = func() (t [100]uint16) {
	for i := range t {
		hi, lo := i/10, i%10
		code := uint16(digitCodes[hi])<<digitBits(lo) | uint16(digitCodes[lo])
		t[i] = (digitBits(hi)+digitBits(lo))<<12 | code
	}
	return t
}()

// digitBits returns the Huffman code length of digit d.
func digitBits(d int) uint16 {
	if d < 3 {
		return 5
	}
	return 6
}

// huffmanDigitsBits returns the number of bits in the Huffman coding of the
// decimal form of n, before padding.
func huffmanDigitsBits(n uint64) int {
	b := 0
	for n >= 100 {
		q := n / 100
		b += int(pairCodes[n-q*100] >> 12)
		n = q
	}
	if n >= 10 {
		return b + int(pairCodes[n]>>12)
	}
	return b + int(digitBits(int(n)))
}

// HuffmanDigitsLen returns the length in bytes of the Huffman coding of the
// decimal form of n: what wire.HuffmanLen returns for that string.
func HuffmanDigitsLen(n uint64) int { return (huffmanDigitsBits(n) + 7) / 8 }

// AppendHuffmanDigits appends the Huffman coding of the decimal form of n,
// padded with 1s: what wire.AppendHuffman appends for that string, without
// the string.
func AppendHuffmanDigits(dst []byte, n uint64) []byte {
	if l := len(dst); n < 1e9 && cap(dst)-l >= 8 {
		// At most 54 bits, padded to 56: one store.
		code, bits := HuffmanDigits(n)
		pad := -bits & 7
		binary.BigEndian.PutUint64(dst[l:l+8], (code<<pad|(1<<pad-1))<<(64-bits-pad))
		return dst[:l+int(bits+pad)>>3]
	}
	// Split n into two-digit groups, least significant last, then code
	// them first to last.
	var groups [10]uint8
	k := len(groups)
	// Eight digits at a time in 32-bit arithmetic, as in AppendDigits.
	for n >= 1e8 {
		q := n / 1e8
		r := uint32(n - q*1e8)
		n = q
		hi, lo := r/1e4, r%1e4
		k -= 4
		g := groups[k : k+4 : k+4]
		g[0], g[1], g[2], g[3] = uint8(hi/100), uint8(hi%100), uint8(lo/100), uint8(lo%100)
	}
	r := uint32(n)
	for r >= 100 {
		k--
		groups[k] = uint8(r % 100)
		r /= 100
	}
	// The leading group may be a single digit.
	var acc uint64
	var nb uint
	if r >= 10 {
		acc, nb = uint64(pairCodes[r]&0xfff), uint(pairCodes[r]>>12)
	} else {
		acc, nb = uint64(digitCodes[r]), uint(digitBits(int(r)))
	}
	for _, g := range groups[k:] {
		c := pairCodes[g]
		w := uint(c >> 12)
		acc = acc<<w | uint64(c&0xfff)
		nb += w
		// At most 31 + 12 bits are pending: flush 32 whenever we can.
		if nb >= 32 {
			nb -= 32
			dst = binary.BigEndian.AppendUint32(dst, uint32(acc>>nb))
		}
	}
	// Pad to a byte boundary with the most significant bits of EOS.
	pad := -nb & 7
	acc = acc<<pad | (1<<pad - 1)
	nb += pad
	for nb > 0 {
		nb -= 8
		dst = append(dst, byte(acc>>nb))
	}
	return dst
}

// HuffmanDigits returns the Huffman code of the decimal form of n, which
// must be below 10^9, right-aligned in code, and its length in bits (at
// most 54): the digits coded into one word, last digits first.
func HuffmanDigits(n uint64) (code uint64, bits uint) {
	for n >= 100 {
		q := n / 100
		c := pairCodes[n-q*100]
		code |= uint64(c&0xfff) << bits
		bits += uint(c >> 12)
		n = q
	}
	if n >= 10 {
		c := pairCodes[n]
		return code | uint64(c&0xfff)<<bits, bits + uint(c>>12)
	}
	return code | uint64(digitCodes[n])<<bits, bits + uint(digitBits(int(n)))
}

// AppendHuffmanCode appends a Huffman code of at most 57 bits,
// right-aligned in code, padded with 1s to a byte boundary, as
// HuffmanDigits returns it. It stores a whole word when dst has room for
// one.
func AppendHuffmanCode(dst []byte, code uint64, bits uint) []byte {
	pad := -bits & 7
	w := (code<<pad | (1<<pad - 1)) << (64 - bits - pad)
	l := len(dst)
	if cap(dst)-l >= 8 {
		binary.BigEndian.PutUint64(dst[l:l+8], w)
		return dst[:l+int(bits+pad)>>3]
	}
	for k := (bits + pad) >> 3; k > 0; k-- {
		dst = append(dst, byte(w>>56))
		w <<= 8
	}
	return dst
}

// DigitsChoice returns what policy p decides for the decimal form of n:
// the payload length and whether it is Huffman-coded. It matches
// p.Choose(strconv.FormatUint(n, 10)) exactly.
func DigitsChoice(p Huffman, n uint64) (payload int, huff bool) {
	switch p {
	case HuffmanNever:
		return DigitsLen(n), false
	case HuffmanAlways:
		return HuffmanDigitsLen(n), true
	}
	d := DigitsLen(n)
	// Every digit codes to 5 or 6 bits, so one or two digits never shrink
	// and four or more always do: only three digits need the exact length.
	switch {
	case d < 3:
		return d, false
	case d == 3:
		if h := HuffmanDigitsLen(n); h < 3 {
			return h, true
		}
		return 3, false
	}
	return HuffmanDigitsLen(n), true
}

// DigitsCode returns DigitsChoice(p, n) and, when the digits are
// Huffman-coded and n is below 10^9, their code and its length in bits as
// HuffmanDigits returns them, for AppendHuffmanCode (bits is 0 otherwise):
// the digits are coded once, for the choice and the output.
func DigitsCode(p Huffman, n uint64) (payload int, huff bool, code uint64, bits uint) {
	if p == HuffmanNever || n >= 1e9 {
		payload, huff = DigitsChoice(p, n)
		return payload, huff, 0, 0
	}
	code, bits = HuffmanDigits(n)
	payload = int(bits+7) >> 3
	if d := DigitsLen(n); p != HuffmanAlways && payload >= d {
		return d, false, 0, 0 // not shorter
	}
	return payload, true, code, bits
}
