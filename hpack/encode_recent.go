package hpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/static"
)

// recent remembers, for each of the first positions of a section, the
// table entry the field there matched exactly last time. Servers send the
// same fields in the same order section after section, so the field at
// position i is first compared with that entry, byte for byte: a hit costs
// two comparisons, where the lookups cost the static table's switch, two
// hashes and the comparisons all the same. Only contents are compared; no
// address of the caller's is kept.
//
// A hit gives the index the lookups would give. The dynamic table never
// holds two entries with the same name and value: a field that matches an
// entry is sent as its index and not inserted again, and an entry that a
// pending size update will evict (below lo) is gone before the insert that
// might duplicate it is read. The policy's answer for a field that matches
// an entry depends only on the field and its flags, which the slot keeps.
type recent [recentLen]recentSlot

const recentLen = 32

// recentSlot is 8 bytes: ref is 0 in an empty slot, recentStatic | the
// index of a static entry, or a dynamic entry's absolute index plus one
// mod 2^31 (a table holds far fewer entries; a hit is compared anyway).
type recentSlot struct {
	ref uint32
	f   fastpath.Flags
}

const recentStatic = 1 << 31

// recall returns the index of the entry the field at position i matched
// last time, if it still holds name and value with the same flags.
func (e *Encoder) recall(i int, name, value string, f fastpath.Flags) (uint64, bool) {
	if i >= recentLen || lookupAll {
		return 0, false
	}
	s := &e.recent[i]
	if s.f != f || s.ref == 0 {
		return 0, false
	}
	if sidx := uint64(s.ref &^ recentStatic); s.ref&recentStatic != 0 {
		ent, _ := static.HPACK(sidx)
		return sidx, ent.Name == name && ent.Value == value
	}
	abs := e.table.Inserted() - 1 - uint64((uint32(e.table.Inserted())-s.ref)%recentStatic)
	if abs < e.lo || !e.table.Holds(abs, name, value) {
		return 0, false
	}
	return static.HPACKLen + e.table.Inserted() - abs, true
}

// note remembers that the field at position i matched static entry sidx,
// or the dynamic entry abs (plus one), with flags f; neither clears the
// slot.
func (e *Encoder) note(i int, sidx int, abs uint64, f fastpath.Flags) {
	if i < recentLen {
		ref := uint32(abs) % recentStatic
		if abs == 0 {
			ref = uint32(sidx) | recentStatic
		}
		e.recent[i] = recentSlot{ref: ref, f: f}
	}
}
