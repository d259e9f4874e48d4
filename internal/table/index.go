package table

import (
	"hash/maphash"
	"unsafe"
)

// index is the encoders' hashed lookup: two chained hash tables, by name and
// by name+value, in one slice parallel to Table.ents, whose slot i holds
// the links of the entry at ring slot i and the heads of bucket i. A chain
// runs from newer to older entries, so an evicted entry (absolute index
// below Table.first) ends it: eviction costs nothing here, and no Go map of
// strings is churned.
//
// Heads hold absolute indexes plus one and links the distance to the older
// entry, both mod 2^32 (0 ends a chain): 24 bytes per entry. Only with
// 2^32 entries live could one be read wrong, and a lookup then only misses:
// it compares hashes and bytes before it answers.
type index struct {
	seed  uint64 // 0 until the first reset
	slots []slot
}

type slot struct {
	hn, hf       uint32 // the entry's hashes of the name and of name+value
	nextN, nextF uint32 // the entry's distance to the older one in its bucket
	headN, headF uint32 // bucket heads: the newest entry's index plus one
}

// reset empties the index for a ring of n entries.
func (x *index) reset(n int) {
	for x.seed == 0 {
		x.seed = maphash.Comparable(maphash.MakeSeed(), 0) // a random number
	}
	if len(x.slots) != n {
		x.slots = make([]slot, n)
		return
	}
	clear(x.slots)
}

// grow resizes the index for the new ring of t (n entries) and relinks
// the live entries, oldest first.
func (x *index) grow(t *Table, n int, oldMask uint64) {
	old := x.slots
	x.slots = make([]slot, n)
	for abs := t.first; abs < t.inserted; abs++ {
		l := &old[abs&oldMask]
		t.link(abs, l.hn, l.hf)
	}
}

// bucket returns the absolute index plus one of the newest entry of a bucket
// whose head is h, counting back from the next insert, or 0.
func (t *Table) bucket(h uint32) uint64 {
	if d := uint64(uint32(t.inserted) - h); h != 0 && d < t.inserted {
		return t.inserted - d
	}
	return 0
}

func hashStrings(x *index, name, value string) (hn, hf uint32) {
	return mix(strHash(name, x.seed), strHash(value, x.seed))
}

func hashBytes(x *index, name, value []byte) (hn, hf uint32) {
	return mix(bytesHash(name, x.seed), bytesHash(value, x.seed))
}

func mix(n, v uint64) (hn, hf uint32) {
	f := n ^ (v * 0x9e3779b97f4a7c15)
	f ^= f >> 29
	return uint32(n ^ n>>32), uint32(f ^ f>>32)
}

// Lookup finds, among entries with lo <= absolute index < hi, the newest
// matching name and value exactly, else the newest whose name matches. It
// needs Init with indexed true. HPACK passes 0, Inserted(); a QPACK encoder
// narrows the range to entries it may reference (not draining, acknowledged).
func (t *Table) Lookup(name, value string, lo, hi uint64) (abs uint64, exact, found bool) {
	if len(t.index.slots) == 0 || max(lo, t.first) >= min(hi, t.inserted) {
		return 0, false, false
	}
	return t.LookupHashed(t.Hash(name, value), name, value, lo, hi)
}

// Hash is a field's hashes in the index of a table initialized with
// indexing: Hash computes them, LookupHashed and AddHashed take them, so
// that an encoder that looks a field up and then inserts it hashes it once.
type Hash struct{ n, f uint32 }

// Hash returns the hashes of name and value (t initialized with indexing).
func (t *Table) Hash(name, value string) Hash {
	hn, hf := hashStrings(&t.index, name, value)
	return Hash{hn, hf}
}

// HashOf is Hash that also returns the index's hash of value alone (with
// the seed of InitSeeded, a function of value and seed only), for a caller
// that keeps its own records of values by hash.
func (t *Table) HashOf(name, value string) (h Hash, vh uint64) {
	return t.HashIDOf(0, name, value)
}

// HashIDOf is HashOf keyed as HashID: id > 0 stands for the name, which is
// then not hashed.
func (t *Table) HashIDOf(id int, name, value string) (h Hash, vh uint64) {
	vh = strHash(value, t.index.seed)
	n := (uint64(id)+1)*hashMul1 ^ t.index.seed // HashID's
	if id == 0 {
		n = strHash(name, t.index.seed)
	}
	hn, hf := mix(n, vh)
	return Hash{hn, hf}, vh
}

// HashID is Hash for an encoder that knows the name by a number: id > 0
// stands for a name it gives that number every time (HPACK's static name
// index), whose hash is then the number's, so that only the value is
// hashed; id 0 is Hash(name, value). A table's users must key each name
// one way throughout, HashID's or Hash's: its entries' name hashes are
// compared with the lookups'.
func (t *Table) HashID(id int, name, value string) Hash {
	if id == 0 {
		return t.Hash(name, value)
	}
	hn, hf := mix((uint64(id)+1)*hashMul1^t.index.seed, strHash(value, t.index.seed))
	return Hash{hn, hf}
}

// LookupHashed is Lookup for a field whose Hash the caller holds: h must be
// t.Hash(name, value), or HashID's for the name.
//
// It is LookupExact and then LookupName, their walks written out: two
// calls cost more than their lines (an HPACK encoder's every field with a
// name of its own).
func (t *Table) LookupHashed(h Hash, name, value string, lo, hi uint64) (abs uint64, exact, found bool) {
	x := &t.index
	lo = max(lo, t.first)
	hi = min(hi, t.inserted)
	if len(x.slots) == 0 || lo >= hi {
		return 0, false, false
	}
	mask, s := t.mask(), unsafe.Pointer(unsafe.SliceData(x.slots))
	const size = unsafe.Sizeof(slot{})
	for a := t.bucket((*slot)(unsafe.Add(s, uintptr(uint64(h.f)&mask)*size)).headF); a > lo; {
		l := (*slot)(unsafe.Add(s, uintptr((a-1)&mask)*size))
		if a <= hi && l.hf == h.f && t.Holds(a-1, name, value) {
			return a - 1, true, true
		}
		if uint64(l.nextF)-1 >= a-1 {
			break
		}
		a -= uint64(l.nextF)
	}
	for a := t.bucket((*slot)(unsafe.Add(s, uintptr(uint64(h.n)&mask)*size)).headN); a > lo; {
		l := (*slot)(unsafe.Add(s, uintptr((a-1)&mask)*size))
		if a <= hi && l.hn == h.n {
			if e := t.ent(a - 1); int(e.nlen) == len(name) {
				if n, _ := t.Strings(e); n == name {
					return a - 1, false, true
				}
			}
		}
		if uint64(l.nextN)-1 >= a-1 {
			break
		}
		a -= uint64(l.nextN)
	}
	return 0, false, false
}
