package table

import "hash/maphash"

// index is the encoders' hashed lookup: two chained hash tables, by name and
// by name+value, whose bucket heads and links hold absolute indexes (plus
// one, 0 ending a chain). A chain runs from newer to older entries, so an
// evicted entry (absolute index below Table.first) ends it: eviction costs
// nothing here, and no Go map of strings is churned.
type index struct {
	seed uint64 // 0 until the first reset

	links  []link   // parallel to Table.ents
	names  []uint64 // bucket heads by name hash
	fields []uint64 // bucket heads by name+value hash
}

type link struct {
	hn, hf       uint32 // hashes of the name and of name+value
	nextN, nextF uint64 // older entry in the same bucket, plus one
}

// reset empties the index for a ring of n entries.
func (x *index) reset(n int) {
	for x.seed == 0 {
		x.seed = maphash.Comparable(maphash.MakeSeed(), 0) // a random number
	}
	if len(x.links) != n {
		x.links = make([]link, n)
		x.names = make([]uint64, 2*n)
		x.fields = make([]uint64, 2*n)
		return
	}
	clear(x.names)
	clear(x.fields)
}

// grow resizes the index for the new ring of t (n entries) and relinks
// the live entries, oldest first.
func (x *index) grow(t *Table, n int, oldMask uint64) {
	old := x.links
	x.links = make([]link, n)
	x.names = make([]uint64, 2*n)
	x.fields = make([]uint64, 2*n)
	for abs := t.first; abs < t.inserted; abs++ {
		l := old[abs&oldMask]
		x.add(abs, t.mask(), l.hn, l.hf)
	}
}

func (x *index) add(abs, mask uint64, hn, hf uint32) {
	l := &x.links[abs&mask]
	l.hn, l.hf = hn, hf
	bm := uint32(len(x.names) - 1)
	l.nextN, x.names[hn&bm] = x.names[hn&bm], abs+1
	l.nextF, x.fields[hf&bm] = x.fields[hf&bm], abs+1
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
	if !t.indexed || len(t.index.names) == 0 || max(lo, t.first) >= min(hi, t.inserted) {
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

// LookupHashed is Lookup for a field whose Hash the caller holds: h must be
// t.Hash(name, value).
func (t *Table) LookupHashed(h Hash, name, value string, lo, hi uint64) (abs uint64, exact, found bool) {
	x := &t.index
	lo = max(lo, t.first)
	hi = min(hi, t.inserted)
	if !t.indexed || len(x.names) == 0 || lo >= hi {
		return 0, false, false
	}
	hn, hf := h.n, h.f
	bm, mask := uint32(len(x.names)-1), t.mask()
	for a := x.fields[hf&bm]; a > lo; {
		abs := a - 1
		l := &x.links[abs&mask]
		if abs < hi && l.hf == hf && t.Holds(abs, name, value) {
			return abs, true, true
		}
		a = l.nextF
	}
	for a := x.names[hn&bm]; a > lo; {
		abs := a - 1
		l := &x.links[abs&mask]
		if abs < hi && l.hn == hn {
			e := &t.ents[abs&mask]
			if string(t.arena[e.off:e.off+int(e.nlen)]) == name {
				return abs, false, true
			}
		}
		a = l.nextN
	}
	return 0, false, false
}
