package hpack

import (
	"slices"

	"github.com/hqpack/hqpack/fastpath"
)

// repeat remembers the last section that left the dynamic table as it
// found it, and its bytes. The encoder's output is a function of the
// fields and of the table (its entries and capacity), so the same fields
// against the same table are the same bytes: a server's warm response,
// section after section, is then one comparison (fastpath.SectionMemo)
// and one copy. A raw Content-Length may have another number: its line
// is coded anew between the bytes before and after it. The memo takes its
// copies when a section comes the second time in a row, so a section that
// does not repeat costs only a copy of its fields' headers.
type repeat struct {
	fields fastpath.SectionMemo
	out    []byte // the section as sent
	ok     bool
	// The table as it was. Entries leave only when one is inserted
	// (ins) or the capacity changes; a size update can lower it and
	// raise it back, emptying the table (live). cap is the capacity the
	// decisions were made for.
	ins  uint64
	live int
	cap  int
	// The raw Content-Length's line is out[clAt:clEnd], coding number cl.
	clAt, clEnd int
	cl          uint64
}

// sendRepeat appends the section of l's remaining fields if it is the one
// e.rep remembers, and reports whether it did. Without grow it writes only
// within cap(buf), and declines when the section would not fit.
func (e *Encoder) sendRepeat(buf []byte, grow bool, l *fastpath.FieldList) ([]byte, bool) {
	r := &e.rep
	if !r.ok || e.sizePending || e.memoOff || e.table.Inserted() != r.ins || e.table.Len() != r.live ||
		e.table.Capacity() != r.cap {
		return buf, false
	}
	cl, ok := r.fields.Match(l, l.Pos()+1)
	if !ok {
		return buf, false
	}
	out := r.out
	if cl < 0 || uint64(cl) == r.cl {
		if !grow && len(buf)+len(out) > cap(buf) {
			return buf, false
		}
		buf = append(buf, out...)
	} else {
		if e.clLen == 0 || e.clN != uint64(cl) {
			e.codeLength(uint64(cl))
		}
		// The two bytes before the digits are the representation and
		// the name index, which depend on the flags alone.
		head, line, tail := out[:r.clAt+2], e.clLine[:e.clLen], out[r.clEnd:]
		need := len(head) + len(line) + len(tail)
		if grow {
			buf = slices.Grow(buf, need)
		} else if len(buf)+need > cap(buf) {
			return buf, false
		}
		buf = append(buf, head...)
		buf = append(buf, line...)
		buf = append(buf, tail...)
	}
	e.started = len(out) > 0
	e.have, e.end = false, true
	e.nth += l.Len() - (l.Pos() + 1)
	l.Seek(l.Len())
	return buf, true
}

// saveRepeat remembers out as the section of l's fields from position from
// on, which e has just sent whole, without a size update, into a buffer
// where out starts at base. The table had ins and live entries before;
// unless it still has them, and for any section it cannot remember, it
// forgets the last one.
func (e *Encoder) saveRepeat(out []byte, base int, l *fastpath.FieldList, from int, ins uint64, live int) {
	r := &e.rep
	r.ok = false
	if e.memoOff || e.table.Inserted() != ins || e.table.Len() != live || !r.fields.Save(l, from) {
		return
	}
	r.out = append(r.out[:0], out...)
	r.ins, r.live, r.cap = ins, live, e.table.Capacity()
	r.clAt, r.clEnd, r.cl = e.clAt-base, e.clEnd-base, e.clN
	r.ok = true
}
