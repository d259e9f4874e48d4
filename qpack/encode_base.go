package qpack

import (
	"math/bits"
	"slices"

	"github.com/hqpack/hqpack/internal/qinstr"
	"github.com/hqpack/hqpack/internal/wire"
)

// finishPlan chooses the Base, sizes every line and registers the section.
func (e *Encoder) finishPlan() {
	p := &e.pl
	p.ric, p.base = 0, 0
	if p.minRef != ^uint64(0) { // a reference
		p.ric, p.base = p.maxRef+1, p.maxRef+1
		// With the Base at the Required Insert Count, a byte per reference
		// and for the Base unless one is 63 below it or more (a name's, 15):
		// then nothing is shorter, and no list of references is needed.
		if p.maxRef-p.minRef >= 63 || p.maxRef-min(p.minName, p.maxRef) >= 15 {
			p.base = e.chooseBase()
		}
	}
	p.prefixLen, p.total = 0, 0 // lazy: not asked for (nor the division of EncodeRIC)
	if !p.lazy {
		p.prefixLen = prefixLen(p.ric, p.base, e.maxEntries)
		p.total = p.prefixLen
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
func (e *Encoder) chooseBase() uint64 {
	p := &e.pl
	fs, ric := p.fields, p.ric
	// The usual, told by the plan's bounds: x 1 (see baseRange), a name's: the first candidate
	// in [top, last], with no list, one branch a line (r 1: a reference below ric; by kind, mispredicted).
	if p.maxRef-p.minRef < 63 && p.maxRef-min(p.name2, p.maxRef) < 15 {
		top, last := max(p.maxRef-14, max(p.maxName, 6)-6), p.minName+15
		if top <= last && p.start-top <= last-top {
			return p.start
		}
		for i, tried := 0, uint64(0); top <= last && i < len(fs) && tried < maxBaseCandidates; i++ {
			b, r := fs[i].ref+1, (uint64((fs[i].kind-repDynamic)&^2)-1)>>63&((fs[i].ref+1-ric)>>63)
			if (b-top)|(r-1) <= last-top {
				return b
			}
			tried += r
		}
		return ric
	}
	// The references in field order, each entry<<1, | 1 for a name's.
	refs, n := slices.Grow(e.blocked[:0], len(fs))[:len(fs)], 0
	for i := range fs {
		d := fs[i].kind - repDynamic // 0 or 2 for a reference; with no branch, which mispredicts
		refs[n] = fs[i].ref<<1 | uint64(d)/2
		n += int((uint64(d&^2) - 1) >> 63)
	}
	refs, e.blocked = refs[:n], refs[:n]
	// Bases out of [first, last] are no shorter than ric (see baseRange).
	x, first, last, win := 0, uint64(0), ^uint64(0), ric-p.minRef <= baseWindow
	if win {
		x, first, last = baseRange(ric, refs)
	}
	best, bestLen := ric, 1+n+x // with the Base at ric (baseLen 1)
	for i := 0; !win && i < n; i++ {
		bestLen += relLen(ric-1-refs[i]>>1, 63>>(2*(refs[i]&1))) - 1
	}
	// Only a length below bestLen matters: refsLenUnder stops at it.
	lenAt := func(b uint64) int {
		if b < first || b > last {
			return bestLen
		}
		return refsLenUnder(ric, b, refs, bestLen)
	}
	if p.start < ric && bestLen > n+1 {
		if l := lenAt(p.start); l < bestLen {
			best, bestLen = p.start, l
		}
	}
	for i, tried := 0, 0; i < n && bestLen > n+1 && tried < maxBaseCandidates; i++ {
		if b := refs[i]>>1 + 1; b < ric {
			if l := lenAt(b); l < bestLen {
				best, bestLen = b, l
			}
			tried++
		}
	}
	return best
}

// While every referenced entry lies within baseWindow below the Required
// Insert Count (ric), each index takes one byte or two with any Base from
// the oldest one referenced: one exactly when the Base is in [r+1-m, r+M]
// for reference r (m, M: the post-base and relative prefixes' largest
// values). A table of 4,288 bytes or less holds at most 134 entries.
const baseWindow = 134 // 7 + 128 - 1: two bytes at most for any prefix

// baseRange returns x, the references of refs, all within baseWindow below
// ric, that take two bytes with the Base at ric, and the Bases from the
// oldest one referenced that may be shorter, from first to last: a Base
// needs fewer than x references out of their range, so it is at most the
// largest upper end below ric and, for x up to 4, at least the x-th lower end.
func baseRange(ric uint64, refs []uint64) (x int, first, last uint64) {
	for _, r := range refs {
		if h := r>>1 + 63 - (r&1)*48; h < ric { // (no shift by a variable)
			x, last = x+1, max(last, h)
		}
	}
	lo, floor := [4]int64{}, int64(0) // the x largest lower ends, in decreasing order; lo[x-1]
	if x == 0 || x > len(lo) {
		return x, 0, last
	}
	for _, r := range refs {
		if l := int64(r>>1+(r&1)*8) - 14; l > floor {
			for j := range lo[:x] {
				if l > lo[j] {
					lo[j], l = l, lo[j]
				}
			}
			floor = lo[x-1]
		}
	}
	return x, uint64(floor), last
}

// refsLenUnder is that length for any Base, or one at least bound,
// not exact, as soon as it reaches bound: every reference takes a byte,
// so the count starts there and adds the bytes past the first.
func refsLenUnder(ric, base uint64, refs []uint64, bound int) int {
	n := baseLen(ric, base) + len(refs)
	for _, r := range refs {
		if n >= bound {
			return n
		}
		ref, name := r>>1, r&1
		v, m := ref-base, uint64(15>>name) // post-base: 4 or 3 prefix bits
		if ref < base {
			v, m = base-1-ref, 63>>(2*name) // relative: 6 or 4
		}
		if v >= m {
			n += relLen(v, m) - 1
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
	d := ric - base - 1
	if base >= ric {
		d = base - ric
	}
	return wire.IntLen(7, d) // (one call of it: baseLen inlines)
}

// prefixLen returns the length of the Encoded Field Section Prefix.
func prefixLen(ric, base, maxEntries uint64) int {
	return wire.IntLen(8, qinstr.EncodeRIC(ric, maxEntries)) + baseLen(ric, base)
}
