package wire

import (
	"encoding/binary"
	"slices"
	"sync"
	"unsafe"
)

// huffmanBits is the code length of each byte.
var huffmanBits = func() (t [256]uint8) {
	for i := range t {
		t[i] = huffmanCodes[i].bits
	}
	return t
}()

// The encoder looks codes up two bytes at a time: huffmanPairs maps a pair
// of bytes to their two codes run together, so that 8 bytes take 4 lookups
// and 4 shift-and-or steps. Index i is the pair s[k], s[k+1] with s[k] in
// the low 8 bits, so that its two loads become one 16-bit load. An entry is
// code<<9 | length, for the pairs whose codes take at most 23 bits (so
// that code<<9 fits; that is nearly every pair of the printable ASCII that
// header text is made of); any other pair has length 65, which alone takes
// its group over 64 bits, so that the group is encoded one byte at a time.
// Lengths take 9 bits so that four of them add up without a carry.
//
// The table is built on first use, by the first AppendHuffman of 2 bytes
// or more, so that a program that only decodes pays nothing. Building it
// takes about 0.1 ms, plus faulting in its 256 KiB. Bytes that groups
// leave (the last 1 to 7, most of a short string) go a pair at a time.
var (
	huffmanPairsOnce sync.Once
	huffmanPairs     [1 << 16]uint32 // 256 KiB
)

const huffmanPairMax = 23 // longest pair in huffmanPairs, in bits

func buildHuffmanPairs() {
	for i := range huffmanPairs {
		a, b := huffmanCodes[i&0xff], huffmanCodes[i>>8]
		bits := uint32(a.bits) + uint32(b.bits)
		if bits > huffmanPairMax {
			huffmanPairs[i] = 65
			continue
		}
		huffmanPairs[i] = (a.code<<b.bits|b.code)<<9 | bits
	}
}

// HuffmanLen returns the exact Huffman-coded length of s in bytes.
func HuffmanLen(s string) int {
	return (huffmanBitLen(s) + 7) >> 3
}

// huffmanBitLen returns the Huffman-coded length of s in bits.
func huffmanBitLen(s string) int {
	t := &huffmanBits
	sp := unsafe.Pointer(unsafe.StringData(s))
	// 8 bytes a round, read through a pointer the loop's condition bounds
	// (slicing s would cost more than the adds); four sums keep the adds
	// from forming one long chain.
	var a, b, c, d uint
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := (*[8]byte)(unsafe.Add(sp, i))
		a += uint(t[w[0]]) + uint(t[w[4]])
		b += uint(t[w[1]]) + uint(t[w[5]])
		c += uint(t[w[2]]) + uint(t[w[6]])
		d += uint(t[w[3]]) + uint(t[w[7]])
	}
	if i+4 <= len(s) {
		w := (*[4]byte)(unsafe.Add(sp, i))
		a += uint(t[w[0]])
		b += uint(t[w[1]])
		c += uint(t[w[2]])
		d += uint(t[w[3]])
		i += 4
	}
	for ; i < len(s); i++ {
		a += uint(t[*(*byte)(unsafe.Add(sp, i))])
	}
	return int(a + b + c + d)
}

// AppendHuffman appends the Huffman coding of s, padded with 1s.
func AppendHuffman(dst []byte, s string) []byte {
	out := dst[:cap(dst)]
	p := len(dst)
	if len(s) >= 2 {
		huffmanPairsOnce.Do(buildHuffmanPairs)
	}
	// With room for as many bytes as s and a store past them (the
	// caller's frame, nearly always), in one pass; the loop below where
	// codes are long or room is short.
	if len(out)-p >= len(s)+8 {
		if k := huffmanRoomy(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), p), s); k >= 0 {
			return resliced(out, p+k)
		}
	}
	out, p = huffmanLoop(out, p, s, true)
	return out[:p]
}

// huffmanLoop codes s into out[p:], padded with 1s, and returns out and
// the end of the code. Where out runs out it grows out, or with grow
// false stops and returns p -1: then it has written only within out.
func huffmanLoop(out []byte, p int, s string, grow bool) ([]byte, int) {
	// acc holds nb pending bits, right-aligned; the bits above them were
	// written already and shift out as codes come in.
	var acc uint64
	var nb uint
	i := 0
	for i < len(s) {
		if len(s)-i >= 8 {
			p, i, acc, nb = huffmanAppendPairs(out, p, s, i, acc, nb)
		}
		// What groups leave, while there is room for a store: a pair at a
		// time (at most 7 + 23 bits), or one byte when the pair's codes
		// are longer; each stored as in a group.
		if i < len(s) && p+8 <= len(out) {
			e, k := uint64(65), 2
			if i+1 < len(s) {
				e = uint64(huffmanPairs[uint16(s[i])|uint16(s[i+1])<<8])
			}
			if e&0x1ff > huffmanPairMax {
				c := huffmanCodes[s[i]]
				e, k = uint64(c.code)<<9|uint64(c.bits), 1
			}
			acc = acc<<(e&63) | e>>9
			nb += uint(e & 0x1ff)
			binary.BigEndian.PutUint64(out[p:p+8], acc<<(-nb&63))
			p += int(nb >> 3)
			nb &= 7
			i += k
			continue
		}
		if i == len(s) {
			break
		}
		// The last bytes of room, one byte at a time.
		c := huffmanCodes[s[i]]
		acc = acc<<(c.bits&63) | uint64(c.code)
		nb += uint(c.bits) // at most 7 + 30
		i++
		for nb >= 8 {
			if p == len(out) {
				if !grow {
					return out, -1
				}
				// Grow once, to exactly what is left.
				need := (int(nb) + huffmanBitLen(s[i:]) + 7) >> 3
				out = slices.Grow(out[:p], need)
				out = out[:cap(out)]
			}
			nb -= 8
			out[p] = byte(acc >> nb)
			p++
		}
	}
	if nb > 0 {
		// Pad with the most significant bits of EOS, all 1s.
		if p == len(out) {
			if !grow {
				return out, -1
			}
			out = append(out[:p], 0)
			out = out[:cap(out)]
		}
		out[p] = byte(acc<<(8-nb)) | byte(0xff>>nb)
		p++
	}
	return out, p
}

// HuffmanReady builds the pair table HuffmanInto reads, once, and reports
// true (for a caller's condition).
func HuffmanReady() bool {
	huffmanPairsOnce.Do(buildHuffmanPairs)
	return true
}

// HuffmanInto writes the Huffman coding of s, padded, after dst's length,
// where its capacity has room for len(s)+8 bytes, and returns the code's
// length; or -1 for long codes, which AppendString takes. HuffmanReady
// must have been called. It calls nothing: an encoder's string writer that
// tries it first needs no frame of its own.
func HuffmanInto(dst []byte, s string) int {
	return huffmanRoomy(unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), len(dst)), s)
}

// huffmanRoomy writes the Huffman coding of s, padded with 1s, at op,
// where there is room for len(s)+8 bytes, and returns its length (at most
// len(s)+8, and often more than len(s) where the code does not shrink);
// or -1, having written only within the room, when 8 bytes take more than
// 64 bits (or the last ones do): huffmanLoop codes those, or for
// HuffmanAuto huffmanRoomyRest from where it stopped. huffmanPairs must be
// built.
//
// Groups of 8 bytes (4 pairs) go in one 8-byte store each, and the last
// 0 to 7 bytes in one more with the padding. Each store stays within the
// room: a group takes it only with its pending bits within 64, so the
// whole bytes stored before a group are at most the bytes of s before it,
// and the last store starts at most len(s) bytes in.
func huffmanRoomy(op unsafe.Pointer, s string) int {
	t := &huffmanPairs
	sp := unsafe.Pointer(unsafe.StringData(s))
	// x holds nb pending bits, right-aligned; the bits above them were
	// written already and shift out as codes come in.
	var x uint64
	var nb uint
	p, i := 0, 0
	// Two groups a round, written out (the loop's own work is a good part
	// of a group's), then one more for 8 to 15 bytes left.
	for ; i+16 <= len(s); i += 16 {
		w := (*[16]byte)(unsafe.Add(sp, i)) // in bounds: no checks
		e0 := t[uint16(w[0])|uint16(w[1])<<8]
		e1 := t[uint16(w[2])|uint16(w[3])<<8]
		e2 := t[uint16(w[4])|uint16(w[5])<<8]
		e3 := t[uint16(w[6])|uint16(w[7])<<8]
		n := nb + uint((e0+e1+e2+e3)&0x1ff)
		if n > 64 {
			return -1
		}
		x <<= e0 & 63
		x |= uint64(e0 >> 9)
		x <<= e1 & 63
		x |= uint64(e1 >> 9)
		x <<= e2 & 63
		x |= uint64(e2 >> 9)
		x <<= e3 & 63
		x |= uint64(e3 >> 9)
		binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-n&63))
		p += int(n >> 3)
		nb = n & 7
		e0 = t[uint16(w[8])|uint16(w[9])<<8]
		e1 = t[uint16(w[10])|uint16(w[11])<<8]
		e2 = t[uint16(w[12])|uint16(w[13])<<8]
		e3 = t[uint16(w[14])|uint16(w[15])<<8]
		n = nb + uint((e0+e1+e2+e3)&0x1ff)
		if n > 64 {
			return -1
		}
		x <<= e0 & 63
		x |= uint64(e0 >> 9)
		x <<= e1 & 63
		x |= uint64(e1 >> 9)
		x <<= e2 & 63
		x |= uint64(e2 >> 9)
		x <<= e3 & 63
		x |= uint64(e3 >> 9)
		binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-n&63))
		p += int(n >> 3)
		nb = n & 7
	}
	if i+8 <= len(s) {
		w := (*[8]byte)(unsafe.Add(sp, i))
		e0 := t[uint16(w[0])|uint16(w[1])<<8]
		e1 := t[uint16(w[2])|uint16(w[3])<<8]
		e2 := t[uint16(w[4])|uint16(w[5])<<8]
		e3 := t[uint16(w[6])|uint16(w[7])<<8]
		n := nb + uint((e0+e1+e2+e3)&0x1ff)
		if n > 64 {
			return -1
		}
		x <<= e0 & 63
		x |= uint64(e0 >> 9)
		x <<= e1 & 63
		x |= uint64(e1 >> 9)
		x <<= e2 & 63
		x |= uint64(e2 >> 9)
		x <<= e3 & 63
		x |= uint64(e3 >> 9)
		binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-n&63))
		p += int(n >> 3)
		nb = n & 7
		i += 8
	}
	if (len(s)-i)&1 != 0 {
		c := huffmanCodes[s[i]]
		x = x<<(c.bits&63) | uint64(c.code)
		nb += uint(c.bits)
		i++
	}
	// An entry of 65 (long codes) takes nb past 64.
	for ; i+1 < len(s); i += 2 {
		w := (*[2]byte)(unsafe.Add(sp, i))
		e := t[uint16(w[0])|uint16(w[1])<<8]
		x = x<<(e&63) | uint64(e>>9)
		nb += uint(e & 0x1ff)
	}
	if nb > 64 {
		return -1
	}
	binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-nb&63)|^uint64(0)>>nb)
	return p + int((nb+7)>>3)
}

// huffmanRoomyRest codes s as huffmanRoomy does, where that returned -1,
// from the group where it stopped (over 64 bits with the bits pending
// before it; or the last bytes): groups within 64 bits in one store, the
// others in two (huffmanHalf), groups with a long pair and the last bytes
// a byte at a time, while the code so far is shorter than s, so that each
// store stays within the room. It returns the code's length, or len(s)
// where the code reaches len(s) bytes: HuffmanAuto has no use for it.
func huffmanRoomyRest(op unsafe.Pointer, s string) int {
	// Where huffmanRoomy stopped, by the lengths of its groups (a pass of
	// lookups and adds only): the code before it is at op, its last bits
	// in the high bits of the byte at its end (huffmanRoomy's stores write
	// the pending bits too).
	t := &huffmanPairs
	sp := unsafe.Pointer(unsafe.StringData(s))
	var done uint
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := (*[8]byte)(unsafe.Add(sp, i))
		g := uint((t[uint16(w[0])|uint16(w[1])<<8] + t[uint16(w[2])|uint16(w[3])<<8] +
			t[uint16(w[4])|uint16(w[5])<<8] + t[uint16(w[6])|uint16(w[7])<<8]) & 0x1ff)
		if done&7+g > 64 {
			break
		}
		done += g
	}
	p, nb := int(done>>3), done&7
	x := uint64(*(*byte)(unsafe.Add(op, p))) >> (8 - nb)
	for ; i+8 <= len(s); i += 8 {
		if p >= len(s) {
			return len(s)
		}
		w := (*[8]byte)(unsafe.Add(sp, i))
		e0 := t[uint16(w[0])|uint16(w[1])<<8]
		e1 := t[uint16(w[2])|uint16(w[3])<<8]
		e2 := t[uint16(w[4])|uint16(w[5])<<8]
		e3 := t[uint16(w[6])|uint16(w[7])<<8]
		if n := nb + uint((e0+e1+e2+e3)&0x1ff); n <= 64 {
			x <<= e0 & 63
			x |= uint64(e0 >> 9)
			x <<= e1 & 63
			x |= uint64(e1 >> 9)
			x <<= e2 & 63
			x |= uint64(e2 >> 9)
			x <<= e3 & 63
			x |= uint64(e3 >> 9)
			binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-n&63))
			p += int(n >> 3)
			nb = n & 7
			continue
		}
		if (e0|e1|e2|e3)&64 != 0 { // a long pair: a byte at a time
			for _, b := range w {
				if p, x, nb = huffmanByte(op, p, x, nb, b); p >= len(s) {
					return len(s)
				}
			}
			continue
		}
		var k int
		x, nb, k = huffmanHalf(unsafe.Add(op, p), x, nb, e0, e1)
		if p += k; p >= len(s) {
			return len(s)
		}
		x, nb, k = huffmanHalf(unsafe.Add(op, p), x, nb, e2, e3)
		p += k
	}
	for ; i < len(s); i++ {
		if p >= len(s) {
			return len(s)
		}
		p, x, nb = huffmanByte(op, p, x, nb, s[i])
	}
	if p >= len(s) {
		return len(s)
	}
	if nb == 0 {
		return p
	}
	binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-nb&63)|^uint64(0)>>nb)
	return p + 1
}

// huffmanByte adds b's code after the nb (at most 7) bits pending in x,
// stores them at op+p and returns the new p, x and nb.
func huffmanByte(op unsafe.Pointer, p int, x uint64, nb uint, b byte) (int, uint64, uint) {
	c := huffmanCodes[b]
	x = x<<(c.bits&63) | uint64(c.code)
	nb += uint(c.bits) // at most 7 + 30
	binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(op, p))[:], x<<(-nb&63))
	return p + int(nb>>3), x, nb & 7
}

// huffmanHalf writes the codes of the pairs of entries e0 and e1 after the
// nb bits pending in x, with an 8-byte store at o, and returns the new x
// and nb and the bytes o takes (at most 6 of the 8: 7 + 46 bits).
func huffmanHalf(o unsafe.Pointer, x uint64, nb uint, e0, e1 uint32) (uint64, uint, int) {
	x = x<<(e0&63) | uint64(e0>>9)
	x = x<<(e1&63) | uint64(e1>>9)
	n := nb + uint((e0+e1)&0x1ff)
	binary.BigEndian.PutUint64((*[8]byte)(o)[:], x<<(-n&63))
	return x, n & 7, int(n >> 3)
}

// resliced is out[:n] for 0 <= n <= len(out), which the caller knows,
// without the check.
func resliced(out []byte, n int) []byte {
	return RawBytes(unsafe.SliceData(out), n, cap(out))
}

// huffmanAppendPairs codes s[i:] into out[p:] in groups of 8 bytes (4
// pairs), each stored with one 8-byte write (two, a half each, for a group
// over 64 bits), while there are 8 bytes and room for the stores. It stops
// before a group with a long pair, and returns the new p, i, acc and nb.
func huffmanAppendPairs(out []byte, p int, s string, i int, acc uint64, nb uint) (int, int, uint64, uint) {
	t := &huffmanPairs
	// Two groups per round, written out: the loop's checks cost more than
	// the copy.
	sp, op := unsafe.StringData(s), unsafe.SliceData(out)
	for i+16 <= len(s) && p+16 <= len(out) {
		// In bounds by the loop's condition, which the compiler does not
		// carry over to slicing: without its checks the round has the
		// registers it needs.
		w := (*[16]byte)(unsafe.Add(unsafe.Pointer(sp), i))
		o := (*[16]byte)(unsafe.Add(unsafe.Pointer(op), p))
		// The codes of a group are shifted in one after the other, two
		// steps per pair; its length is the sum of the entries' low 9
		// bits.
		e0 := t[uint16(w[0])|uint16(w[1])<<8]
		e1 := t[uint16(w[2])|uint16(w[3])<<8]
		e2 := t[uint16(w[4])|uint16(w[5])<<8]
		e3 := t[uint16(w[6])|uint16(w[7])<<8]
		n := nb + uint((e0+e1+e2+e3)&0x1ff)
		if n > 64 {
			// In two halves of at most 7 + 46 bits, 6 bytes apart
			// (within the 16 bytes of room), unless a pair is long; then
			// the next round, whose condition checks the room again.
			if (e0|e1|e2|e3)&64 != 0 {
				return p, i, acc, nb
			}
			var k int
			acc, nb, k = huffmanHalf(unsafe.Pointer(o), acc, nb, e0, e1)
			p += k
			acc, nb, k = huffmanHalf(unsafe.Add(unsafe.Pointer(op), p), acc, nb, e2, e3)
			p += k
			i += 8
			continue
		}
		x := acc
		x <<= e0 & 63
		x |= uint64(e0 >> 9)
		x <<= e1 & 63
		x |= uint64(e1 >> 9)
		x <<= e2 & 63
		x |= uint64(e2 >> 9)
		x <<= e3 & 63
		x |= uint64(e3 >> 9)
		// The n bits of x, left-aligned: n/8 whole bytes and the pending
		// rest, which the next store writes again.
		binary.BigEndian.PutUint64(o[0:8], x<<(-n&63))
		k := n >> 3
		acc, nb = x, n&7

		e0 = t[uint16(w[8])|uint16(w[9])<<8]
		e1 = t[uint16(w[10])|uint16(w[11])<<8]
		e2 = t[uint16(w[12])|uint16(w[13])<<8]
		e3 = t[uint16(w[14])|uint16(w[15])<<8]
		n = nb + uint((e0+e1+e2+e3)&0x1ff)
		if n > 64 {
			// As above, where the room allows: this group starts up to
			// 8 bytes in.
			if (e0|e1|e2|e3)&64 != 0 || p+int(k)+14 > len(out) {
				return p + int(k), i + 8, acc, nb
			}
			p += int(k)
			var h int
			acc, nb, h = huffmanHalf(unsafe.Add(unsafe.Pointer(op), p), acc, nb, e0, e1)
			p += h
			acc, nb, h = huffmanHalf(unsafe.Add(unsafe.Pointer(op), p), acc, nb, e2, e3)
			p += h
			i += 16
			continue
		}
		x <<= e0 & 63
		x |= uint64(e0 >> 9)
		x <<= e1 & 63
		x |= uint64(e1 >> 9)
		x <<= e2 & 63
		x |= uint64(e2 >> 9)
		x <<= e3 & 63
		x |= uint64(e3 >> 9)
		binary.BigEndian.PutUint64(o[k:k+8], x<<(-n&63))
		p += int(k + n>>3)
		acc, nb = x, n&7
		i += 16
	}
	// One more group, as above, for 8 to 15 bytes.
	if i+8 <= len(s) && p+8 <= len(out) {
		w := s[i : i+8]
		e0 := t[uint16(w[0])|uint16(w[1])<<8]
		e1 := t[uint16(w[2])|uint16(w[3])<<8]
		e2 := t[uint16(w[4])|uint16(w[5])<<8]
		e3 := t[uint16(w[6])|uint16(w[7])<<8]
		n := nb + uint((e0+e1+e2+e3)&0x1ff)
		if n > 64 {
			if (e0|e1|e2|e3)&64 != 0 || p+14 > len(out) {
				return p, i, acc, nb
			}
			var k int
			acc, nb, k = huffmanHalf(unsafe.Add(unsafe.Pointer(op), p), acc, nb, e0, e1)
			p += k
			acc, nb, k = huffmanHalf(unsafe.Add(unsafe.Pointer(op), p), acc, nb, e2, e3)
			return p + k, i + 8, acc, nb
		}
		x := acc
		x <<= e0 & 63
		x |= uint64(e0 >> 9)
		x <<= e1 & 63
		x |= uint64(e1 >> 9)
		x <<= e2 & 63
		x |= uint64(e2 >> 9)
		x <<= e3 & 63
		x |= uint64(e3 >> 9)
		binary.BigEndian.PutUint64(out[p:p+8], x<<(-n&63))
		return p + int(n>>3), i + 8, x, n & 7
	}
	return p, i, acc, nb
}
