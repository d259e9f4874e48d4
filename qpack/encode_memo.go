package qpack

import (
	"unsafe"

	"github.com/hqpack/hqpack/internal/wire"
)

// huffMemo remembers the Huffman coding of recent string literals, by the
// address and length of the caller's string. A server sends the same
// strings (constants, cached dates) section after section, and without a
// dynamic table every one of them is a literal: a hit replaces the two
// passes of Huffman coding (length, then bytes) with a comparison and a
// copy. Each hit is verified byte for byte against a copy of the string,
// so a string that changed in place only misses.
//
// Slots hold addresses as integers, not pointers, so the memo keeps no
// caller memory alive. It is two-way set-associative: 16 sets of strings
// of up to memoMax bytes, coded in at most as many (4.3 KiB per encoder).
type huffMemo struct {
	slots [2 * memoSets]memoSlot
	data  [2 * memoSets][memoMax * 2]byte // the string, then its coding
}

const (
	memoSets = 16
	memoMax  = 64
)

type memoSlot struct {
	addr uintptr
	n    uint8 // string length (0: empty slot)
	hlen uint8 // coded length
}

func memoSetOf(s string) int {
	h := uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))*0x9e3779b97f4a7c15 ^ uint64(len(s))
	return int(h>>(64-4)) * 2
}

// find returns the slot holding s, or -1.
func (m *huffMemo) find(s string) int {
	if len(s) == 0 || len(s) > memoMax {
		return -1
	}
	addr := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	i := memoSetOf(s)
	for j := i; j < i+2; j++ {
		if sl := &m.slots[j]; sl.addr == addr && int(sl.n) == len(s) && string(m.data[j][:sl.n]) == s {
			return j
		}
	}
	return -1
}

// choose is h.Choose(s), from the memo when it can.
func (m *huffMemo) choose(h wire.Huffman, s string) (payload int, huff bool) {
	if h == wire.HuffmanNever || len(s) < 2 {
		return h.Choose(s)
	}
	if j := m.find(s); j >= 0 {
		// The coding may have been remembered under HuffmanAlways, also
		// when it is not shorter.
		if hlen := int(m.slots[j].hlen); hlen < len(s) || h == wire.HuffmanAlways {
			return hlen, true
		}
		return len(s), false
	}
	payload, huff = h.Choose(s)
	if huff && len(s) <= memoMax && payload <= memoMax {
		// The newest goes first; the older of the set is dropped.
		i := memoSetOf(s)
		m.slots[i+1], m.data[i+1] = m.slots[i], m.data[i]
		m.slots[i] = memoSlot{addr: uintptr(unsafe.Pointer(unsafe.StringData(s))), n: uint8(len(s)), hlen: uint8(payload)}
		d := m.data[i][:0]
		d = append(d, s...)
		wire.AppendHuffman(d, s)
	}
	return payload, huff
}

// appendHuffman is wire.AppendHuffman(dst, s), from the memo when it can.
func (m *huffMemo) appendHuffman(dst []byte, s string) []byte {
	if j := m.find(s); j >= 0 {
		sl := &m.slots[j]
		return append(dst, m.data[j][sl.n:int(sl.n)+int(sl.hlen)]...)
	}
	return wire.AppendHuffman(dst, s)
}
