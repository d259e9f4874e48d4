package qpack

import (
	"slices"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

// staticReplay remembers, for a static-only encoder fed a FieldList, the
// field at each of the leading positions of the last section and its line.
// A server sends the same fields in the same order section after section,
// so the field at position k is compared with slot k alone (addresses,
// lengths and flags, then the bytes), without hashing. The lines of the
// slots lie one after the other in buf, behind the section prefix, so the
// section is copied with one append when every field is as before; a field
// that is not has its line put in its slot's span first.
//
// Slots are verified byte for byte as the line memo's entries are, against
// static-table strings (the comparison of a string with itself stops at
// the address) or against the slot's own copies, which nothing else
// references and which change only when the slot does. A raw
// Content-Length's slot holds the number, so a length that repeats is
// copied with the rest.
//
// A slot without a line (a line the memo does not keep, or no room for the
// copies) has an empty span: its field is encoded on its own every time.
type staticReplay struct {
	slots [replayLen]replaySlot
	n     int    // slots in use: their lines make up buf[len(staticPrefix):]
	buf   []byte // the prefix, then the lines of slots 0 to n-1
	line  []byte // scratch: the line of a field no slot holds
	bytes int    // total capacity of the slots' own buffers
	// after is where the line memo predicts the field after the slots.
	after uint8
}

// replayLen is how many leading positions of a section have a slot.
const replayLen = 32

// noEntry is no index of a line memo entry.
const noEntry = 0xff

// replayBudget bounds the capacity of all the slots' own buffers.
const replayBudget = 8 << 10

type replaySlot struct {
	name, value uintptr
	lens        uint64 // lineKey; 0 in a slot without a line
	raw         int64  // the raw Content-Length, or -1
	f           fastpath.Flags
	end         int // the end of the slot's line in buf
	// cname and cvalue are what the caller's strings are verified against:
	// static-table strings or copies in own.
	cname, cvalue string
	own           []byte
}

// inside reports whether s's bytes lie in b's array.
func inside(s string, b []byte) bool {
	p, lo := addr(s), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return len(s) > 0 && p >= lo && p < lo+uintptr(cap(b))
}

// start returns where slot k's line begins in buf.
func (r *staticReplay) start(k int) int {
	if k == 0 {
		return len(staticPrefix)
	}
	return r.slots[k-1].end
}

// appendReplay appends the whole section of l's remaining fields, prefix
// included, for a static-only encoder. With marks, the end of each unit is
// appended to e.pl.ends, as appendStatic does.
func (e *Encoder) appendReplay(dst []byte, l *fastpath.FieldList, marks bool) []byte {
	r := &e.lines.rep
	if len(r.buf) == 0 {
		r.buf = append(r.buf, staticPrefix[:]...)
	}
	first := l.Pos() + 1
	total := l.Len() - first
	lim := min(total, replayLen)
	if marks {
		e.pl.ends = append(e.pl.ends, len(dst)+len(staticPrefix))
	}
	// The bytes of buf[from:] up to slot k are still to be copied.
	from, k := 0, 0
	for {
		m := r.match(l, first, k, lim)
		if marks {
			for ; k < m; k++ {
				e.pl.ends = append(e.pl.ends, len(dst)+r.slots[k].end-from)
			}
		}
		if k = m; k == lim {
			break
		}
		if !e.replayMiss(l, first, k) {
			// No line in the slot: the field's line goes between.
			dst = append(dst, r.buf[from:r.start(k)]...)
			dst = append(dst, r.line...)
			from = r.start(k)
		}
		if marks {
			e.pl.ends = append(e.pl.ends, len(dst)+r.slots[k].end-from)
		}
		k++
	}
	dst = append(dst, r.buf[from:r.start(k)]...)
	if k < total {
		// Past the slots: the line memo, as appendStatic uses it.
		pred := &r.after
		for ; k < total; k++ {
			name, value, f, raw := l.At(first + k)
			if raw >= 0 {
				dst = e.staticContentLength(dst, f, raw)
			} else if en := &e.lines.ents[*pred]; en.keyIs(name, value, f) && en.verified(name, value) {
				dst = append(dst, en.line()...)
				pred = &en.next
			} else {
				dst, pred = e.staticMemo(dst, name, value, f, pred)
			}
			if marks {
				e.pl.ends = append(e.pl.ends, len(dst))
			}
		}
	}
	l.Seek(l.Len())
	return dst
}

// match returns the position, from k on and below lim, of the first field
// of l (counted from first) that its slot does not hold: the loop keeps its
// state in registers and stores nothing.
func (r *staticReplay) match(l *fastpath.FieldList, first, k, lim int) int {
	for ; k < lim; k++ {
		name, value, f, raw := l.At(first + k)
		s := &r.slots[k]
		// One branch for the key: it is the same field nearly always.
		if (s.lens^lineKey(name, value))|uint64(s.name^addr(name))|uint64(s.value^addr(value))|
			uint64(s.f^f)|uint64(s.raw^raw) != 0 ||
			!wire.Same(s.cname, name) {
			break
		}
		// The value, compared inline (wire.Equal): a call to memequal
		// would make the loop spill its state.
		if !wire.Equal(s.cvalue, value) {
			break
		}
	}
	return k
}

// replayMiss makes slot k hold field k of l (counted from first), which it
// did not, with the field's line in its span, and reports whether it does:
// if not, the slot's span is empty and the line is in r.line.
func (e *Encoder) replayMiss(l *fastpath.FieldList, first, k int) bool {
	r := &e.lines.rep
	name, value, f, raw := l.At(first + k)
	s := &r.slots[k]
	held := false
	if raw >= 0 {
		// The line depends on the number and the flags alone.
		r.line = e.staticContentLength(r.line[:0], f, raw)
		s.name, s.value, s.lens, s.raw, s.f = addr(name), addr(value), lineKey(name, value), raw, f
		s.cname, s.cvalue = "content-length", "" // as FieldList makes them
		held = true
	} else {
		pred := uint8(noEntry) // no prediction: the slots replace it
		if r.line, _ = e.staticMemo(r.line[:0], name, value, f, &pred); pred != noEntry {
			held = r.hold(s, &e.lines.ents[pred], name, value, f)
		}
	}
	line := r.line
	if !held {
		line = nil
		*s = replaySlot{end: s.end, own: s.own[:0]}
	}
	// Put the line in the slot's span, moving the spans after it.
	st := r.start(k)
	if k == r.n {
		s.end = st
		r.n++
	}
	if d := len(line) - (s.end - st); d != 0 {
		r.buf = slices.Replace(r.buf, st, s.end, line...)
		for i := k + 1; i < r.n; i++ {
			r.slots[i].end += d
		}
	} else {
		copy(r.buf[st:], line)
	}
	s.end = st + len(line)
	return held
}

// hold makes s the slot of the field (name, value, f) whose memo entry is
// en, with copies of what it must verify; false when there is no room.
func (r *staticReplay) hold(s *replaySlot, en *lineEntry, name, value string, f fastpath.Flags) bool {
	cname, cvalue := en.cname, en.cvalue
	copyName, copyValue := inside(cname, en.buf), inside(cvalue, en.buf)
	need := 0
	if copyName {
		need += len(name)
	}
	if copyValue {
		need += len(value)
	}
	own := s.own[:0]
	if cap(own) < need {
		if r.bytes-cap(own)+need > replayBudget {
			return false
		}
		r.bytes += need - cap(own)
		own = make([]byte, 0, need)
	}
	if copyName {
		own = append(own, name...)
		cname = unsafe.String(unsafe.SliceData(own), len(name))
	}
	if copyValue {
		k := len(own)
		own = append(own, value...)
		cvalue = unsafe.String(&own[k], len(value))
	}
	s.name, s.value, s.lens, s.raw, s.f = addr(name), addr(value), lineKey(name, value), -1, f
	s.cname, s.cvalue, s.own = cname, cvalue, own
	return true
}
