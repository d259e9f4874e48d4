package hpack

import (
	"encoding/binary"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
)

// recent remembers the table entries fields matched exactly, by a cheap
// fingerprint of the field: its lengths and its value's outer bytes.
// Servers send the same fields section after section (in the same order
// or not: sections of several shapes come in turn), so a field is first
// compared with the entry its fingerprint's slot holds, byte for byte: a
// hit costs the fingerprint and two comparisons, where the lookups cost
// the static table's switch, hashing both strings whole and the
// comparisons all the same. Only contents are compared; no address of the
// caller's is kept.
//
// A hit gives the index the lookups would give. The dynamic table never
// holds two entries with the same name and value: a field that matches an
// entry is sent as its index and not inserted again, and an entry that a
// pending size update will evict (below lo) is gone before the insert that
// might duplicate it is read. Nor does it hold one the static table holds
// exactly, which the lookups would find first: such a field is not
// inserted. The policy's answer for a field that matches an entry depends
// only on the field and its flags, which the slot keeps.
type recent [recentLen]recentSlot

const (
	recentBits = 5 // the top bits of a fingerprint pick the slot
	recentLen  = 1 << recentBits
)

// recentSlot is 8 bytes: ref is 0 in an empty slot, recentStatic | the
// index of a static entry, or a dynamic entry's absolute index plus one
// mod 2^15 (a hit is compared anyway: an older entry only misses); tag is
// the fingerprint's bits below the slot's, which tell most other fields
// from the one there without a look at the entry.
type recentSlot struct {
	f   fastpath.Flags
	ref uint16
	tag uint16
}

const recentStatic = 1 << 15

// fingerprint hashes name and value's lengths and value's first and last
// bytes. It inlines.
func fingerprint(name, value string) uint64 {
	h := uint64(len(name))<<32 ^ uint64(len(value))
	if b := unsafe.Slice(unsafe.StringData(value), len(value)); len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b[len(b)-8:]) ^ uint64(b[0])<<8
	} else if len(b) > 0 {
		h ^= uint64(b[0])<<8 ^ uint64(b[len(b)-1])<<16
	}
	return h * 0x9e3779b97f4a7c15
}

// slot returns the slot of fingerprint fp and its tag.
func (r *recent) slot(fp uint64) (*recentSlot, uint16) {
	return &r[fp>>(64-recentBits)], uint16(fp >> (48 - recentBits))
}

// recall returns the index of the entry s refers to, if it still holds
// name and value and s has flags f.
func (e *Encoder) recall(s *recentSlot, name, value string, f fastpath.Flags) (uint64, bool) {
	if s.f != f || s.ref == 0 || lookupAll {
		return 0, false
	}
	if sidx := uint64(s.ref &^ recentStatic); s.ref&recentStatic != 0 {
		ent, _ := static.HPACK(sidx)
		return sidx, ent.Name == name && ent.Value == value
	}
	abs := e.table.Inserted() - 1 - uint64((uint16(e.table.Inserted())-s.ref)%recentStatic)
	if abs < e.lo || !e.table.Holds(abs, name, value) {
		return 0, false
	}
	return static.HPACKLen + e.table.Inserted() - abs, true
}

// note remembers that the field whose fingerprint is fp, with flags f,
// matched static entry sidx, or the dynamic entry abs (plus one).
func (e *Encoder) note(fp uint64, sidx int, abs uint64, f fastpath.Flags) {
	ref := uint16(abs) % recentStatic
	if abs == 0 {
		ref = uint16(sidx) | recentStatic
	}
	s, tag := e.recent.slot(fp)
	*s = recentSlot{f: f, ref: ref, tag: tag}
}
