package qpack

import (
	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/qinstr"
	"strconv"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/wire"
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
	if !e.staticOnly() {
		if e.hist == nil {
			e.hist = new(fieldHistory) // on use: a static-only encoder has none
		}
		e.hist.plan++
	}
}

// planStatic is Plan for a static-only encoder: the section is written
// into e.pl.buf, with the end of each unit in e.pl.ends.
func (e *Encoder) planStatic(fields fastpath.Enumerator) int {
	p := &e.pl
	p.buf = e.appendStatic(p.buf[:0], fields, true)
	p.buffered = true
	p.ric, p.base = 0, 0
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
	dst = append(dst, staticPrefix[:]...)
	if marks {
		e.pl.ends = append(e.pl.ends, len(dst))
	}
	// The ready Enumerator without its three dynamic calls per field.
	if l, ok := fields.(*fastpath.FieldList); ok {
		for i := 0; i < l.Len(); i++ { // by index, as Plan reads it
			if name, value, f, raw := l.At(i); raw >= 0 {
				dst = e.staticContentLength(dst, f, raw)
			} else {
				dst = e.staticLine(dst, name, value, f)
			}
			if marks {
				e.pl.ends = append(e.pl.ends, len(dst))
			}
		}
		l.Seek(l.Len()) // consumed, as by Next
		return dst
	}
	for fields.Next() {
		name, value, f := fields.Field()
		if len(name) == len("content-length") && value == "" {
			if n, ok := fields.ContentLength(); ok {
				dst = e.staticContentLength(dst, f, n)
				goto next
			}
		}
		dst = e.staticLine(dst, name, value, f)
	next:
		if marks {
			e.pl.ends = append(e.pl.ends, len(dst))
		}
	}
	return dst
}

// staticContentLength appends the line of a raw Content-Length n, exactly
// as the line of its decimal string.
func (e *Encoder) staticContentLength(dst []byte, f fastpath.Flags, n int64) []byte {
	if n < 0 {
		// Not a length: sent as the string it is.
		e.scratch = e.scratch[:0]
		return e.staticLine(dst, "content-length", e.keep(strconv.AppendInt(e.scratch, n, 10)), f)
	}
	var pf planField
	e.planContentLength(&pf, f, uint64(n), true, "")
	return e.appendLine(dst, &pf, 0)
}

// staticLine appends the line of the field (name, value, f) as Plan plans
// it without a table: the static entry when it matches exactly (unless the
// field is never indexed), else a literal with the static name or with its
// own, its strings coded as the Huffman policy says.
func (e *Encoder) staticLine(dst []byte, name, value string, f fastpath.Flags) []byte {
	sx, sn := static.LookupQPACK(name, value) // static names are lowercase
	if sn < 0 && !field.IsLower(name) {
		e.scratch = e.scratch[:0]
		name = e.keep(field.AppendLower(e.scratch, name))
		sx, sn = static.LookupQPACK(name, value)
	}
	never := f&fastpath.NeverIndex != 0
	if sn != staticContentLength {
		// Content-length is never in the policy's hands, so that a raw
		// one and its string encode alike.
		never = decide(e.indexing, f, sn, len(value)) == fastpath.NeverIndex
	}
	switch {
	case sx >= 0 && !never:
		return wire.AppendInt(dst, 0xc0, 6, uint64(sx))
	case sn >= 0:
		dst = wire.AppendInt(dst, 0x50|qinstr.NeverBit(never, 0x20), 4, uint64(sn))
	default:
		dst = wire.AppendString(dst, 0x20|qinstr.NeverBit(never, 0x10), 3, name, e.huff)
	}
	return wire.AppendString(dst, 0, 7, value, e.huff)
}

// continueBuffered is Continue for a section planned by planStatic.
func (e *Encoder) continueBuffered(dst []byte) (n int, res fastpath.Result) {
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
		return n, fastpath.Done
	}
	return n, fastpath.MoreFields
}
