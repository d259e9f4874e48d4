package table

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/hqpack/hqpack/internal/wire"
)

// LookupExact is LookupHashed for a caller that wants only an entry
// holding both name and value: it walks the name+value chain alone, so a
// miss costs no walk of the name's chain and no name comparisons.
func (t *Table) LookupExact(h Hash, name, value string, lo, hi uint64) (abs uint64, ok bool) {
	x := &t.index
	lo = max(lo, t.first)
	hi = min(hi, t.inserted)
	if len(x.slots) == 0 || lo >= hi {
		return 0, false
	}
	// A slot per entry of the ring, a power of two: masked, an index is
	// in bounds, unchecked.
	mask, s := t.mask(), unsafe.Pointer(unsafe.SliceData(x.slots))
	const size = unsafe.Sizeof(slot{})
	for a := t.bucket((*slot)(unsafe.Add(s, uintptr(uint64(h.f)&mask)*size)).headF); a > lo; {
		l := (*slot)(unsafe.Add(s, uintptr((a-1)&mask)*size))
		if a <= hi && l.hf == h.f && t.Holds(a-1, name, value) {
			return a - 1, true
		}
		if uint64(l.nextF)-1 >= a-1 { // 0, or past the first insert
			break
		}
		a -= uint64(l.nextF)
	}
	return 0, false
}

// LookupExactID is HashID(id, name, value) for id > 0 and LookupExact
// with its Hash, in one call: an encoder's lookup of a field with a
// static name, which keeps h for the insert when it misses. The walk is
// LookupExact's, written out, as a call to it cost more than its lines.
func (t *Table) LookupExactID(id int, name, value string, lo, hi uint64) (h Hash, abs uint64, ok bool) {
	x := &t.index
	h.n, h.f = mix((uint64(id)+1)*hashMul1^x.seed, strHash(value, x.seed))
	lo = max(lo, t.first)
	hi = min(hi, t.inserted)
	if len(x.slots) == 0 || lo >= hi {
		return h, 0, false
	}
	mask, s := t.mask(), unsafe.Pointer(unsafe.SliceData(x.slots))
	const size = unsafe.Sizeof(slot{})
	for a := t.bucket((*slot)(unsafe.Add(s, uintptr(uint64(h.f)&mask)*size)).headF); a > lo; {
		l := (*slot)(unsafe.Add(s, uintptr((a-1)&mask)*size))
		if a <= hi && l.hf == h.f && t.Holds(a-1, name, value) {
			return h, a - 1, true
		}
		if uint64(l.nextF)-1 >= a-1 {
			break
		}
		a -= uint64(l.nextF)
	}
	return h, 0, false
}

// LookupName is LookupHashed for a caller that knows no entry in the range
// holds both name and value (h is t.Hash(name, value) with any value): it
// walks the name's chain alone and returns the newest entry with the name.
func (t *Table) LookupName(h Hash, name string, lo, hi uint64) (abs uint64, found bool) {
	x := &t.index
	lo = max(lo, t.first)
	hi = min(hi, t.inserted)
	if len(x.slots) == 0 || lo >= hi {
		return 0, false
	}
	hn := h.n
	mask, s := t.mask(), unsafe.Pointer(unsafe.SliceData(x.slots)) // (as LookupExact's)
	const size = unsafe.Sizeof(slot{})
	for a := t.bucket((*slot)(unsafe.Add(s, uintptr(uint64(hn)&mask)*size)).headN); a > lo; {
		l := (*slot)(unsafe.Add(s, uintptr((a-1)&mask)*size))
		if e := t.ent(a - 1); a <= hi && l.hn == hn && int(e.nlen) == len(name) {
			// Inline under 8 bytes too, where wire.Equal (and ==) call memequal.
			if n, _ := t.Strings(e); len(n) < 8 && wire.EqualShort(n, name) || len(n) >= 8 && wire.EqualLoop(n, name) {
				return a - 1, true
			}
		}
		if uint64(l.nextN)-1 >= a-1 {
			break
		}
		a -= uint64(l.nextN)
	}
	return 0, false
}

// LookupExactAllID is HashIDOf(id, name, value) and then LookupExact
// with its Hash over [lo, hi), in one call, that also returns the newest
// live entry holding the field in any range (held reports one), in the
// same walk of the chain: an encoder's lookup of a field that it inserts
// with h when it misses, and whose value it remembers by vh.
func (t *Table) LookupExactAllID(id int, name, value string, lo, hi uint64) (h Hash, vh uint64, abs uint64, ok bool, newest uint64, held bool) {
	x := &t.index
	// strHash(value), written out: a call made every argument spill and
	// reload (a static name, id > 0, needs no other hash).
	vh = x.seed ^ uint64(len(value))*hashMul1
	b := wire.RawBytes(unsafe.StringData(value), len(value), len(value))
	// Two of memHash's rounds a turn: half the loop's count, test and
	// reload (of t, which the multiply's registers evict) for a long value.
	for len(b) > 32 {
		vh = mum(vh^binary.LittleEndian.Uint64(b), hashMul2^binary.LittleEndian.Uint64(b[8:]))
		vh = mum(vh^binary.LittleEndian.Uint64(b[16:]), hashMul2^binary.LittleEndian.Uint64(b[24:]))
		b = b[32:]
	}
	if len(b) > 16 {
		vh = mum(vh^binary.LittleEndian.Uint64(b), hashMul2^binary.LittleEndian.Uint64(b[8:]))
		b = b[16:]
	}
	var w, u uint64
	switch {
	case len(b) >= 8:
		w, u = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))<<32
	case len(b) > 0:
		w = uint64(b[0]) | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])<<16
	}
	vh = fold(mum(vh^w, hashMul2^u))
	n := (uint64(id)+1)*hashMul1 ^ x.seed // HashID's
	if id == 0 {
		n = strHash(name, x.seed)
	}
	h.n, h.f = mix(n, vh)
	first := t.first
	if len(x.slots) == 0 || first >= t.inserted {
		return h, vh, 0, false, 0, false
	}
	lo, hi = max(lo, first), min(hi, t.inserted)
	mask, s := t.mask(), unsafe.Pointer(unsafe.SliceData(x.slots))
	const size = unsafe.Sizeof(slot{})
	for a := t.bucket((*slot)(unsafe.Add(s, uintptr(uint64(h.f)&mask)*size)).headF); a > first; {
		l := (*slot)(unsafe.Add(s, uintptr((a-1)&mask)*size))
		if l.hf == h.f && (!held || a > lo && a <= hi) {
			// Holds, written out for a live entry: a call spilled and
			// reloaded the walk's registers. A value past 64 bytes goes to
			// memequal (Equal), whose wide loop beats EqualLoop's words.
			n, v := t.Strings(t.ent(a - 1))
			if len(n) == len(name) && len(v) == len(value) &&
				(len(n) < 8 && wire.EqualShort(n, name) || len(n) >= 8 && wire.EqualLoop(n, name)) &&
				(len(v) < 8 && wire.EqualShort(v, value) || len(v) >= 8 && wire.Equal(v, value)) {
				if !held {
					newest, held = a-1, true
				}
				if a > lo && a <= hi {
					return h, vh, a - 1, true, newest, true
				}
			}
		}
		if uint64(l.nextF)-1 >= a-1 || a <= lo && held { // 0, or past the first insert
			break
		}
		a -= uint64(l.nextF)
	}
	return h, vh, 0, false, newest, held
}

// LookupAfter is LookupExact(*h, name, value, lo, hi) over a few entries
// (the newest), for an encoder that, if inserted, made entry at from the
// field and h: then that entry is the answer unless below lo or a newer one
// has h's hash. Either way an entry is compared only where a hash matches.
func (t *Table) LookupAfter(h *Hash, name, value string, at uint64, inserted bool, lo, hi uint64) (abs uint64, ok bool) {
	if inserted && at >= lo && t.Recall(at, hi) != nil && !t.HashedSince(h, at+1, hi) {
		return at, true
	}
	if !t.HashedSince(h, lo, hi) {
		return 0, false
	}
	return t.LookupExact(*h, name, value, lo, hi)
}

// maxRecheck bounds the entries Recall scans.
const maxRecheck = 16

// Recall and HashedSince are an encoder's recheck of a field that an
// earlier LookupExact(h, name, value, lo, since) found at abs, small enough
// to inline (the caller calls nothing on its way to the bytes): the
// entries between abs and since were then known not to hold the field, so
// only those from since on need a look, at their hashes. If entry abs is
// live and below hi (not above Inserted()), by less than 2^32, Recall
// returns it (for Strings), else nil. With lo not above abs and since
// below hi only if HashedSince(h, since, hi) is false, LookupExact(h,
// name, value, lo, hi) returns abs if its strings are name and value
// (entry abs is the one found, with their lengths).
func (t *Table) Recall(abs, hi uint64) *Entry {
	if abs < t.first || hi-abs-1 >= math.MaxUint32 {
		return nil
	}
	return t.ent(abs)
}

// HashedSince reports whether an entry in [since, hi) has h's field
// hash, or more than maxRecheck entries are there (see Recall).
func (t *Table) HashedSince(h *Hash, since, hi uint64) bool {
	if hi-since > maxRecheck {
		return true
	}
	// Masked, an index is in bounds (see LookupExact): no checks.
	mask, s := t.mask(), unsafe.Pointer(unsafe.SliceData(t.index.slots))
	for a := since; a < hi; a++ {
		if (*slot)(unsafe.Add(s, uintptr(a&mask)*unsafe.Sizeof(slot{}))).hf == h.f {
			return true
		}
	}
	return false
}

// EntrySize returns the size of live entry abs (name, value and Overhead),
// inline where Abs is a call.
func (t *Table) EntrySize(abs uint64) int {
	e := &t.ents[abs&t.mask()]
	return int(e.nlen) + int(e.vlen) + Overhead
}
