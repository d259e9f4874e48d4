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
	// The table as it was. Every call that encodes drops the memo first
	// (prepare), so these are checked again only as a guard: entries
	// leave only when one is inserted (ins) or the capacity changes; a
	// size update can lower it and raise it back, emptying the table
	// (live). cap is the capacity the decisions were made for.
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

// repeatMark is what saveRepeat needs to know of a section's start: where
// it starts in l and in the output, and the table as it was.
type repeatMark struct {
	from, start, live int
	ins               uint64
	pending           bool // a size update goes first
}

func (e *Encoder) markRepeat(l *fastpath.FieldList, start int) repeatMark {
	return repeatMark{from: l.Pos() + 1, start: start, live: e.table.Len(), ins: e.table.Inserted(), pending: e.sizePending}
}

// saveRepeat gives the memo the section of l's fields that e has just
// written whole into buf[m.start:], and remembers its bytes if the memo
// takes it and the section left the table as m found it, with no size
// update written. Otherwise e remembers no section to send again.
func (e *Encoder) saveRepeat(buf []byte, l *fastpath.FieldList, m repeatMark) {
	r := &e.rep
	r.ok = false
	if e.memoOff || !r.fields.Save(l, m.from) || m.pending || e.table.Inserted() != m.ins || e.table.Len() != m.live {
		return
	}
	r.out = append(r.out[:0], buf[m.start:]...)
	r.ins, r.live, r.cap = m.ins, m.live, e.table.Capacity()
	r.clAt, r.clEnd, r.cl = e.clAt-m.start, e.clEnd-m.start, e.clN
	r.ok = true
}
