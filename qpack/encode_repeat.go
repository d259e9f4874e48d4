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
}

// replayPlan plans l's fields from position from on as the remembered plan,
// if they are its fields and the table is as it was. Plan has set up the
// section (the draining zone, whether it may block).
func (e *Encoder) replayPlan(l *fastpath.FieldList, from int) bool {
	r, p := &e.rep, &e.pl
	if !r.ok || !p.dynamic || e.ack == AckNever || e.tbl.Inserted() != r.ins || e.oldest() != r.first ||
		p.drainLo != r.lo || e.refLimit() != r.hi {
		return false
	}
	if _, ok := r.fields.Match(l, from); !ok {
		return false
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
	return true
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
	r.ok = false
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
	r.ok = false
	r.fields.Forget()
}
