package qpack

import (
	"math/bits"

	"github.com/hqpack/hqpack/internal/qinstr"
	"github.com/hqpack/hqpack/internal/wire"
)

// finishPlan chooses the Base, sizes every line and registers the section.
func (e *Encoder) finishPlan() {
	p := &e.pl
	p.ric, p.base, p.refs = 0, 0, 0
	if p.hasRef {
		// The references in field order, each entry<<1, | 1 for a name's
		// (the scratch of collectBlocked, which Plan no longer needs), and
		// their length with the Base at the Required Insert Count.
		p.ric = p.maxRef + 1
		refs := e.blocked[:0]
		n := baseLen(p.ric, p.ric)
		for i := range p.fields {
			f := &p.fields[i]
			if k := f.kind; k == repDynamic || k == repLitDynamic {
				name := uint64(k-repDynamic) / 2
				refs = append(refs, f.ref<<1|name)
				n += relLen(p.ric-1-f.ref, 63>>(2*name))
			}
		}
		e.blocked, p.refs = refs, len(refs)
		p.base = p.chooseBase(refs, n)
	}
	p.prefixLen = prefixLen(p.ric, p.base, e.maxEntries)
	p.total = p.prefixLen
	if !p.lazy {
		for i := range p.fields {
			p.total += p.fields[i].lineLen(p.base, e.huff)
		}
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
// ricLen is refsLen(p.ric, p.ric, refs).
func (p *sectionPlan) chooseBase(refs []uint64, ricLen int) uint64 {
	best, bestLen := p.ric, ricLen
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
		ref, name := r>>1, r&1
		if ref < base {
			n += relLen(base-1-ref, 63>>(2*name)) // 6 or 4 prefix bits
		} else {
			n += relLen(ref-base, 15>>name) // 4 or 3
		}
	}
	return n
}

// relLen is wire.IntLen for a prefix whose largest value is m (2^n-1).
func relLen(v, m uint64) int {
	if v < m {
		return 1
	}
	return 2 + (bits.Len64((v-m)>>7)+6)/7
}

// lineLen returns the encoded length of the line with the given Base
// (h: the Huffman policy, for a literal not sized at planning).
func (f *planField) lineLen(base uint64, h wire.Huffman) int {
	switch f.kind {
	case repStatic:
		return wire.IntLen(6, f.ref)
	case repDynamic:
		if f.ref < base {
			return wire.IntLen(6, base-1-f.ref)
		}
		return wire.IntLen(4, f.ref-base)
	}
	vlen := int(f.vlen)
	if vlen < 0 {
		vlen, _ = h.Choose(f.value)
	}
	n := wire.IntLen(7, uint64(vlen)) + vlen
	switch f.kind {
	case repLitStatic:
		n += wire.IntLen(4, f.ref)
	case repLitDigits:
		n += wire.IntLen(4, staticContentLength)
	case repLitDynamic:
		if f.ref < base {
			n += wire.IntLen(4, base-1-f.ref)
		} else {
			n += wire.IntLen(3, f.ref-base)
		}
	case repLitName:
		nlen := int(f.nlen)
		if nlen < 0 {
			nlen, _ = h.Choose(f.name)
		}
		n += wire.IntLen(3, uint64(nlen)) + nlen
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
