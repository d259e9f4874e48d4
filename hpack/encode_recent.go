package hpack

import (
	"encoding/binary"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/wire"
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
//
// The slots go in pairs, a set that the fingerprint's top bits pick: the
// first slot holds the field noted or found last, the second the one
// before, so that two fields of a section whose fingerprints pick the same
// set do not push each other out, section after section.
type recent [recentSets][2]recentSlot

const (
	recentBits = 5 // the top bits of a fingerprint pick the set
	recentSets = 1 << recentBits
)

// recentSlot is 4 bytes: ref is 0 in an empty slot, recentStatic | the
// index of a static entry, or a dynamic entry's absolute index plus one
// mod 2^15 (a hit is compared anyway: an older entry only misses); tag is
// the fingerprint's bits below the set's, which tell most other fields
// from the one there without a look at the entry, and in its low bits the
// field's indexing flags (recentFlags), the only flags the lookups' answer
// depends on (a FieldID is a hint; the name is compared).
type recentSlot struct {
	ref uint16
	tag uint16
}

const recentFlags = fastpath.NeverIndex | fastpath.NoIndex | fastpath.Index

const recentStatic = 1 << 15

// fingerprint hashes name and value's lengths and value's first and last
// bytes. It inlines.
func fingerprint(name, value string) uint64 {
	h := uint64(len(name))<<32 ^ uint64(len(value))
	// value's bytes as a slice, read only, built without unsafe.Slice's
	// checks: wire.RawBytes written out, as the call puts fingerprint over
	// the inlining budget (84 against 80).
	type header struct {
		p    *byte
		n, c int
	}
	if b := *(*[]byte)(unsafe.Pointer(&header{unsafe.StringData(value), len(value), len(value)})); len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b[len(b)-8:]) ^ uint64(b[0])<<8
	} else if len(b) > 0 {
		h ^= uint64(b[0])<<8 ^ uint64(b[len(b)-1])<<16
	}
	return h * 0x9e3779b97f4a7c15
}

// set returns the first slot of fingerprint fp's set and the tag of fp
// with flags f.
func (r *recent) set(fp uint64, f fastpath.Flags) (*[2]recentSlot, uint16) {
	return &r[fp>>(64-recentBits)], uint16(fp>>(48-recentBits))&^uint16(recentFlags) | uint16(f&recentFlags)
}

// find returns the slot with the tag of fingerprint fp and flags f, made
// the first of its set, or nil.
func (r *recent) find(fp uint64, f fastpath.Flags) *recentSlot {
	s, tag := r.set(fp, f)
	if s[0].tag == tag {
		return &s[0]
	}
	if s[1].tag == tag {
		s[0], s[1] = s[1], s[0]
		return &s[0]
	}
	return nil
}

// recall returns the index of the entry s refers to, if it still holds
// name and value (find matched the flags). It calls nothing (wire.EqualLoop,
// not Equal's memequal, for long strings), so it has no frame to set up.
func (e *Encoder) recall(s *recentSlot, name, value string) (uint64, bool) {
	if s.ref == 0 || lookupAll {
		return 0, false
	}
	var ns, vs string
	idx := uint64(s.ref &^ recentStatic)
	if s.ref&recentStatic != 0 {
		// A caller's literals are often the table's own strings.
		if ns, vs = static.HPACKStrings(idx); len(ns) == len(name) && len(vs) == len(value) && unsafe.StringData(ns) == unsafe.StringData(name) && unsafe.StringData(vs) == unsafe.StringData(value) {
			return idx, true
		}
	} else {
		// The entry rel places from the newest, compared here rather
		// than by a call to Table.Holds: most fields of a section end here.
		rel := uint64((uint16(e.table.Inserted()) - s.ref) % recentStatic)
		ent := e.table.Ref(rel)
		if ent == nil || e.table.Inserted()-1-rel < e.lo {
			return 0, false
		}
		ns, vs = e.table.Strings(ent)
		idx = static.HPACKLen + 1 + rel
	}
	return idx, len(ns) == len(name) && len(vs) == len(value) &&
		(len(name) < 8 && wire.EqualShort(ns, name) || len(name) >= 8 && wire.EqualLoop(ns, name)) &&
		(len(value) < 8 && wire.EqualShort(vs, value) || len(value) >= 8 && wire.EqualLoop(vs, value))
}

// note remembers that the field whose fingerprint is fp, with flags f,
// matched static entry sidx, or the dynamic entry abs (plus one).
func (e *Encoder) note(fp uint64, sidx int, abs uint64, f fastpath.Flags) {
	ref := uint16(abs) % recentStatic
	if abs == 0 {
		ref = uint16(sidx) | recentStatic
	}
	s, tag := e.recent.set(fp, f)
	if s[0].tag != tag {
		s[1] = s[0]
	}
	s[0] = recentSlot{ref: ref, tag: tag}
}
