package wire

import (
	"encoding/binary"
	"slices"
)

// huffmanBits is the code length of each byte.
var huffmanBits = func() (t [256]uint8) {
	for i := range t {
		t[i] = huffmanCodes[i].bits
	}
	return t
}()

// huffmanLeft is the code of each byte, left-aligned in 64 bits, so that
// placing it after n pending bits is one shift right by n.
var huffmanLeft = func() (t [256]uint64) {
	for i := range t {
		t[i] = uint64(huffmanCodes[i].code) << (64 - huffmanCodes[i].bits)
	}
	return t
}()

// HuffmanLen returns the exact Huffman-coded length of s in bytes.
func HuffmanLen(s string) int {
	return (huffmanBitLen(s) + 7) >> 3
}

// huffmanBitLen returns the Huffman-coded length of s in bits.
func huffmanBitLen(s string) int {
	// Four sums keep the adds from forming one long chain.
	var a, b, c, d uint
	for len(s) >= 4 {
		a += uint(huffmanBits[s[0]])
		b += uint(huffmanBits[s[1]])
		c += uint(huffmanBits[s[2]])
		d += uint(huffmanBits[s[3]])
		s = s[4:]
	}
	for i := 0; i < len(s); i++ {
		a += uint(huffmanBits[s[i]])
	}
	return int(a + b + c + d)
}

// AppendHuffman appends the Huffman coding of s, padded with 1s.
func AppendHuffman(dst []byte, s string) []byte {
	out := dst[:cap(dst)]
	p := len(dst)
	// acc holds nb pending bits, left-aligned; nb <= 7 between groups.
	var acc uint64
	var nb uint
	i := 0
	for {
		// Groups of 8 symbols, one 8-byte store each. The offsets of the
		// 8 codes are running sums of lengths, so the 8 shifts do not
		// wait for each other.
		for ; i+8 <= len(s) && p+8 <= len(out); i += 8 {
			w := s[i : i+8]
			n1 := nb + uint(huffmanBits[w[0]])
			n2 := n1 + uint(huffmanBits[w[1]])
			n3 := n2 + uint(huffmanBits[w[2]])
			n4 := n3 + uint(huffmanBits[w[3]])
			n5 := n4 + uint(huffmanBits[w[4]])
			n6 := n5 + uint(huffmanBits[w[5]])
			n7 := n6 + uint(huffmanBits[w[6]])
			n8 := n7 + uint(huffmanBits[w[7]])
			if n8 > 63 {
				break // long codes (or exactly 64 bits, which n8&56 misses)
			}
			acc |= huffmanLeft[w[0]]>>(nb&63) | huffmanLeft[w[1]]>>(n1&63) |
				huffmanLeft[w[2]]>>(n2&63) | huffmanLeft[w[3]]>>(n3&63) |
				huffmanLeft[w[4]]>>(n4&63) | huffmanLeft[w[5]]>>(n5&63) |
				huffmanLeft[w[6]]>>(n6&63) | huffmanLeft[w[7]]>>(n7&63)
			// n8/8 bytes are complete; the rest is stored again next time.
			binary.BigEndian.PutUint64(out[p:p+8], acc)
			p += int(n8 >> 3)
			acc <<= n8 & 56
			nb = n8 & 7
		}

		// Up to 8 symbols one at a time: the last ones, a group with long
		// codes, or the last bytes of room.
		for end := min(i+8, len(s)); i < end; i++ {
			c := s[i]
			acc |= huffmanLeft[c] >> nb
			nb += uint(huffmanBits[c]) // at most 7 + 30
			for nb >= 8 {
				if p == len(out) {
					// Grow once, to exactly what is left.
					need := (int(nb) + huffmanBitLen(s[i+1:]) + 7) >> 3
					out = slices.Grow(out[:p], need)
					out = out[:cap(out)]
				}
				out[p] = byte(acc >> 56)
				p++
				acc <<= 8
				nb -= 8
			}
		}
		if i == len(s) {
			break
		}
	}
	if nb > 0 {
		// Pad with the most significant bits of EOS, all 1s.
		if p == len(out) {
			out = append(out[:p], 0)
			out = out[:cap(out)]
		}
		out[p] = byte(acc>>56) | byte(0xff>>nb)
		p++
	}
	return out[:p]
}
