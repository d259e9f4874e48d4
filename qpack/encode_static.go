package qpack

import (
	"strconv"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/static"
)

// A static-only encoder (table capacity 0) plans nothing: every line
// depends on its field alone and the prefix is always Required Insert Count
// 0, Base 0. It writes a section in one pass, straight into the caller's
// buffer for AppendSection, or into its own for Plan, which then knows the
// exact length and hands the bytes out with Continue and AppendPlanned.

// staticPrefix is the prefix of every static-only section.
var staticPrefix = [2]byte{0, 0}

// planKeep bounds the section bytes a static-only encoder keeps between
// sections.
const planKeep = 64 << 10

// staticOnly reports whether e never uses a dynamic table.
func (e *Encoder) staticOnly() bool { return e.capacity == 0 }

// beginPlan starts a section on stream streamID, as Plan does: a section
// planned but not written is abandoned.
func (e *Encoder) beginPlan(streamID uint64) {
	p := &e.pl
	if p.active && e.ack == AckImmediate {
		e.sectionDone() // abandoned, but assumed acknowledged all the same
	}
	p.reset()
	e.pend, e.pendAt = e.pend[:0], 0
	p.stream = streamID
	e.hist.plan++
}

// planStatic is Plan for a static-only encoder: the section is written
// into e.pl.buf, with the end of each unit in e.pl.ends.
func (e *Encoder) planStatic(fields fastpath.Enumerator) int {
	p := &e.pl
	p.buf = e.appendStatic(p.buf[:0], fields, true)
	p.buffered = true
	p.ric, p.base, p.refs = 0, 0, 0
	p.prefixLen = len(staticPrefix)
	p.total = len(p.buf)
	p.off, p.unit = 0, 0
	p.active = true
	return p.total
}

// appendStatic appends the whole section that fields enumerate, for a
// static-only encoder. With marks, the end of each unit (the prefix, then
// each line) is appended to e.pl.ends, as an offset in dst.
func (e *Encoder) appendStatic(dst []byte, fields fastpath.Enumerator, marks bool) []byte {
	if e.lines == nil {
		e.lines = new(lineMemo)
	}
	// The ready Enumerator without its three dynamic calls per field.
	if l, ok := fields.(*fastpath.FieldList); ok {
		return e.appendReplay(dst, l, marks)
	}
	dst = append(dst, staticPrefix[:]...)
	if marks {
		e.pl.ends = append(e.pl.ends, len(dst))
	}
	pred := &e.lines.first
	for fields.Next() {
		name, value, f := fields.Field()
		if len(name) == len("content-length") && value == "" {
			if n, ok := fields.ContentLength(); ok {
				dst = e.staticContentLength(dst, f, n)
				goto next2
			}
		}
		dst, pred = e.staticMemo(dst, name, value, f, pred)
	next2:
		if marks {
			e.pl.ends = append(e.pl.ends, len(dst))
		}
	}
	return dst
}

// staticMemo appends the line of the field (name, value, f) to dst, from
// the memo when it is there, else as Plan plans it and then remembered. The
// field's entry is recorded in *pred, the prediction that missed it; next
// is the prediction for the next field.
func (e *Encoder) staticMemo(dst []byte, name, value string, f fastpath.Flags, pred *uint8) (_ []byte, next *uint8) {
	m := e.lines
	j := m.find(name, value, f)
	if j >= 0 {
		dst = append(dst, m.ents[j].line()...)
	} else {
		if dst, j = e.staticField(dst, name, value, f); j < 0 {
			return dst, pred // not kept: the next field is predicted as this one was
		}
	}
	*pred = uint8(j)
	return dst, &m.ents[j].next
}

// staticContentLength appends the line of a raw Content-Length n, exactly
// as the line of its decimal string.
func (e *Encoder) staticContentLength(dst []byte, f fastpath.Flags, n int64) []byte {
	if n < 0 {
		// Not a length: sent as the string it is.
		e.scratch = e.scratch[:0]
		dst, _ = e.staticField(dst, "content-length", e.keep(strconv.AppendInt(e.scratch, n, 10)), f)
		return dst
	}
	never := f&fastpath.NeverIndex != 0
	if n == 0 && !never {
		return append(dst, 0xc0|staticContentLength)
	}
	first := byte(0x50 | staticContentLength)
	if never {
		first |= 0x20
	}
	// The Huffman policy's choice, as fastpath.DigitsChoice makes it, with
	// the digits coded once: one or two digits never shrink (every digit
	// codes to 5 or 6 bits), four or more always do. At most 20 digits:
	// the length fits the first byte of its integer.
	d := fastpath.DigitsLen(uint64(n))
	if e.huff == fastpath.HuffmanAlways || e.huff != fastpath.HuffmanNever && d >= 3 {
		k := len(dst)
		dst = fastpath.AppendHuffmanDigits(append(dst, first, 0x80), uint64(n))
		h := len(dst) - k - 2
		if h < d || e.huff == fastpath.HuffmanAlways {
			dst[k+1] |= byte(h)
			return dst
		}
		dst = dst[:k]
	}
	dst = append(dst, first, byte(d))
	return fastpath.AppendDigits(dst, uint64(n))
}

// staticField appends the line of the field (name, value, f) as Plan plans
// it without a table, and remembers it: j is its entry in the memo, or -1.
func (e *Encoder) staticField(dst []byte, name, value string, f fastpath.Flags) (_ []byte, j int) {
	given := name // as the caller passed it, for the memo
	e.scratch = e.scratch[:0]
	if !fastpath.IsLower(name) {
		name = e.keep(fastpath.AppendLower(e.scratch, name))
	}
	if name == "content-length" {
		// Not remembered: its value changes with every response.
		pf := e.contentLengthField(f, 0, false, value)
		return e.appendLine(dst, &pf, 0), -1
	}
	p := &e.pl
	e.collect(name, value, f)
	pf := &p.fields[len(p.fields)-1]
	if pf.kind == repPending {
		e.choose(pf)
	}
	start := len(dst)
	dst = e.appendLine(dst, pf, 0)
	// Verify against the static table's strings where the line comes from
	// it, else against copies.
	var cname, cvalue string
	if pf.sn >= 0 && given == name {
		cname = staticStrings[pf.sn].Name
	}
	if pf.kind == repStatic {
		cvalue = staticStrings[pf.ref].Value
	}
	j = e.lines.store(given, value, f, cname, cvalue, dst[start:])
	*pf = planField{}
	p.fields = p.fields[:len(p.fields)-1]
	return dst, j
}

// staticStrings is the QPACK static table, by index.
var staticStrings = func() (t [static.QPACKLen]static.Entry) {
	for i := range t {
		t[i], _ = static.QPACK(uint64(i))
	}
	return t
}()

// continueBuffered is Continue for a section planned by planStatic.
func (e *Encoder) continueBuffered(dst []byte) (n int, res Result) {
	p := &e.pl
	end := p.off
	for p.unit < len(p.ends) && p.ends[p.unit]-p.off <= len(dst) {
		end = p.ends[p.unit]
		p.unit++
	}
	if end == p.off {
		// A unit larger than dst goes out in pieces.
		end = p.off + len(dst)
	}
	n = copy(dst, p.buf[p.off:end])
	p.off = end
	if p.unit == len(p.ends) {
		e.sectionDone()
		return n, Done
	}
	return n, MoreFields
}
