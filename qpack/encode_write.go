package qpack

import (
	"github.com/hqpack/hqpack/internal/qinstr"
	"slices"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

// Begin plans the section that fields enumerate for stream streamID (see
// Plan) and writes its first piece into dst[:len(dst)]: the prefix, then
// whole field lines, or part of the first unit when that alone does not
// fit. n is the number of bytes written; res says whether the section is
// done or continues (send dst[:n], then call Continue). Send the
// encoder-stream bytes (AppendEncoderStream) before the section:
//
//	n, res := enc.Begin(streamID, buf, fields)
//	es = enc.AppendEncoderStream(es[:0]) // to the encoder stream, first
//	for res == fastpath.MoreFields { // send buf[:n] on the stream, then
//		n, res = enc.Continue(buf)
//	}
//	// res == fastpath.Done: send buf[:n], the section's last piece
//
// The whole section is planned here, inserts included, so fields is
// consumed at once and Continue does not take it.
func (e *Encoder) Begin(streamID uint64, dst []byte, fields fastpath.Enumerator) (n int, res fastpath.Result) {
	e.Plan(streamID, fields)
	return e.Continue(dst)
}

// Continue writes the next piece of the section planned by Plan or Begin
// into dst[:len(dst)], as Begin does. With no section planned or left it
// writes nothing and returns fastpath.NoSection.
func (e *Encoder) Continue(dst []byte) (n int, res fastpath.Result) {
	p := &e.pl
	if !p.active {
		return 0, fastpath.NoSection
	}
	if len(dst) == 0 {
		return 0, fastpath.BufferTooSmall
	}
	if p.buffered {
		return e.continueBuffered(dst)
	}
	buf := dst[:0:len(dst)]
	if e.pendAt < len(e.pend) {
		k := copy(dst, e.pend[e.pendAt:])
		if e.pendAt += k; e.pendAt < len(e.pend) {
			return k, fastpath.MoreFields
		}
		buf = dst[:k:len(dst)]
	}
	for p.next < len(p.fields) {
		size := p.prefixLen
		if p.next >= 0 {
			size = p.fields[p.next].lineLen(p.base, e.huff)
		}
		if len(buf)+size > len(dst) {
			if len(buf) > 0 {
				return len(buf), fastpath.MoreFields
			}
			// A unit larger than dst goes out in pieces.
			e.pend = e.appendUnit(e.pend[:0])
			e.pendAt = copy(dst, e.pend)
			return e.pendAt, fastpath.MoreFields
		}
		buf = e.appendUnit(buf)
	}
	e.sectionDone()
	return len(buf), fastpath.Done
}

// AppendPlanned appends the rest of the section planned by Plan (all of it,
// if Continue wrote none) to dst, growing it as needed.
func (e *Encoder) AppendPlanned(dst []byte) []byte {
	if !e.pl.active {
		return dst
	}
	if e.pl.buffered {
		dst = append(dst, e.pl.buf[e.pl.off:]...)
		e.sectionDone()
		return dst
	}
	p := &e.pl
	if p.next < 0 { // nothing written, nothing pending (p.total 0 when lazy)
		dst = qinstr.AppendSectionPrefix(slices.Grow(dst, p.total), p.ric, p.base, e.maxEntries)
		p.next = 0
	} else {
		dst = append(slices.Grow(dst, e.Remaining()), e.pend[e.pendAt:]...)
		e.pendAt = len(e.pend)
	}
	fs, base := p.fields[p.next:], p.base // (the run has no bounds checks: i < len(fs), and the room)
	for i := 0; i < len(fs); i++ {
		if cap(dst)-len(dst) < len(fs)-i {
			dst = slices.Grow(dst, len(fs)-i) // room for a run of one-byte indexed lines: no call in it
		}
		out, k := unsafe.Pointer(unsafe.SliceData(dst)), len(dst)
	run:
		for ; i < len(fs); i++ {
			f, b := lineAt(fs, i), byte(0)
			switch {
			case f.kind == repDynamic && base-1-f.ref < 63: // (f.ref >= base wraps past it)
				b = 0x80 | byte(base-1-f.ref)
			case f.kind == repStatic && f.ref < 63:
				b = 0xc0 | byte(f.ref)
			case f.kind == repDynamic && f.ref >= base && f.ref-base < 15:
				b = 0x10 | byte(f.ref-base)
			default:
				break run
			}
			*(*byte)(unsafe.Add(out, k)) = b
			k++
		}
		dst = dst[:k]
		if i < len(fs) { // any other line (an indexed one holds no strings: noStrings, collect)
			if f := &fs[i]; f.kind == repLitStatic && f.ref < 15 && f.vlen < 0 { // the usual, with no call to appendLine
				dst = wire.AppendString(append(dst, 0x50|qinstr.NeverBit(f.never, 0x20)|byte(f.ref)), 0, 7, f.value, e.huff)
			} else {
				dst = e.appendLine(dst, f, base)
			}
			fs[i].name, fs[i].value = "", "" // written: sectionDone need not clear it
		}
	}
	if p.next == 0 {
		p.fields = p.fields[:0] // every line cleared
	}
	e.sectionDone()
	return dst
}

// AppendSection plans the section that fields enumerate for stream
// streamID and appends all of it to dst, growing it as needed. Send the
// encoder-stream bytes (AppendEncoderStream) before the section.
func (e *Encoder) AppendSection(streamID uint64, dst []byte, fields fastpath.Enumerator) []byte {
	if e.staticOnly() {
		// One pass, straight into dst.
		rewind(fields) // (Plan rewinds it otherwise)
		e.beginPlan(streamID)
		dst = e.appendStatic(dst, fields, false)
		e.sectionDone()
		return dst
	}
	e.pl.lazy = true // the length is not asked for
	e.Plan(streamID, fields)
	return e.AppendPlanned(dst)
}

// Remaining returns the bytes of the planned section not yet written.
func (e *Encoder) Remaining() int {
	p := &e.pl
	if !p.active {
		return 0
	}
	if p.buffered {
		return p.total - p.off
	}
	if p.next < 0 {
		return p.total // nothing written yet (nothing is pending before the prefix)
	}
	n := len(e.pend) - e.pendAt
	for i := p.next; i < len(p.fields); i++ {
		n += p.fields[i].lineLen(p.base, e.huff)
	}
	return n
}

// rewind sets a FieldList to its first field: a section is always encoded
// whole, however often the same list is passed.
func rewind(fields fastpath.Enumerator) {
	if l, ok := fields.(*fastpath.FieldList); ok {
		l.Rewind()
	}
}

// sectionDone ends the written section.
func (e *Encoder) sectionDone() {
	p := &e.pl
	p.active, p.lazy = false, false
	e.pend, e.pendAt = e.pend[:0], 0
	if e.ack == AckImmediate {
		if p.ric > 0 {
			e.ackSection(p.stream)
		}
		e.krc = e.tbl.Inserted()
	}
	for i := range p.fields { // the caller's strings go; the lines stay, for planRemembered
		p.fields[i].name, p.fields[i].value = "", ""
	}
	p.fields = p.fields[:0]
	if cap(p.buf) > planKeep {
		p.buf = nil
	}
}

// appendUnit appends the next unit (prefix or field line) and advances.
func (e *Encoder) appendUnit(dst []byte) []byte {
	p := &e.pl
	if p.next < 0 {
		p.next = 0
		return qinstr.AppendSectionPrefix(dst, p.ric, p.base, e.maxEntries)
	}
	f := &p.fields[p.next]
	p.next++
	return e.appendLine(dst, f, p.base)
}

// appendLine appends the field line f with Base base.
func (e *Encoder) appendLine(dst []byte, f *planField, base uint64) []byte {
	switch f.kind {
	case repStatic:
		return qinstr.AppendIndexed(dst, true, f.ref)
	case repDynamic:
		if f.ref < base {
			return qinstr.AppendIndexed(dst, false, base-1-f.ref)
		}
		return qinstr.AppendIndexedPostBase(dst, f.ref-base)
	case repLitStatic:
		dst = wire.AppendInt(dst, 0x50|qinstr.NeverBit(f.never, 0x20), 4, f.ref)
	case repLitDigits:
		dst = wire.AppendInt(dst, 0x50|qinstr.NeverBit(f.never, 0x20), 4, staticContentLength)
	case repLitDynamic:
		if f.ref < base {
			dst = wire.AppendInt(dst, 0x40|qinstr.NeverBit(f.never, 0x20), 4, base-1-f.ref)
		} else {
			dst = wire.AppendInt(dst, qinstr.NeverBit(f.never, 0x08), 3, f.ref-base)
		}
	case repLitName:
		dst = e.appendChosen(dst, 0x20|qinstr.NeverBit(f.never, 0x10), 3, f.name, f.nlen, f.nhuff)
	}
	if f.kind == repLitDigits {
		if f.vhuff {
			if dst = wire.AppendInt(dst, 0x80, 7, uint64(f.vlen)); f.nlen > 0 {
				return wire.AppendHuffmanCode(dst, f.ref, uint(f.nlen)) // coded at planning
			}
			return wire.AppendHuffmanDigits(dst, f.ref)
		}
		dst = wire.AppendInt(dst, 0, 7, uint64(f.vlen))
		return wire.AppendDigits(dst, f.ref)
	}
	if f.vlen < 0 { // not chosen: one call less than appendChosen's
		return wire.AppendString(dst, 0, 7, f.value, e.huff)
	}
	return e.appendChosen(dst, 0, 7, f.value, f.vlen, f.vhuff)
}

// appendChosen appends s as a string literal whose coding was chosen at
// planning: payload length plen, Huffman-coded or not.
func (e *Encoder) appendChosen(dst []byte, first byte, n uint8, s string, plen int32, huff bool) []byte {
	if plen < 0 {
		return wire.AppendString(dst, first, n, s, e.huff) // not chosen (see choice)
	}
	if huff {
		dst = wire.AppendInt(dst, first|1<<n, n, uint64(plen))
		return wire.AppendHuffman(dst, s)
	}
	dst = wire.AppendInt(dst, first, n, uint64(plen))
	return append(dst, s...)
}
