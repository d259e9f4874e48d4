package table

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The index hashes names and values with strHash: a multiply and a fold for
// each 8 bytes, inline, where maphash is a call into the runtime per string
// (about a third of an encoder's lookup, most fields being short). It is
// seeded per table, but not built to stand an adversary who sees its
// output: none needs to. A table holds at most capacity/32 entries, so a
// chain that collisions lengthen stays as short as the table, whatever a
// peer chooses to send.

const (
	hashMul1 = 0x9e3779b97f4a7c15
	hashMul2 = 0xbf58476d1ce4e5b9
)

// strHash hashes s with seed.
func strHash(s string, seed uint64) uint64 {
	return memHash(unsafe.StringData(s), len(s), seed)
}

// bytesHash is strHash for bytes: the same value for the same contents.
func bytesHash(b []byte, seed uint64) uint64 {
	return memHash(unsafe.SliceData(b), len(b), seed)
}

func memHash(p *byte, n int, seed uint64) uint64 {
	h := seed ^ uint64(n)*hashMul1
	b := unsafe.Slice(p, n)
	for len(b) > 8 {
		h = fold(h ^ binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	// The last 1 to 8 bytes, as one word: two overlapping 4-byte reads, or
	// the bytes one by one when there are fewer than 4.
	var w uint64
	switch {
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	case len(b) > 0:
		w = uint64(b[0]) | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])<<16
	}
	return fold(fold(h ^ w))
}

// fold mixes h: the high and low halves of a 128-bit product, xored.
func fold(h uint64) uint64 {
	hi, lo := bits.Mul64(h, hashMul2)
	return hi ^ lo
}
