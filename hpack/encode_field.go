package hpack

import (
	"slices"
	"strconv"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/hqpack/hqpack/static"
)

// Representation patterns and prefix lengths (RFC 7541 §6).
const (
	patIndexed = 0x80 // §6.1, 7-bit index
	patWith    = 0x40 // §6.2.1, 6-bit name index
	patWithout = 0x00 // §6.2.2, 4-bit name index
	patNever   = 0x10 // §6.2.3, 4-bit name index
)

var patterns = [...]struct {
	first  byte
	prefix uint8
}{
	withIndexing:    {patWith, 6},
	withoutIndexing: {patWithout, 4},
	neverIndexed:    {patNever, 4},
}

// field encodes the enumerator's current field (name, value, f; with raw, a
// raw Content-Length n) at the end of dst, with the pending size updates
// first if any. With grow it extends dst as needed; without, it writes only
// within cap(dst) and reports false, changing nothing, when the field does
// not fit.
func (e *Encoder) field(dst []byte, grow bool, name, value string, f fastpath.Flags, n int64, raw bool) ([]byte, bool) {
	if raw {
		if n >= 0 {
			return e.contentLength(dst, grow, uint64(n), f)
		}
		// Not a length; sent as the string it would be.
		value = e.negative(n)
	}
	if f&fastpath.NeverIndex == 0 && !e.memoOff {
		if idx, ok := e.memoIndex(name, value, f); ok {
			// The one-byte index of a warm section, with no size update
			// to write first and room in dst, without a call.
			if idx < 0x7f && e.updLen == 0 && len(dst) < cap(dst) {
				e.started = true
				return append(dst, patIndexed|byte(idx)), true
			}
			return e.indexed(dst, grow, idx)
		}
	}
	return e.literal(dst, grow, name, value, f)
}

// literal is field after a memo miss: the static and dynamic lookups, the
// policy, then an indexed field or a literal.
func (e *Encoder) literal(dst []byte, grow bool, name, value string, f fastpath.Flags) ([]byte, bool) {
	given := name // as the caller passed it, for the memo
	lowered := !e.asGiven && !fastpath.IsLower(name)
	if lowered {
		name = e.lowercase(name)
	}
	exact, nameIdx := static.LookupHPACK(name, value)
	c := classes[nameIdx]
	size := len(name) + len(value) + table.Overhead
	m := decide(e.indexing, f, c, size, len(value), e.capNow)

	// A never-indexed field is never sent as a reference to an entry: the
	// decoder must see the flag and pass it on (RFC 7541 §7.1.3).
	if exact != 0 && m != neverIndexed {
		e.remember(given, value, f, lowered, exact, 0, c)
		if !lowered {
			e.note(given, value, f, exact, 0)
		}
		return e.indexed(dst, grow, uint64(exact))
	}
	idx := uint64(nameIdx)
	if e.table.Len() == 0 {
		e.named = 0
	} else if c != classContentLength && (nameIdx == 0 || e.named&(1<<nameIdx) != 0 || e.lookupAll) {
		// Content-length never enters the table, so there is nothing to
		// find; skipping the lookup keeps the raw and string paths alike.
		// Nor is there for a static name that no entry has (:path, etag,
		// set-cookie... under the default policy), whose value would
		// need hashing for nothing.
		hi := e.table.Inserted()
		abs, exactDyn, found := e.table.Lookup(name, value, e.lo, hi)
		switch {
		case found && exactDyn && m != neverIndexed:
			e.remember(given, value, f, lowered, 0, abs+1, c)
			if !lowered {
				e.note(given, value, f, 0, abs+1)
			}
			return e.indexed(dst, grow, static.HPACKLen+hi-abs)
		case found && idx == 0:
			idx = static.HPACKLen + hi - abs
		}
	}

	p := patterns[m]
	vlen, vhuff := e.huffman.Choose(value)
	need := e.updLen + wire.IntLen(7, uint64(vlen)) + vlen
	var nlen int
	var nhuff bool
	if idx != 0 {
		need += wire.IntLen(p.prefix, idx)
	} else {
		nlen, nhuff = e.huffman.Choose(name)
		need += 1 + wire.IntLen(7, uint64(nlen)) + nlen
	}
	dst, ok := e.room(dst, grow, need)
	if !ok {
		return dst, false
	}
	dst = e.sectionStart(dst)
	start := len(dst)
	if idx != 0 {
		dst = wire.AppendInt(dst, p.first, p.prefix, idx)
	} else {
		dst = append(dst, p.first)
		dst = appendString(dst, name, nlen, nhuff)
	}
	dst = appendString(dst, value, vlen, vhuff)
	if m == withIndexing && e.table.AddString(name, value) {
		e.named |= 1 << nameIdx
		e.remember(given, value, f, lowered, 0, e.table.Inserted(), c)
		if !lowered {
			e.note(given, value, f, 0, e.table.Inserted())
		}
	} else if m != withIndexing && idx == uint64(nameIdx) && idx != 0 && e.named&(1<<nameIdx) == 0 && !lowered {
		e.noteLine(given, value, f, nameIdx, dst[start:])
	}
	return dst, true
}

// indexed writes an Indexed Header Field (RFC 7541 §6.1).
func (e *Encoder) indexed(dst []byte, grow bool, idx uint64) ([]byte, bool) {
	dst, ok := e.room(dst, grow, e.updLen+wire.IntLen(7, idx))
	if !ok {
		return dst, false
	}
	dst = e.sectionStart(dst)
	return wire.AppendInt(dst, patIndexed, 7, idx), true
}

// contentLength writes a raw Content-Length exactly as field writes the same
// value as a string: a literal without indexing (or never indexed, when
// flagged) with static name index 28, then the digits, formatted in place.
func (e *Encoder) contentLength(dst []byte, grow bool, n uint64, f fastpath.Flags) ([]byte, bool) {
	if e.clLen == 0 || e.clN != n {
		e.codeLength(n)
	}
	line := e.clLine[:e.clLen]
	dst, ok := e.room(dst, grow, e.updLen+2+len(line))
	if !ok {
		return dst, false
	}
	dst = e.sectionStart(dst)
	e.clAt = len(dst)
	dst = appendLengthHead(dst, f)
	dst = append(dst, line...)
	e.clEnd = len(dst)
	return dst, true
}

// appendLengthHead appends the two bytes a raw Content-Length starts with:
// a literal without indexing, or never indexed when flagged, whose name
// index 28 is 15 in the 4-bit prefix and 13 after it. The digits (at most
// 20) follow with their length in one byte.
func appendLengthHead(dst []byte, f fastpath.Flags) []byte {
	if f&fastpath.NeverIndex != 0 {
		return append(dst, patNever|0x0f, contentLengthIndex-0x0f)
	}
	return append(dst, patWithout|0x0f, contentLengthIndex-0x0f)
}

// codeLength remembers the string literal of the digits of n: the policy's
// choice as fastpath.DigitsChoice makes it, but coding the digits once
// gives both the length and the bytes.
func (e *Encoder) codeLength(n uint64) {
	var b []byte
	switch e.huffman {
	case fastpath.HuffmanNever:
	case fastpath.HuffmanAlways:
		b = fastpath.AppendHuffmanDigits(e.clLine[:1], n)
	default:
		// One or two digits never shrink: every digit codes to 5 or 6 bits.
		if d := fastpath.DigitsLen(n); d >= 3 {
			if b = fastpath.AppendHuffmanDigits(e.clLine[:1], n); len(b)-1 >= d {
				b = nil
			}
		}
	}
	if b != nil {
		e.clLine[0] = 0x80 | byte(len(b)-1)
	} else {
		b = fastpath.AppendDigits(e.clLine[:1], n)
		e.clLine[0] = byte(len(b) - 1)
	}
	e.clN, e.clLen = n, uint8(len(b))
}

// room makes sure need more bytes fit in dst: by growing it, or by checking
// its capacity (the caller's fixed buffer).
func (e *Encoder) room(dst []byte, grow bool, need int) ([]byte, bool) {
	if grow {
		return slices.Grow(dst, need), true
	}
	return dst, len(dst)+need <= cap(dst)
}

// sectionStart writes the pending size updates before the section's first
// field; the field that follows is sure to fit.
func (e *Encoder) sectionStart(dst []byte) []byte {
	e.started = true
	if e.updLen > 0 {
		dst = e.commitSizes(dst)
	}
	return dst
}

// appendString writes a string literal whose payload length and coding the
// caller already chose.
func appendString(dst []byte, s string, payload int, huff bool) []byte {
	if huff {
		dst = wire.AppendInt(dst, 0x80, 7, uint64(payload))
		return wire.AppendHuffman(dst, s)
	}
	dst = wire.AppendInt(dst, 0, 7, uint64(payload))
	return append(dst, s...)
}

// lowercase returns name in lowercase, in e's scratch buffer: valid until
// the next field.
func (e *Encoder) lowercase(name string) string {
	e.lower = fastpath.AppendLower(e.lower[:0], name)
	return unsafe.String(unsafe.SliceData(e.lower), len(e.lower))
}

// negative formats a negative Content-Length, which can only be sent as the
// string it is, into e's scratch.
func (e *Encoder) negative(n int64) string {
	b := strconv.AppendInt(e.num[:0], n, 10)
	return unsafe.String(unsafe.SliceData(b), len(b))
}
