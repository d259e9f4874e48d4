package qpack

import "github.com/hqpack/hqpack/internal/wire"

// finishPlan chooses the Base, sizes every line and registers the section.
func (e *Encoder) finishPlan() {
	p := &e.pl
	p.ric, p.base, p.refs = 0, 0, 0
	if p.hasRef {
		for i := range p.fields {
			if k := p.fields[i].kind; k == repDynamic || k == repLitDynamic {
				p.ric = max(p.ric, p.fields[i].ref+1)
				p.refs++
			}
		}
		p.base = e.chooseBase()
	}
	p.prefixLen = prefixLen(p.ric, p.base, e.maxEntries)
	p.total = p.prefixLen
	for i := range p.fields {
		f := &p.fields[i]
		f.size = f.lineLen(p.base)
		p.total += f.size
	}
	if p.ric > 0 {
		e.out = append(e.out, outSection{stream: p.stream, ric: p.ric, minRef: p.minRef})
	}
	p.next = -1
	p.active = true
}

// maxBaseCandidates bounds the Bases tried besides the Required Insert
// Count.
const maxBaseCandidates = 16

// chooseBase returns the Base: the Required Insert Count (every reference
// relative, Delta Base 0), unless a lower Base is strictly shorter; the
// candidates are the Insert Count when planning began (entries inserted for
// the section become post-base) and one past each referenced entry.
func (e *Encoder) chooseBase() uint64 {
	p := &e.pl
	best, bestLen := p.ric, e.refsLen(p.ric)
	if p.start < p.ric && bestLen > p.refs+1 {
		if l := e.refsLen(p.start); l < bestLen {
			best, bestLen = p.start, l
		}
	}
	// Until a byte per reference and for the Base: nothing is shorter.
	for i, tried := 0, 0; i < len(p.fields) && bestLen > p.refs+1 && tried < maxBaseCandidates; i++ {
		f := &p.fields[i]
		if f.kind != repDynamic && f.kind != repLitDynamic || f.ref+1 >= p.ric {
			continue
		}
		if l := e.refsLen(f.ref + 1); l < bestLen {
			best, bestLen = f.ref+1, l
		}
		tried++
	}
	return best
}

// refsLen returns the bytes that depend on the Base: the Base's part of the
// prefix and the index part of each dynamic reference.
func (e *Encoder) refsLen(base uint64) int {
	p := &e.pl
	n := baseLen(p.ric, base)
	for i := range p.fields {
		f := &p.fields[i]
		switch f.kind {
		case repDynamic:
			if f.ref < base {
				n += wire.IntLen(6, base-1-f.ref)
			} else {
				n += wire.IntLen(4, f.ref-base)
			}
		case repLitDynamic:
			if f.ref < base {
				n += wire.IntLen(4, base-1-f.ref)
			} else {
				n += wire.IntLen(3, f.ref-base)
			}
		}
	}
	return n
}

// lineLen returns the encoded length of the line with the given Base.
func (f *planField) lineLen(base uint64) int {
	switch f.kind {
	case repStatic:
		return wire.IntLen(6, f.ref)
	case repDynamic:
		if f.ref < base {
			return wire.IntLen(6, base-1-f.ref)
		}
		return wire.IntLen(4, f.ref-base)
	}
	n := wire.IntLen(7, uint64(f.vlen)) + f.vlen
	switch f.kind {
	case repLitStatic, repLitDigits:
		n += wire.IntLen(4, f.ref)
	case repLitDynamic:
		if f.ref < base {
			n += wire.IntLen(4, base-1-f.ref)
		} else {
			n += wire.IntLen(3, f.ref-base)
		}
	case repLitName:
		n += wire.IntLen(3, uint64(f.nlen)) + f.nlen
	}
	return n
}

// encodeRIC returns the encoded Required Insert Count (RFC 9204 §4.5.1.1).
func encodeRIC(ric, maxEntries uint64) uint64 {
	if ric == 0 {
		return 0
	}
	return ric%(2*maxEntries) + 1
}

// baseLen returns the length of the Delta Base part of a prefix.
func baseLen(ric, base uint64) int {
	if base >= ric {
		return wire.IntLen(7, base-ric)
	}
	return wire.IntLen(7, ric-base-1)
}

// prefixLen returns the length of the Encoded Field Section Prefix.
func prefixLen(ric, base, maxEntries uint64) int {
	return wire.IntLen(8, encodeRIC(ric, maxEntries)) + baseLen(ric, base)
}
