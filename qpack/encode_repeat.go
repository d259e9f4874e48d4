package qpack

import "github.com/hqpack/hqpack/fastpath"

// planRepeat remembers the plan of the last FieldList section whose lines
// were all settled without the encoder's history of fields: indexed static
// entries, entries that the first lookup of preInsert found, and raw
// Content-Lengths. The lines of such a section are a function of its
// fields and of the table and lookup range they were looked up in, so the
// same fields (fastpath.SectionMemo: the same strings, verified byte for
// byte, and flags) against the same table plan the same lines: a warm
// server's response, section after section. The plan is then copied, its
// references recorded as preInsert records them, and finished as usual.
//
// The plan keeps no caller strings: its names and values are cleared, and
// the replay takes them from the list.
type planRepeat struct {
	fields fastpath.SectionMemo
	plan   []planField
	ok     bool
	// The table and lookup range of the plan: its Insert Count and oldest
	// entry, the draining zone's start and the reference limit.
	ins, first, lo, hi uint64

	// The section as the first repeat wrote it, once written: every
	// later repeat has the same prefix and lines, but for the line of the
	// raw Content-Length (SectionMemo allows one), whose number may
	// differ. So it is copied, that line rewritten, and the references
	// recorded from refs.
	written   bool
	bytes     []byte
	ends      []int // the end of each unit in bytes: the prefix, then each line
	cl        int   // the field that is a raw Content-Length, or -1
	clFlags   fastpath.Flags
	refs      []uint64 // the dynamic references, in field order
	ric, base uint64
	prefixLen int
}

// replayPlan plans l's fields from position from on as the remembered plan,
// if they are its fields and the table is as it was, and finishes the plan.
// Plan has set up the section (the draining zone, whether it may block).
func (e *Encoder) replayPlan(l *fastpath.FieldList, from int) bool {
	r, p := &e.rep, &e.pl
	if !r.ok || !p.dynamic || e.ack == AckNever || e.tbl.Inserted() != r.ins || e.oldest() != r.first ||
		p.drainLo != r.lo || e.refLimit() != r.hi {
		return false
	}
	cl, ok := r.fields.Match(l, from)
	if !ok {
		return false
	}
	if r.written {
		e.replayBytes(cl)
		l.Seek(l.Len())
		return true
	}
	p.fields = append(p.fields[:0], r.plan...)
	for i := range p.fields {
		pf := &p.fields[i]
		name, value, f, raw := l.At(from + i)
		if raw >= 0 {
			*pf = e.contentLengthField(f, uint64(raw), true, "")
			continue
		}
		pf.name, pf.value = name, value
		if pf.kind == repDynamic {
			e.reference(pf.ref)
		}
	}
	l.Seek(l.Len())
	e.finishPlan()
	e.writeRepeat(l, from)
	return true
}

// writeRepeat writes the section just planned by replayPlan into r.bytes,
// for the repeats after it. The plan is unchanged: Continue writes it.
func (e *Encoder) writeRepeat(l *fastpath.FieldList, from int) {
	r, p := &e.rep, &e.pl
	r.bytes = AppendSectionPrefix(r.bytes[:0], p.ric, p.base, e.maxEntries)
	r.ends = append(r.ends[:0], len(r.bytes))
	r.cl, r.refs = -1, r.refs[:0]
	for i := range p.fields {
		pf := &p.fields[i]
		if _, _, f, raw := l.At(from + i); raw >= 0 {
			r.cl, r.clFlags = i, f
		} else if pf.kind == repDynamic {
			r.refs = append(r.refs, pf.ref)
		}
		r.bytes = e.appendLine(r.bytes, pf, p.base)
		r.ends = append(r.ends, len(r.bytes))
	}
	r.ric, r.base, r.prefixLen = p.ric, p.base, p.prefixLen
	r.written = true
}

// replayBytes is replayPlan from the second repeat on, with the raw
// Content-Length cl: the written section, its Content-Length line
// rewritten, handed out as a static-only encoder's (Continue,
// AppendPlanned).
func (e *Encoder) replayBytes(cl int64) {
	r, p := &e.rep, &e.pl
	for _, abs := range r.refs {
		e.reference(abs)
	}
	buf, ends := p.buf[:0], p.ends[:0]
	if r.cl < 0 {
		buf = append(buf, r.bytes...)
		ends = append(ends, r.ends...)
	} else {
		// Field r.cl is unit r.cl+1, from r.ends[r.cl] to r.ends[r.cl+1].
		start, end := r.ends[r.cl], r.ends[r.cl+1]
		buf = append(buf, r.bytes[:start]...)
		pf := e.contentLengthField(r.clFlags, uint64(cl), true, "")
		buf = e.appendLine(buf, &pf, r.base)
		delta := len(buf) - end
		buf = append(buf, r.bytes[end:]...)
		ends = append(ends, r.ends[:r.cl+1]...)
		for _, x := range r.ends[r.cl+1:] {
			ends = append(ends, x+delta)
		}
	}
	p.buf, p.ends = buf, ends
	p.buffered = true
	p.off, p.unit = 0, 0
	p.ric, p.base, p.refs, p.prefixLen = r.ric, r.base, len(r.refs), r.prefixLen
	p.total = len(buf)
	if p.ric > 0 {
		e.out = append(e.out, outSection{stream: p.stream, ric: p.ric, minRef: p.minRef})
	}
	p.active = true
}

// saveRepeat remembers the plan just made of l's fields from position from
// on, if replayPlan could repeat it.
func (e *Encoder) saveRepeat(l *fastpath.FieldList, from int) {
	r, p := &e.rep, &e.pl
	if e.memoOff || !p.dynamic || e.ack == AckNever || e.tbl.Inserted() != p.start {
		r.forget()
		return
	}
	for i := range p.fields {
		switch pf := &p.fields[i]; pf.kind {
		case repStatic, repLitDigits:
		case repDynamic:
			if !pf.hit {
				r.forget()
				return
			}
		default:
			r.forget()
			return
		}
	}
	r.ok, r.written = false, false
	if !r.fields.Save(l, from) {
		return
	}
	r.plan = append(r.plan[:0], p.fields...)
	for i := range r.plan {
		r.plan[i].name, r.plan[i].value = "", ""
	}
	r.ins, r.first, r.lo, r.hi = e.tbl.Inserted(), e.oldest(), p.drainLo, e.refLimit()
	r.ok = true
}

// forget makes r remember no plan and no fields.
func (r *planRepeat) forget() {
	r.ok, r.written = false, false
	r.fields.Forget()
}
