package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/qinstr"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// oldest returns the absolute index of the oldest live entry.
func (e *Encoder) oldest() uint64 { return e.tbl.Inserted() - uint64(e.tbl.Len()) }

// evictable reports whether inserting an entry of the given size evicts
// only entries that may be evicted: acknowledged, and referenced neither by
// an unacknowledged section nor by this one.
func (e *Encoder) evictable(size int) bool {
	return e.tbl.EvictsBelow(size, min(e.pl.floor, e.pl.minRef))
}

// insertField inserts the field, or duplicates a draining entry holding it,
// when the policy, the table and the history allow. It reports whether the
// field is settled: the table now has it, or the line is chosen. When held,
// abs is the newest entry that holds the field; vh is the value's hash
// (HashIDOf).
func (e *Encoder) insertField(pf *planField, abs uint64, held bool, vh uint64) bool {
	p := &e.pl
	if e.ack == AckNever && !p.canBlock {
		return false // the entry could never be referenced
	}
	// (The strings are read again after the calls: not kept live.)
	size := len(pf.name) + len(pf.value) + table.Overhead
	if held {
		if abs >= p.drainLo {
			return false // not acknowledged yet, and the section may not block
		}
		// Draining: refresh it, or reference it where it is.
		if p.canBlock && e.evictable(size) {
			e.emitDuplicate(abs)
			return true
		}
		if abs < e.refLimit() {
			e.reference(abs)
			pf.kind, pf.ref = repDynamic, abs
			pf.noStrings()
			return true
		}
		return false
	}
	// The indexing policy, and the encoder's judgement of whether the
	// entry will pay for itself (see fieldHistory).
	switch {
	case fastpath.Flags(pf.pol)&fastpath.Index != 0:
		if size > e.capacity {
			return false
		}
	case fastpath.Flags(pf.pol)&(fastpath.NoIndex|fastpath.NeverIndex) != 0,
		size > int(uint(e.capacity)*3/4): // (not negative: a shift)
		return false
	default:
		// Yes without a count: with AckNever (nothing will ever be evicted,
		// and worthBlocking keeps the blocked streams for sections that use
		// the table), or for free room that the section references at once.
		bad := e.hist.names[pf.slot&(nameSlots-1)].score < 0 // (slot: sawName's)
		sure := e.ack == AckNever || !bad && p.canBlock && e.tbl.Size()+size <= e.capacity
		need := 1
		if bad {
			need++
		}
		// The history, written out (a call a field cost more): the key is
		// the name sawName saw last and the value's hash in the index
		// (HashIDOf's), counted when it counts and the filter lets it by.
		h := e.hist
		x := uint32(h.name ^ vh*0xbf58476d1ce4e5b9 | 1)
		k, bit, n := x>>30%filterWords, uint64(1)<<(x>>24%64), 0
		if !sure && (h.cur[k]|h.prev[k])&bit != 0 {
			n = h.count(x)
		}
		h.values[h.pos%historyLen], h.cur[k] = x, h.cur[k]|bit
		if h.pos++; h.pos == historyLen {
			h.pos, h.cur, h.prev = 0, [filterWords]uint64{}, h.cur
		}
		if n < need && !sure {
			return false
		}
	}
	e.rescue(size)
	if !e.evictable(size) {
		return false
	}
	e.emitInsert(pf.h, pf.name, pf.value, int(pf.sn), int32(pf.slot), false)
	return true
}

// insertName inserts the field's name alone (with an empty value) when the
// name keeps coming back with new values (seen twice: preInsert checks),
// so that literals can reference it.
func (e *Encoder) insertName(pf *planField) {
	p := &e.pl
	if e.ack == AckNever && !p.canBlock {
		return
	}
	// Any entry with the name (pf.h's name hash is Hash(name, "")'s: the
	// name is outside the static table) will do, referenceable now or
	// once acknowledged: most often the one that the line at this
	// position in the last section referenced (ref, which collect keeps).
	if r := pf.ref; r >= p.drainLo && e.tbl.HoldsName(r, pf.name) {
		return
	}
	if _, found := e.tbl.LookupName(pf.h, pf.name, p.drainLo, e.tbl.Inserted()); found {
		return
	}
	size := len(pf.name) + table.Overhead
	if size > e.capacity/4 {
		return
	}
	e.rescue(size)
	if e.evictable(size) {
		e.emitInsert(e.tbl.Hash(pf.name, ""), pf.name, "", -1, int32(pf.slot), true)
	}
}

// rescue duplicates the entries that an insert of the given size would
// evict and that sections referenced since they were inserted, so that the
// table keeps what sections use: the second chance that the CLOCK algorithm
// gives a FIFO cache. A Duplicate costs a byte or two; at most maxRescues
// per insert.
func (e *Encoder) rescue(size int) {
	for range min(e.tbl.Len(), maxRescues) {
		if size > e.capacity {
			return
		}
		// The first entry that the insert evicts and sections referenced:
		// EvictsBelow's walk, stopped there.
		free, hot := e.capacity-e.tbl.Size(), e.oldest()
		for free < size && e.hist.metaAt(hot).hits == 0 {
			free += e.tbl.EntrySize(hot)
			hot++
		}
		if free >= size || !e.evictable(e.tbl.EntrySize(hot)) {
			return
		}
		e.hist.metaAt(hot).hits = 0 // the copy carries on
		e.emitDuplicate(hot)
	}
}

const maxRescues = 16

// emitCapacity writes Set Dynamic Table Capacity once, before the first
// insert (a static-only connection sends nothing on the encoder stream).
func (e *Encoder) emitCapacity() {
	if !e.capSent {
		e.stream = qinstr.AppendSetCapacity(e.stream, uint64(e.capacity))
		e.capSent = true
	}
}

// emitInsert writes the shortest insert instruction for name and value and
// applies it to the table (h: their hashes).
func (e *Encoder) emitInsert(h table.Hash, name, value string, sn int, slot int32, nameOnly bool) {
	e.emitCapacity()
	ins := e.tbl.Inserted()
	// Name source: static, or the newest dynamic entry with the name (the
	// encoder stream is read in order, so any live entry will do), or literal.
	// A static name (at most 2 bytes as a reference) is always shorter
	// than the literal (a length byte and at least two of payload).
	var kind int
	var idx uint64
	if sn >= 0 {
		kind, idx = 1, uint64(sn)
		if b := uint64(1) << (sn & 63); e.hist.named&b == 0 {
			e.hist.named |= b // preInsert may have left fields of such names unhashed
			for i := range e.pl.fields {
				if f := &e.pl.fields[i]; f.sn >= 0 && f.sn&63 == int8(sn&63) && f.kind == repPending {
					f.h = e.tbl.HashID(int(f.sn)+1, f.name, f.value)
				}
			}
		}
	}
	// A field is inserted only when no live entry holds it (insertField):
	// its name's chain alone gives the answer. A name alone may be held,
	// below the draining zone, and that entry is LookupHashed's answer.
	// A static name of one byte is as short as any dynamic one: no lookup.
	var abs uint64
	var found bool
	switch {
	case sn >= 0 && wire.IntLen(6, uint64(sn)) == 1:
	case nameOnly:
		abs, _, found = e.tbl.LookupHashed(h, name, value, 0, ins)
	default:
		abs, found = e.tbl.LookupName(h, name, 0, ins)
	}
	if found {
		// The literal's length, sized only when there is a choice and its
		// least (a length byte, 5 bits a byte) is not above the reference's.
		rel := ins - 1 - abs
		refLen, best := wire.IntLen(6, rel), 1+(len(name)*5+7)>>3
		if sn >= 0 {
			best = wire.IntLen(6, uint64(sn))
		} else if refLen >= best {
			best = wire.StringLen(5, name, e.huff)
		}
		if refLen < best {
			kind, idx = 2, rel
		}
	}
	switch kind {
	case 0:
		e.stream = qinstr.AppendInsertWithLiteralName(e.stream, name, value, e.huff)
	case 1:
		e.stream = qinstr.AppendInsertWithNameRef(e.stream, true, idx, value, e.huff)
	default:
		e.stream = qinstr.AppendInsertWithNameRef(e.stream, false, idx, value, e.huff)
	}
	first := e.oldest()
	e.hist.grow(first, ins)
	e.tbl.AddHashed(h, name, value)
	e.inserted(first, slot, nameOnly)
}

// emitDuplicate writes Duplicate for entry abs and applies it.
func (e *Encoder) emitDuplicate(abs uint64) {
	e.emitCapacity()
	ins := e.tbl.Inserted()
	e.stream = qinstr.AppendDuplicate(e.stream, ins-1-abs)
	first := e.oldest()
	e.hist.grow(first, ins)
	m := *e.hist.metaAt(abs)
	slot := int32(m.slot)
	if !m.nameOnly && e.hist.stat(&m) == nil {
		slot = -1
	}
	e.tbl.Duplicate(abs) // the entry's hashes, not new ones
	e.inserted(first, slot, m.nameOnly)
}

// inserted updates the history and the draining zone after an insert that
// found the oldest entry at first.
//
// The oldest entries that the next inserts would evict are draining, and
// are not referenced (RFC 9204 §2.1.1.1) so that sections do not pin them:
// drainLo is set by each insert, and holds until the next (0 for an empty
// table, as Init leaves it). The zone ends at the oldest entry whose bytes
// and those of all entries before it (evicted ones too) reach the bytes
// ever inserted less the capacity plus the zone's size: that end only
// rises, so each insert walks on from the last one's (drainCum: the first
// sum less the second).
func (e *Encoder) inserted(first uint64, slot int32, nameOnly bool) {
	p, ins, oldest := &e.pl, e.tbl.Inserted(), e.oldest()
	for abs := first; abs < oldest; abs++ {
		e.hist.evicted(abs)
	}
	e.hist.inserted(ins-1, slot, nameOnly)
	lo, cum := p.drainLo, p.drainCum-e.tbl.EntrySize(ins-1)
	if lo < oldest || e.ack == AckNever {
		lo, cum = oldest, -e.tbl.Size() // (nothing is ever evicted with AckNever)
	}
	lim := min(int(uint(e.capacity)/drainFraction), drainMax) - e.capacity
	for ; cum < lim && lo < ins && e.ack != AckNever; lo++ {
		cum += e.tbl.EntrySize(lo)
	}
	p.drainLo, p.drainCum = lo, cum
}
