package qpack

import "github.com/hqpack/hqpack/internal/wire"

// worthBlocking decides, with AckNever, whether a section should take one
// of the blocked streams: they never come back, so once the table is full
// (it never drains either) the encoder keeps them for the sections that
// gain the most from it, those whose estimated gain is at least the mean
// gain of the sections seen so far. The gain is estimated from the entries
// already in the table: the literal bytes that references would replace.
func (e *Encoder) worthBlocking() bool {
	if e.capacity-e.tbl.Size() >= e.capacity/8 {
		return true // still filling the table
	}
	p := &e.pl
	gain := 0
	for i := range p.fields {
		f := &p.fields[i]
		if f.kind != repPending {
			continue
		}
		h, _ := e.tbl.HashIDOf(int(f.sn)+1, f.name, f.value) // as preInsert
		_, exact, found := e.tbl.LookupHashed(h, f.name, f.value, 0, e.tbl.Inserted())
		switch {
		case exact && !f.never:
			vl, _ := e.huff.Choose(f.value)
			gain += wire.IntLen(7, uint64(vl)) + vl
			if f.sn < 0 {
				gain += wire.StringLen(3, f.name, e.huff)
			}
		case found && f.sn < 0:
			gain += wire.StringLen(3, f.name, e.huff) - 1
		}
	}
	e.gainSum += uint64(gain)
	e.gainN++
	return gain > 0 && uint64(gain)*e.gainN >= e.gainSum
}
