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
		p.ric = p.maxRef + 1
		p.base = p.ric
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
	// The references in field order, each entry<<1, | 1 for a name's.
	refs, n := slices.Grow(e.blocked[:0], len(p.fields))[:len(p.fields)], 0
	for i := range p.fields {
		f := &p.fields[i]
		d := f.kind - repDynamic // 0 or 2 for a reference; with no branch, which mispredicts
		refs[n] = f.ref<<1 | uint64(d)/2
		n += int((uint64(d&^2) - 1) >> 63)
	}
	refs = refs[:n]
	e.blocked = refs
	bestLen := baseLen(p.ric, p.ric) // with the Base at the Required Insert Count
	for _, r := range refs {
		bestLen += relLen(p.ric-1-r>>1, 63>>(2*(r&1)))
	}
	best := p.ric
	if bestLen == len(refs)+1 {
		return best // nothing is shorter
	}
	var c baseBounds
	fast := p.ric-p.minRef <= baseWindow && c.init(p.ric, refs, bestLen-1-len(refs))
	// Only a length below bestLen matters: refsLenUnder stops at it.
	lenAt := func(b uint64) int {
		if fast && b >= p.minRef {
			if b < c.first || b > c.last {
				return bestLen // x references or more outside their range
			}
			return c.refsLen(p.ric, b, len(refs))
		}
		return refsLenUnder(p.ric, b, refs, bestLen)
	}
	if p.start < p.ric {
		if l := lenAt(p.start); l < bestLen {
			best, bestLen = p.start, l
		}
	}
	for i, tried := 0, 0; i < len(refs) && bestLen > len(refs)+1 && tried < maxBaseCandidates; i++ {
		if b := refs[i]>>1 + 1; b < p.ric {
			if l := lenAt(b); l < bestLen {
				best, bestLen = b, l
			}
			tried++
		}
	}
	return best
}

// While every referenced entry lies within baseWindow below the Required
// Insert Count (RIC), each index takes one byte or two with any Base from
// the oldest one referenced: one exactly when the Base is in [r+1-m, r+M]
// for reference r (m, M: the post-base and relative prefixes' largest
// values). A Base is shorter than the RIC only with fewer references out of
// range than the x there, so the x largest lower ends and the x upper ends
// below the RIC tell its length: baseBounds holds them, for x up to 4.
const baseWindow = 134 // 7 + 128 - 1: two bytes at most for any prefix

type baseBounds struct {
	x           int
	lo, hi      [4]uint64 // lo in decreasing order
	first, last uint64    // the Bases with fewer than x outside: lo[x-1] to max(hi)
}

// init sets the ends for refs, x of which take two bytes with the Base at
// ric, and reports whether x is small enough.
func (c *baseBounds) init(ric uint64, refs []uint64, x int) bool {
	if x < 1 || x > len(c.lo) {
		return false
	}
	c.x = x
	k := 0
	for _, r := range refs {
		ref, name := r>>1, r&1
		if h := ref + 63>>(2*name); h < ric {
			c.hi[k&3] = h
			c.last = max(c.last, h)
			k++
		}
		l := ref + 1 - min(ref+1, 15>>name)
		for j := range c.lo[:x] {
			if l > c.lo[j] {
				c.lo[j], l = l, c.lo[j]
			}
		}
	}
	c.first = c.lo[x-1]
	return true
}

// refsLen returns the bytes that depend on Base b (its part of the prefix
// and every reference's index part; the tests' refsLen) for lo <= b <= ric
// when that is below baseLen(ric, ric)+n+x, or one at least that.
func (c *baseBounds) refsLen(ric, b uint64, n int) int {
	l := baseLen(ric, b) + n
	for j := range c.lo[:c.x] {
		if c.lo[j] > b {
			l++
		}
		if c.hi[j] < b {
			l++
		}
	}
	return l
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
