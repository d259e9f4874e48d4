package qpack

import "github.com/hqpack/hqpack/internal/static"

// fieldHistory is the encoder's memory for deciding what to insert and what
// to keep. An insert costs about as much as the literal it replaces, so it
// pays only when the entry is referenced again before it is evicted;
// one-off values (request IDs, checksums) would only churn the table. So:
//   - a field is inserted once it repeats: its hash is among the last
//     historyLen fields that were considered for insertion; while the table
//     still has free room and the section may reference the new entry at
//     once, it is inserted on first sight;
//   - a name whose inserted values keep being evicted unreferenced (score
//     below 0) needs one sighting more;
//   - a name outside the static table that keeps coming back with new
//     values is inserted alone, with an empty value, so literals can
//     reference the name;
//   - entries referenced since they were inserted get a second chance when
//     an insert would evict them: they are duplicated (see rescue).
//
// Everything here is deterministic (no random hash seed): two encoders given
// the same input write the same bytes.
type fieldHistory struct {
	values [historyLen]uint32 // ring of recent field hashes
	// The ring's filter: bit x>>24 of each value x written to it since
	// pos was last 0 (cur), and in the round before (prev).
	cur, prev [filterWords]uint64
	pos, plan uint32              // plan: number of the section being planned
	names     [nameSlots]nameStat // by name hash, overwritten on collision
	meta      []entryMeta         // by absolute index & (len-1), len a power of two
	name      uint64              // strHash of the name sawName saw last
	named     uint64              // bit sn&63: an entry had a static name sn since Init
}

const (
	historyLen  = 32 // (count is written out for 32)
	filterWords = 4  // (x>>30 picks the word)
	nameSlots   = 32
	// scoreMin and scoreMax bound a name's score.
	scoreMin = -2
	scoreMax = 4
)

type nameStat struct {
	hash  uint32 // the high half of the name's (the low half picks the slot)
	seen  uint16 // saturating
	score int8
}

// entryMeta follows one live dynamic table entry, in 16 bytes.
type entryMeta struct {
	plan     uint32 // section that inserted it, mod 2^32
	nhash    uint32 // its name's hash, to tell whether slot still holds it
	hits     uint32 // 1 once a later section referenced it, else 0
	slot     int8   // slot in names, -1 when none
	nameOnly bool
}

// strHash is a small deterministic string hash. Collisions only cost
// compression.
func strHash(s string, seed uint64) uint64 {
	h := seed ^ uint64(len(s))*0x9e3779b97f4a7c15
	for len(s) >= 8 {
		v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ v) * 0xff51afd7ed558ccd
		h ^= h >> 32
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 0xc4ceb9fe1a85ec53
	}
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// count returns how often x, a field's key (see insertField), is in the ring.
func (h *fieldHistory) count(x uint32) int {
	// Branch-free: a compare, SETE and a byte add a value, written out so
	// that each compare reads its value from memory (no load of its own).
	eq := func(y uint32) uint8 {
		if y == x {
			return 1
		}
		return 0
	}
	v := &h.values
	n := eq(v[0]) + eq(v[1]) + eq(v[2]) + eq(v[3]) + eq(v[4]) + eq(v[5]) + eq(v[6]) + eq(v[7])
	n += eq(v[8]) + eq(v[9]) + eq(v[10]) + eq(v[11]) + eq(v[12]) + eq(v[13]) + eq(v[14]) + eq(v[15])
	n += eq(v[16]) + eq(v[17]) + eq(v[18]) + eq(v[19]) + eq(v[20]) + eq(v[21]) + eq(v[22]) + eq(v[23])
	n += eq(v[24]) + eq(v[25]) + eq(v[26]) + eq(v[27]) + eq(v[28]) + eq(v[29]) + eq(v[30]) + eq(v[31])
	return int(n)
}

// staticNameHash holds strHash(name, 0) of each static name, at the
// lowest index with the name: sawName's hash of it, computed once.
var staticNameHash = func() (t [static.QPACKLen]uint64) {
	for i := range t {
		e, _ := static.QPACK(uint64(i))
		t[i] = strHash(e.Name, 0)
	}
	return t
}()

// nameHash returns sawName's hash of a name whose lowest static index is
// sn (-1 for none).
func nameHash(name string, sn int8) uint64 {
	if sn >= 0 {
		return staticNameHash[sn]
	}
	return strHash(name, 0)
}

// sawName counts a sighting of the name whose nameHash is x, and returns
// its stats slot, claiming the slot when it holds another name. It inlines
// (a call each not-found field, twice with nameHash's, cost more).
func (h *fieldHistory) sawName(x uint64) int32 {
	h.name = x
	i := int32(x / 2 % nameSlots) // as odd slots of 64 did: the same bytes out
	s := &h.names[i]
	if s.hash != uint32(x>>32)|1 {
		*s = nameStat{hash: uint32(x>>32) | 1}
	}
	if s.seen < ^uint16(0) {
		s.seen++
	}
	return i
}

// metaAt returns the record of live entry abs.
func (h *fieldHistory) metaAt(abs uint64) *entryMeta { return &h.meta[abs&uint64(len(h.meta)-1)] }

// grow makes room for records of the live entries [first, next] (next is
// about to be inserted): the ring follows the table's entry count, not its
// capacity, so a large capacity costs memory only when used.
func (h *fieldHistory) grow(first, next uint64) {
	if next-first < uint64(len(h.meta)) {
		return
	}
	old := h.meta
	h.meta = make([]entryMeta, max(4, 2*len(old)))
	for abs := first; abs < next; abs++ {
		*h.metaAt(abs) = old[abs&uint64(len(old)-1)]
	}
}

// inserted records entry abs, made by the current section.
func (h *fieldHistory) inserted(abs uint64, slot int32, nameOnly bool) {
	if nameOnly {
		slot = -1 // counts toward no name's stats (see stat)
	}
	m := h.metaAt(abs) // set field by field (see collect)
	m.plan, m.nhash, m.hits, m.slot, m.nameOnly = uint32(h.plan), 0, 0, int8(slot), nameOnly
	if slot >= 0 {
		m.nhash = h.names[slot].hash
	}
}

// stat returns the name stats that entry m counts toward, or nil.
func (h *fieldHistory) stat(m *entryMeta) *nameStat {
	s := &h.names[m.slot&(nameSlots-1)] // (a slot is below nameSlots)
	if m.slot < 0 || s.hash != m.nhash {
		return nil
	}
	return s
}

// referenced records a reference to entry abs by the current section.
func (h *fieldHistory) referenced(abs uint64) {
	// Counted when first referenced (an entry hit already, the usual, is
	// told by one load); stat, written out to inline.
	if m := h.metaAt(abs); m.hits == 0 && m.plan != uint32(h.plan) {
		if m.hits = 1; m.slot >= 0 {
			if s := &h.names[m.slot&(nameSlots-1)]; s.hash == m.nhash && s.score < scoreMax {
				s.score++
			}
		}
	}
}

// evicted records the eviction of entry abs.
func (h *fieldHistory) evicted(abs uint64) {
	m := h.metaAt(abs)
	if s := h.stat(m); m.hits == 0 && s != nil && s.score > scoreMin {
		s.score--
	}
}
