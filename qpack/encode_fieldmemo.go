package qpack

import "github.com/hqpack/hqpack/internal/table"

// fieldMemo spares a dynamic-table encoder the lookups of a field that the
// last sections found in the table at the same position: on a warm
// connection a server's constant fields and cached Date are the same
// strings, in the same order, section after section.
//
// Slot k holds the field that was at position k when the dynamic table
// lookup of preInsert found it (the caller's addresses, as integers, so
// that no caller memory is kept alive), the entry it found, and the table
// state of that lookup. A field at position k with the same addresses and
// lengths is compared byte for byte with the entry, if the entry is still
// live: equal, its static name index (and so its indexing policy) is
// known without the static table's lookup. If, besides, nothing was
// inserted or evicted since and the lookup's range is the same, the lookup
// would find the same entry: the field references it without hashing.
type fieldMemo [fieldMemoLen]fieldMemoSlot

// fieldMemoLen is how many leading positions of a section have a slot.
const fieldMemoLen = 32

type fieldMemoSlot struct {
	name, value uintptr
	lens        uint64 // lineKey; 0 in an empty slot
	abs         uint64 // the entry found
	sn          int32  // lowest static index with the name, or -1
	// The state of the lookup: the Insert Count, the oldest live entry,
	// and the range of absolute indexes it searched.
	ins, first, lo, hi uint64
}

// known reports whether slot k holds the field (name, value), and its
// entry, still live, has these very bytes. It returns the field's static
// name index.
func (m *fieldMemo) known(t *table.Table, k int, name, value string) (sn int32, ok bool) {
	if uint(k) >= fieldMemoLen {
		return 0, false
	}
	s := &m[k]
	if s.lens != lineKey(name, value) || s.name != addr(name) || s.value != addr(value) {
		return 0, false
	}
	n, v, live := t.Abs(s.abs)
	if !live || string(n) != name || string(v) != value {
		return 0, false
	}
	return s.sn, true
}

// found returns the entry that slot k's lookup found, if a lookup of the
// same field in [lo, hi) now would find the same: the table has not changed
// since and the range is the same. The caller has checked the slot with
// known.
func (m *fieldMemo) found(t *table.Table, k int, lo, hi uint64) (abs uint64, ok bool) {
	s := &m[k]
	ok = s.ins == t.Inserted() && s.first == t.Inserted()-uint64(t.Len()) && s.lo == lo && s.hi == hi
	return s.abs, ok
}

// save records in slot k that the lookup of (name, value) in [lo, hi)
// found entry abs.
func (m *fieldMemo) save(t *table.Table, k int, name, value string, sn int32, abs, lo, hi uint64) {
	if uint(k) >= fieldMemoLen {
		return
	}
	m[k] = fieldMemoSlot{
		name: addr(name), value: addr(value), lens: lineKey(name, value),
		abs: abs, sn: sn,
		ins: t.Inserted(), first: t.Inserted() - uint64(t.Len()), lo: lo, hi: hi,
	}
}
