package hpack

import (
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/static"
)

// memo remembers, by the address and length of a field's strings, which
// table entry they last matched exactly. A server sends the same strings
// (constants, cached dates) section after section; a memo hit replaces the
// static lookup and the hashing of name and value with a comparison against
// the entry. Each hit is verified byte for byte, so a string that changed
// in place (built with unsafe from a reused buffer) only misses.
//
// Entries hold addresses as integers, not pointers, so the memo keeps no
// caller memory alive. It is four-way set-associative, 16 sets (2.5 KiB
// per encoder): strings land in sets by their addresses, at random, and
// with two ways a section of a dozen fields would find three in one set
// about one time in five, which then evict each other every section; with
// four ways it takes five of them, about one time in a hundred.
type memo [memoWays << memoBits]memoEntry

const (
	memoBits = 4
	memoWays = 4
)

type memoEntry struct {
	name, value uintptr
	nlen, vlen  uint32 // lengths are checked again, in full, on a hit
	// abs is the dynamic entry's absolute index plus one; 0 means the
	// static entry sidx.
	abs uint64
	// f is the field's flags when it was remembered. A remembered field
	// was not never-indexed, and with the same flags it still is not (the
	// policy's other inputs are the name and the value's length, which a
	// hit has not changed), so a hit with the same flags skips the policy.
	f    fastpath.Flags
	sidx uint8
	c    class
	// folded: the name had uppercase letters; it matches the (lowercase)
	// entry ignoring ASCII case.
	folded bool
}

// staticEntries is the HPACK static table by index, for memo hits.
var staticEntries = func() (t [static.HPACKLen + 1]static.Entry) {
	for i := 1; i <= static.HPACKLen; i++ {
		t[i], _ = static.HPACK(uint64(i))
	}
	return t
}()

// memoSet returns the set where (name, value) may be.
func (e *Encoder) memoSet(name, value string) *[memoWays]memoEntry {
	h := uint64(uintptr(unsafe.Pointer(unsafe.StringData(name))))*0x9e3779b97f4a7c15 ^
		uint64(uintptr(unsafe.Pointer(unsafe.StringData(value))))*0xc2b2ae3d27d4eb4f ^
		uint64(len(value))
	i := int(h>>(64-memoBits)) * memoWays
	return (*[memoWays]memoEntry)(e.memo[i : i+memoWays])
}

func (m *memoEntry) is(name, value string) bool {
	return m.name == uintptr(unsafe.Pointer(unsafe.StringData(name))) && m.nlen == uint32(len(name)) &&
		m.value == uintptr(unsafe.Pointer(unsafe.StringData(value))) && m.vlen == uint32(len(value))
}

// memoIndex returns the index the field (name, value, f) would be sent as,
// when the memo knows it; ok is false on any doubt.
func (e *Encoder) memoIndex(name, value string, f fastpath.Flags) (idx uint64, ok bool) {
	set := e.memoSet(name, value)
	var m *memoEntry
	for j := range set {
		if set[j].is(name, value) {
			m = &set[j]
			break
		}
	}
	if m == nil {
		return 0, false
	}
	if m.f != f && decide(e.indexing, f, m.c, len(name)+len(value)+table.Overhead, len(value), e.capNow) == neverIndexed {
		return 0, false
	}
	if m.abs == 0 {
		ent := &staticEntries[m.sidx]
		// sidx 0 is an empty slot, which an empty name and value match.
		if m.sidx == 0 || ent.Value != value || !sameName(ent.Name, name, m.folded) {
			return 0, false
		}
		if !m.folded {
			e.note(name, value, f, int(m.sidx), 0)
		}
		return uint64(m.sidx), true
	}
	abs := m.abs - 1
	if abs < e.lo {
		return 0, false
	}
	// rel counts from the newest entry; an entry that is gone (or an abs
	// past the newest, which wraps rel) has no Ref.
	rel := e.table.Inserted() - 1 - abs
	ent := e.table.Ref(rel)
	if ent == nil {
		return 0, false
	}
	n, v := e.table.Bytes(ent)
	// Live entries are pairwise distinct (an exact match is never inserted
	// again), so this one is the newest exact match.
	if string(v) != value {
		return 0, false
	}
	if !sameName(n, name, m.folded) {
		return 0, false
	}
	if !m.folded {
		e.note(name, value, f, 0, m.abs)
	}
	return static.HPACKLen + 1 + rel, true
}

// sameName reports whether name, lowercased when folded, is lower.
func sameName[T string | []byte](lower T, name string, folded bool) bool {
	if !folded {
		return string(lower) == name
	}
	if len(lower) != len(name) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// remember records that (name, value), as the caller passed them with
// flags f (folded: name had uppercase letters), matches the static entry
// sidx (abs 0) or the dynamic entry abs-1.
func (e *Encoder) remember(name, value string, f fastpath.Flags, folded bool, sidx int, abs uint64, c class) {
	// The newest goes first, the others move down a way: the oldest
	// leaves, or this same key's older entry if it was there.
	set := e.memoSet(name, value)
	j := memoWays - 1
	for k := range set {
		if set[k].is(name, value) {
			j = k
			break
		}
	}
	copy(set[1:j+1], set[:j])
	set[0] = memoEntry{
		name: uintptr(unsafe.Pointer(unsafe.StringData(name))), nlen: uint32(len(name)),
		value: uintptr(unsafe.Pointer(unsafe.StringData(value))), vlen: uint32(len(value)),
		abs: abs, f: f, sidx: uint8(sidx), c: c, folded: folded,
	}
}
