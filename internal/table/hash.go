package table

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/hqpack/hqpack/internal/wire"
)

// The index hashes names and values with strHash: a multiply for each 16
// bytes and two to finish, inline, where maphash is a call into the runtime per string
// (about a third of an encoder's lookup, most fields being short). It is
// seeded per table, at random or with a fixed seed (InitSeeded: the QPACK
// encoder's, whose history keeps values by the index's hash), but not
// built to stand an adversary who sees its output: none needs to. A table holds at most capacity/32 entries, so a
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
	// The bytes as a slice, built without unsafe.Slice's checks (n is a
	// string's or a slice's length).
	b := wire.RawBytes(p, n, n)
	// 16 bytes per multiply: one word xored into h, the other into the
	// multiplier, as wyhash does.
	for len(b) > 16 {
		h = mum(h^binary.LittleEndian.Uint64(b), hashMul2^binary.LittleEndian.Uint64(b[8:]))
		b = b[16:]
	}
	// The last 1 to 16 bytes, as two words: two overlapping 8-byte reads,
	// or 4-byte ones, or the bytes one by one when there are fewer than 4.
	var w, v uint64
	switch {
	case len(b) >= 8:
		w, v = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	case len(b) > 0:
		w = uint64(b[0]) | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])<<16
	}
	return fold(mum(h^w, hashMul2^v))
}

// mum is the high and low halves of a 128-bit product, xored.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// fold mixes h.
func fold(h uint64) uint64 { return mum(h, hashMul2) }
