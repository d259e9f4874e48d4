package qpack

import (
	"github.com/hqpack/hqpack/internal/qinstr"
	"github.com/hqpack/hqpack/internal/wire"
)

// finishPlan chooses the Base, sizes every line and registers the section.
func (e *Encoder) finishPlan() {
	p := &e.pl
	p.ric, p.base, p.refs = 0, 0, 0
	if p.hasRef {
		// The references in field order, each entry<<1, | 1 for a name's
		// (the scratch of collectBlocked, which Plan no longer needs).
		refs := e.blocked[:0]
		for i := range p.fields {
			if k := p.fields[i].kind; k == repDynamic || k == repLitDynamic {
				p.ric = max(p.ric, p.fields[i].ref+1)
				refs = append(refs, p.fields[i].ref<<1|uint64(k-repDynamic)/2)
			}
		}
		e.blocked, p.refs = refs, len(refs)
		p.base = p.chooseBase(refs)
	}
	p.prefixLen = prefixLen(p.ric, p.base, e.maxEntries)
	p.total = p.prefixLen
	for i := 0; i < len(p.fields) && !p.lazy; i++ {
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
func (p *sectionPlan) chooseBase(refs []uint64) uint64 {
	best, bestLen := p.ric, refsLen(p.ric, p.ric, refs)
	if p.start < p.ric && bestLen > p.refs+1 {
		if l := refsLen(p.ric, p.start, refs); l < bestLen {
			best, bestLen = p.start, l
		}
	}
	// Until a byte per reference and for the Base: nothing is shorter.
	for i, tried := 0, 0; i < len(refs) && bestLen > p.refs+1 && tried < maxBaseCandidates; i++ {
		if b := refs[i]>>1 + 1; b < p.ric {
			if l := refsLen(p.ric, b, refs); l < bestLen {
				best, bestLen = b, l
			}
			tried++
		}
	}
	return best
}

// refsLen returns the bytes that depend on the Base: the Base's part of the
// prefix and the index part of each reference (see finishPlan).
func refsLen(ric, base uint64, refs []uint64) int {
	n := baseLen(ric, base)
	for _, r := range refs {
		ref, name := r>>1, uint8(r&1)
		if ref < base {
			n += wire.IntLen(6-2*name, base-1-ref)
		} else {
			n += wire.IntLen(4-name, ref-base)
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

// baseLen returns the length of the Delta Base part of a prefix.
func baseLen(ric, base uint64) int {
	if base >= ric {
		return wire.IntLen(7, base-ric)
	}
	return wire.IntLen(7, ric-base-1)
}

// prefixLen returns the length of the Encoded Field Section Prefix.
func prefixLen(ric, base, maxEntries uint64) int {
	return wire.IntLen(8, qinstr.EncodeRIC(ric, maxEntries)) + baseLen(ric, base)
}
