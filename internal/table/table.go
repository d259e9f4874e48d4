package table

import (
	"math"
	"unsafe"

	"github.com/hqpack/hqpack/internal/wire"
)

// Overhead is the per-entry size overhead of RFC 7541 §4.1 and RFC 9204 §3.2.1.
const Overhead = 32

// Table is a dynamic table shared by the HPACK and QPACK codecs: a ring of
// entries over one byte arena, oldest evicted first, with optional hashed
// lookups for encoders. The zero Table has capacity 0.
//
// Entry bytes are never split across the end of the arena: an entry that
// does not fit before the end goes to the start. Once the arena is twice the
// capacity, the RFC's size accounting guarantees every insert fits after its
// evictions (see prepare), so inserts and evictions are O(1) and allocation-free.
// Below that the arena grows lazily, so a large advertised capacity costs
// memory only when the peer uses it.
type Table struct {
	capacity int
	size     int    // RFC size of the live entries
	first    uint64 // absolute index of the oldest live entry
	inserted uint64 // absolute index of the next insert

	ents  []Entry // ring, len a power of two, abs&mask
	arena []byte
	// arena[head:run] is free: no live entry's bytes lie there. Inserts
	// that fit it take it from the front; evictions only free more, so
	// it stays safe; prepare's placements set it anew (settle).
	head, run int
	// scratch holds an insert's bytes when they alias the place they go to.
	scratch []byte

	indexed bool
	index   index // no slots unless indexed: the lookups test len(slots) alone
}

// Entry locates one entry's bytes: name at arena[off:], value right after.
// The offset and the tag share a word (off<<8 | tag), so an entry is 16
// bytes: an arena, at most twice a capacity, needs far fewer than 56 bits.
type Entry struct {
	pos        uint64
	nlen, vlen uint32
}

func (e *Entry) off() int { return int(e.pos >> 8) }
func (e *Entry) end() int { return e.off() + int(e.nlen) + int(e.vlen) }

// Init resets t to empty with the given capacity (maximum size in RFC
// octets). indexed enables Lookup (encoders); decoders pass false.
func (t *Table) Init(capacity int, indexed bool) { t.init(capacity, indexed, 0) }

// InitSeeded is Init with indexing whose index hashes with seed, not a
// random one: an encoder that keeps other records of its fields by hash
// (HashOf) computes each hash once. The index is not built to stand an
// adversary in either case (see strHash).
func (t *Table) InitSeeded(capacity int, seed uint64) { t.init(capacity, true, seed) }

// init is Init, with the index's seed when not 0.
func (t *Table) init(capacity int, indexed bool, seed uint64) {
	if capacity < 0 {
		capacity = 0
	}
	t.capacity = capacity
	t.size = 0
	t.first, t.inserted = 0, 0
	t.head, t.run = 0, 0
	t.indexed = indexed
	// Keep memory sized for this capacity; release what a larger one left.
	// What is kept is cleared: a new connection must find nothing of the
	// last one's fields (Init is how a codec starts a connection).
	if len(t.arena) > twice(capacity) {
		t.arena = nil
	}
	clear(t.arena[:cap(t.arena)])
	if len(t.ents) > 2*(capacity/Overhead+1) {
		t.ents = nil
		t.index = index{}
	}
	clear(t.ents[:cap(t.ents)])
	if indexed {
		if seed != 0 {
			t.index.seed = seed
		}
		t.index.reset(len(t.ents))
	} else {
		t.index = index{}
	}
}

// SetCapacity changes the capacity, evicting oldest entries to fit.
func (t *Table) SetCapacity(capacity int) {
	if capacity < 0 {
		capacity = 0
	}
	t.capacity = capacity
	for t.size > capacity {
		t.evictOldest()
	}
}

// Capacity returns the current capacity.
func (t *Table) Capacity() int { return t.capacity }

// Size returns the sum of entry sizes (len(name)+len(value)+Overhead).
func (t *Table) Size() int { return t.size }

// Len returns the number of entries.
func (t *Table) Len() int { return int(t.inserted - t.first) }

// Inserted returns the number of entries ever inserted: the absolute index
// the next insert will get (QPACK's Insert Count).
func (t *Table) Inserted() uint64 { return t.inserted }

// EvictsBelow reports whether an insert of the given size fits at all
// (size <= capacity) and evicts only entries below absolute index lim.
func (t *Table) EvictsBelow(size int, lim uint64) bool {
	if size > t.capacity {
		return false
	}
	free := t.capacity - t.size
	for abs := t.first; free < size; abs++ {
		if abs >= lim {
			return false
		}
		free += t.EntrySize(abs)
	}
	return true
}

// Add inserts name and value, evicting oldest entries to make room. name or
// value may alias an entry of t (even one that this insert evicts). An entry
// larger than the capacity empties the table and is not inserted (RFC 7541
// §4.4); Add then returns false.
func (t *Table) Add(name, value []byte) bool { return t.AddTagged(name, value, 0) }

// AddTagged is Add that keeps tag with the entry, for GetTagged: a byte the
// codec derives once per insert (the decoders keep the name's
// static.FieldID) instead of once per reference.
func (t *Table) AddTagged(name, value []byte, tag uint8) bool {
	var hn, hf uint32
	if t.indexed {
		hn, hf = hashBytes(&t.index, name, value)
	}
	return t.add(name, value, tag, hn, hf)
}

// AddFresh is AddTagged for a name and value that alias no bytes of t (a
// decoder's static name, and a value from its input or scratch) or a value
// written to Spare after the name's length, into a table without index:
// the usual insert, into the run at the head after evicting, without the
// calls and alias checks of the general one.
func (t *Table) AddFresh(name, value []byte, tag uint8) bool {
	if t.indexed {
		return t.AddTagged(name, value, tag)
	}
	// add, without place.
	p, n := t.head, len(name)+len(value)
	if t.fits(n) || t.evictFor(n) {
		t.head = p + n
	} else if p = t.relocate(len(name), len(value)); p < 0 {
		return false
	}
	a := t.arena[p : p+n]
	if len(value) > 0 && unsafe.SliceData(value) != &a[len(name)] { // else in place (Spare)
		copy(a[len(name):], value)
	}
	copy(a, name)
	t.commit(p, len(name), len(value), tag)
	return true
}

// Spare returns the free bytes where the next insert goes unless it
// evicts entries that wrap around or needs the arena to grow. A decoder
// may decode a value there, after the length of its name, and then pass it
// to AddFresh, which finds it in place when the entry goes there and
// copies it from there otherwise. Any insert or eviction may write them.
func (t *Table) Spare() []byte {
	if t.run < t.head {
		return nil
	}
	return t.arena[t.head:t.run:t.run]
}

// Duplicate inserts a copy of live entry abs, as Add of its name and value
// does, with the index's hashes of the entry instead of new ones.
//
// The entry's bytes are one run of the arena, copied at once: copy moves
// them right where the new entry overlaps them (its insert evicted them),
// and a grown arena leaves them in the old one.
func (t *Table) Duplicate(abs uint64) bool {
	if abs < t.first || abs >= t.inserted {
		return false
	}
	e := t.ent(abs)
	nlen, vlen, tag := int(e.nlen), int(e.vlen), e.Tag()
	n := nlen + vlen
	// (An arena grown for the copy leaves the source in the old one. An
	// entry of no bytes may sit at the arena's end, or in none.)
	src := ""
	if n > 0 {
		src = wire.RawString(&t.arena[:cap(t.arena)][e.off()], n)
	}
	var hn, hf uint32
	if t.indexed {
		l := &t.index.slots[abs&t.mask()]
		hn, hf = l.hn, l.hf
	}
	p := t.head
	if t.fits(n) || t.evictFor(n) {
		t.head = p + n
	} else if p = t.relocate(nlen, vlen); p < 0 {
		return false
	}
	if n > 0 { // (no pointer past the arena's end for an entry of no bytes)
		move(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), p), src)
	}
	t.commit(p, nlen, vlen, tag)
	if t.indexed {
		t.link(t.inserted-1, hn, hf)
	}
	return true
}

// add is AddTagged with the index's hashes of name and value.
func (t *Table) add(name, value []byte, tag uint8, hn, hf uint32) bool {
	p, n := t.head, len(name)+len(value)
	if t.fits(n) {
		// Free bytes, which name and value cannot alias.
		a := t.arena[p:]
		copy(a, name)
		copy(a[len(name):], value)
		t.head = p + n
	} else {
		// Bytes of the entries this insert evicted (or a new arena, the
		// old one keeping them): name or value may alias those.
		if t.evictFor(n) {
			t.head = p + n
		} else if p = t.relocate(len(name), len(value)); p < 0 {
			return false
		}
		t.place(t.arena[p:p+n], name, value)
	}
	t.commit(p, len(name), len(value), tag)
	if t.indexed {
		t.link(t.inserted-1, hn, hf)
	}
	return true
}

// place writes name and value into dst, space of entries this insert
// evicted: when they are bytes of such an entry, they are copied out
// before being written over.
func (t *Table) place(dst, name, value []byte) {
	if overlaps(dst, name) || overlaps(dst, value) {
		t.scratch = append(append(t.scratch[:0], name...), value...)
		copy(dst, t.scratch)
		return
	}
	copy(dst, name)
	copy(dst[len(name):], value)
}

// AddString is Add for strings.
func (t *Table) AddString(name, value string) bool {
	var h Hash
	if t.indexed {
		h = t.Hash(name, value)
	}
	return t.AddHashed(h, name, value)
}

// AddHashed is AddString for a field whose Hash the caller holds (an
// encoder that looked it up first): h must be t.Hash(name, value) (or HashID's), or
// anything when t was initialized without indexing.
func (t *Table) AddHashed(h Hash, name, value string) bool {
	p, n := t.head, len(name)+len(value)
	if t.fits(n) || t.evictFor(n) {
		t.head = p + n
	} else if p = t.relocate(len(name), len(value)); p < 0 {
		return false
	}
	// The arena holds n bytes at p (the array has a byte past its
	// length for an empty entry at its end), which neither string
	// overlaps.
	if n > 0 {
		_ = t.arena[p+n-1]
		d := unsafe.Pointer(unsafe.SliceData(t.arena))
		put(unsafe.Add(d, p), name)
		put(unsafe.Add(d, p+len(name)), value)
	}
	t.commit(p, len(name), len(value), 0)
	if t.indexed {
		t.link(t.inserted-1, h.n, h.f)
	}
	return true
}

// relocate places an entry of nlen+vlen bytes that neither fits the free
// run at t.head nor the run evictFor extends there: where prepare puts it,
// t.head past it (settle); -1 when it cannot go in. The inserts try those
// two runs first, inline.
func (t *Table) relocate(nlen, vlen int) int {
	p, ok := t.prepare(nlen, vlen)
	if !ok {
		return -1
	}
	t.settle(p, nlen+vlen)
	return p
}

// fits reports whether an entry of n bytes evicts nothing and fits the
// free run at t.head, the common insert, which then needs no prepare.
func (t *Table) fits(n int) bool {
	return t.size+n+Overhead <= t.capacity && n <= t.run-t.head && t.Len() < len(t.ents) && uint64(n) <= maxLen
}

// evictFor is the usual insert into a full table, in one pass: it evicts
// the oldest entries until an entry of n bytes fits the capacity, and
// reports whether it then fits the free run at t.head, which it extends
// over the bytes of the evicted entries while the entries wrap around (see
// settle). When it reports false, prepare places the entry: n is larger
// than the capacity, the table emptied, the ring is full, or the entry
// goes to the start of the arena or to a larger one. Evicting first
// changes nothing for prepare, which would evict the same entries.
func (t *Table) evictFor(n int) bool {
	size := t.size + n + Overhead
	if t.Len() == 0 || n+Overhead > t.capacity || uint64(n) > maxLen {
		return false
	}
	// The entry alone fits the capacity, so the loop stops at the
	// latest with the table empty.
	ents, first := t.ents, t.first
	for size > t.capacity {
		e := t.ent(first) // live: first < t.inserted
		size -= int(e.nlen) + int(e.vlen) + Overhead
		first++
	}
	t.first, t.size = first, size-n-Overhead
	if first == t.inserted || t.Len() == len(ents) {
		return false
	}
	// t.head is the end of the newest entry: the entries wrap around
	// when the oldest lies after it, and then the bytes up to a byte
	// before the oldest are free. Otherwise the run is left as it was
	// (it may end short of the arena's end, and prepare then places the
	// entry): extending it as settle does measured 0.6 to 1 % more
	// instructions on the HPACK trace encode and varying request decode.
	if tail := t.ent(first).off(); tail > t.head {
		t.run = tail - 1
	}
	return n <= t.run-t.head
}

// settle records the free run after the entry of n bytes that prepare
// placed at p: up to the arena's end, or while the entries wrap around,
// up to a byte before the oldest (see prepare).
func (t *Table) settle(p, n int) {
	t.head, t.run = p+n, len(t.arena)
	if t.Len() > 0 {
		if tail := t.ents[t.first&t.mask()].off(); tail > p {
			t.run = tail - 1
		}
	}
}

// prepare evicts for an entry of nlen+vlen bytes and returns the arena
// offset where it goes, or false (table emptied) when it is too large.
//
// The offset follows the live entries, and the arena grows when they leave
// no room. With live bytes B and B+n < capacity (the RFC accounting leaves
// at least 32 per entry), an arena of 2*capacity always has room, and so
// does one of 2*capacity-1 (B+n is at most capacity-32): when the
// data does not wrap and the end lacks room, the live region starts past
// 2c-n-B > c > n; when it wraps, the gap between the newest and oldest
// entry is the wrap point minus B, and the wrap point lies past 2c minus the
// (live, so < c) entry that wrapped.
func (t *Table) prepare(nlen, vlen int) (int, bool) {
	n := nlen + vlen
	if n+Overhead > t.capacity || uint64(nlen) > maxLen || uint64(vlen) > maxLen {
		for t.Len() > 0 {
			t.evictOldest()
		}
		return 0, false
	}
	for t.size+n+Overhead > t.capacity {
		t.evictOldest()
	}
	if t.Len() == len(t.ents) {
		t.growRing()
	}
	if t.Len() == 0 {
		if n <= len(t.arena) {
			return 0, true
		}
		return t.grow(n), true
	}
	oldest := &t.ents[t.first&t.mask()]
	newest := &t.ents[(t.inserted-1)&t.mask()]
	tail, head := oldest.off(), newest.end()
	// While wrapped, a gap of at least one byte stays between the newest
	// and the oldest entry, so newest.off < tail tells the states apart even
	// for empty entries.
	if newest.off() >= tail { // not wrapped: live bytes are [tail, head)
		if len(t.arena)-head >= n {
			return head, true
		}
		if tail > n {
			return 0, true
		}
	} else if tail-head > n { // wrapped: free bytes are [head, tail)
		return head, true
	}
	return t.grow(n), true
}

// maxLen bounds a name or value so that entry lengths fit in uint32.
const maxLen = 1<<32 - 1

// commit records the entry written at p (the caller indexes it).
func (t *Table) commit(p, nlen, vlen int, tag uint8) {
	// (The caller made room in the ring: it is not empty.)
	*t.ent(t.inserted) = Entry{pos: uint64(p)<<8 | uint64(tag), nlen: uint32(nlen), vlen: uint32(vlen)}
	t.inserted++
	t.size += nlen + vlen + Overhead
}

// grow moves the live entries to the start of a larger arena and returns
// the offset after them. The old arena is left untouched, so an insert's
// bytes that alias it stay valid.
func (t *Table) grow(n int) int {
	live := t.size - Overhead*t.Len()
	size := max(2*len(t.arena), 2*(live+n), minArena)
	// 2c-1, not 2c: with its extra byte the largest arena is a power of
	// two, a size class (8,193 bytes took 9,472 for a 4096 table).
	size = min(size, max(twice(t.capacity)-1, live+n))
	// One byte more than used: an empty entry at the very end still
	// points into the array (GetTagged's unsafe slices).
	arena := make([]byte, size, size+1)
	p := 0
	for abs := t.first; abs < t.inserted; abs++ {
		e := &t.ents[abs&t.mask()]
		l := int(e.nlen) + int(e.vlen)
		copy(arena[p:], t.arena[e.off():e.off()+l])
		e.pos = uint64(p)<<8 | e.pos&0xff
		p += l
	}
	t.arena = arena
	return p
}

// minArena and minRing are the first arena's bytes and ring's entries: a
// table grows on use, and one of a connection that inserts a few short
// fields keeps 4 entries (and as many index slots). With its extra byte
// the first arena fills a size class, 256 bytes, and so do its doublings
// (257 bytes took 288).
const (
	minArena = 255
	minRing  = 4
)

// growRing doubles the entry ring, keeping each entry at abs&mask.
func (t *Table) growRing() {
	old, oldMask := t.ents, t.mask()
	t.ents = make([]Entry, max(2*len(old), minRing))
	for abs := t.first; abs < t.inserted; abs++ {
		t.ents[abs&t.mask()] = old[abs&oldMask]
	}
	if t.indexed {
		t.index.grow(t, len(t.ents), oldMask)
	}
}

// twice returns 2n, saturating: QPACK capacities may be near the int limit.
func twice(n int) int {
	if n > math.MaxInt/2 {
		return math.MaxInt
	}
	return 2 * n
}

func (t *Table) mask() uint64 { return uint64(len(t.ents)) - 1 }

func (t *Table) evictOldest() {
	e := &t.ents[t.first&t.mask()]
	t.size -= int(e.nlen) + int(e.vlen) + Overhead
	t.first++
}

// Get returns the entry rel places from the newest (0 is the newest).
// The slices alias the arena: valid until the next change to t.
func (t *Table) Get(rel uint64) (name, value []byte, ok bool) {
	name, value, _, ok = t.GetTagged(rel)
	return name, value, ok
}

// GetTagged is Get that also returns the entry's tag (0 unless AddTagged).
func (t *Table) GetTagged(rel uint64) (name, value []byte, tag uint8, ok bool) {
	e := t.Ref(rel)
	if e == nil {
		return nil, nil, 0, false
	}
	name, value = t.Bytes(e)
	return name, value, e.Tag(), true
}

// Ref returns the entry rel places from the newest (0 is the newest), or
// nil. With Bytes and Tag it is GetTagged in pieces small enough to inline:
// a decoder's every dynamic reference.
func (t *Table) Ref(rel uint64) *Entry {
	if rel >= t.inserted-t.first {
		return nil
	}
	return t.ent(t.inserted - 1 - rel)
}

// ent returns the ring's entry for absolute index abs, live (so that the
// ring is not empty): masked, its index is in bounds, unchecked.
func (t *Table) ent(abs uint64) *Entry {
	return (*Entry)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.ents)), uintptr(abs&t.mask())*unsafe.Sizeof(Entry{})))
}

// Tag returns the tag e was added with.
func (e *Entry) Tag() uint8 { return uint8(e.pos) }

// Bytes returns the name and value of e, which Ref returned since the
// last change to t, each with its length as capacity, so that appending
// to one never writes the arena. A live entry's bytes lie in the arena, so
// the slices are made without bounds checks; the arena's array has a byte
// past its length, so even an empty entry at its end points into it.
func (t *Table) Bytes(e *Entry) (name, value []byte) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), e.pos>>8)
	n, v := int(e.nlen), int(e.vlen)
	return wire.RawBytes((*byte)(p), n, n), wire.RawBytes((*byte)(unsafe.Add(p, n)), v, v)
}

// Strings is Bytes as strings, for comparisons, valid while e is: built
// without unsafe.String, whose checks that the bytes do not wrap around
// the address space cost a hit of an encoder's recent cache 8
// instructions.
func (t *Table) Strings(e *Entry) (name, value string) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), e.pos>>8)
	return wire.RawString((*byte)(p), int(e.nlen)), wire.RawString((*byte)(unsafe.Add(p, int(e.nlen))), int(e.vlen))
}

// Holds reports whether the entry with absolute index abs is live and
// holds name and value: an encoder's check of the entry a field matched
// before. Lengths are compared first, then the bytes, inline.
func (t *Table) Holds(abs uint64, name, value string) bool {
	if abs < t.first || abs >= t.inserted {
		return false
	}
	e := t.ent(abs)
	if int(e.nlen) != len(name) || int(e.vlen) != len(value) {
		return false
	}
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(t.arena)), e.pos>>8)
	// (wire.Equal leaves strings under 8 bytes to memequal.)
	n, v := wire.RawString((*byte)(p), len(name)), wire.RawString((*byte)(unsafe.Add(p, len(name))), len(value))
	return (len(n) < 8 && wire.EqualShort(n, name) || len(n) >= 8 && wire.Equal(n, name)) &&
		(len(v) < 8 && wire.EqualShort(v, value) || len(v) >= 8 && wire.Equal(v, value))
}

// HoldsName is Holds for the name alone: whether entry abs is live and
// has the name.
func (t *Table) HoldsName(abs uint64, name string) bool {
	if abs < t.first || abs >= t.inserted || int(t.ent(abs).nlen) != len(name) {
		return false
	}
	n, _ := t.Strings(t.ent(abs))
	return len(n) < 8 && wire.EqualShort(n, name) || len(n) >= 8 && wire.Equal(n, name)
}

// Abs returns the entry with absolute index abs (0 is the first ever inserted).
func (t *Table) Abs(abs uint64) (name, value []byte, ok bool) {
	if abs < t.first || abs >= t.inserted {
		return nil, nil, false
	}
	name, value = t.Bytes(&t.ents[abs&t.mask()])
	return name, value, true
}

// link puts entry abs, with hashes hn and hf, at the head of its buckets'
// chains (an empty bucket ends a chain: next 0), with no bounds checks:
// the index has a slot per entry of the ring, a power of two, so the
// three masked indices are in bounds. Every insert links its entry, and
// grow the live ones again, oldest first.
func (t *Table) link(abs uint64, hn, hf uint32) {
	mask, a := t.mask(), uint32(abs+1)
	s := unsafe.Pointer(unsafe.SliceData(t.index.slots))
	const size = unsafe.Sizeof(slot{})
	l := (*slot)(unsafe.Add(s, uintptr(abs&mask)*size))
	bn := (*slot)(unsafe.Add(s, uintptr(uint64(hn)&mask)*size))
	bf := (*slot)(unsafe.Add(s, uintptr(uint64(hf)&mask)*size))
	l.hn, l.hf = hn, hf
	l.nextN, l.nextF = 0, 0
	if bn.headN != 0 {
		l.nextN = a - bn.headN
	}
	if bf.headF != 0 {
		l.nextF = a - bf.headF
	}
	bn.headN, bf.headF = a, a
}
