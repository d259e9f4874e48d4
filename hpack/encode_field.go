package hpack

import (
	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/policy"
	"slices"
	"strconv"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// Representation patterns and prefix lengths (RFC 7541 §6).
const (
	patIndexed = 0x80 // §6.1, 7-bit index
	patWith    = 0x40 // §6.2.1, 6-bit name index
	patWithout = 0x00 // §6.2.2, 4-bit name index
	patNever   = 0x10 // §6.2.3, 4-bit name index
)

// The pattern and prefix of each literal mode (withIndexing, without,
// never), a byte per mode, read by shifts: no bounds check, no load.
const (
	modeFirst  = patWith | patWithout<<8 | patNever<<16
	modePrefix = 6 | 4<<8 | 4<<16
)

// field encodes the enumerator's current field (name, value, f; with raw, a
// raw Content-Length n) at the end of dst, with the pending size updates
// first if any. With grow it extends dst as needed; without, it writes only
// within cap(dst) and reports false, changing nothing, when the field does
// not fit.
func (e *Encoder) field(dst []byte, grow bool, name, value string, f fastpath.Flags, n int64, raw bool) ([]byte, bool) {
	if raw && n >= 0 {
		return e.contentLength(dst, grow, uint64(n), f)
	} else if raw { // not a length: sent as the string it would be
		value = e.negative(n)
	}
	fp := fingerprint(name, value)
	if s := e.recent.find(fp, f); s != nil {
		if idx, ok := e.recall(s, name, value); ok {
			return e.indexed(dst, grow, idx)
		}
	}
	return e.literal(dst, grow, name, value, f, fp)
}

// literal encodes a field that is not a raw Content-Length and that recent
// did not find (fp is its fingerprint), as field does.
func (e *Encoder) literal(dst []byte, grow bool, name, value string, f fastpath.Flags, fp uint64) ([]byte, bool) {
	// A name the static table holds is lowercase already. 0 is none,
	// which HPACK's indices (from 1) leave free: the per-name tables and
	// bits below are indexed by nameIdx.
	exact, nameIdx := static.LookupHPACKZero(name, value)
	if nameIdx == 0 && !e.asGiven && !field.IsLower(name) {
		name = e.lowercase(name)
		exact, nameIdx = static.LookupHPACKZero(name, value)
	}
	c := classes[nameIdx]
	size := len(name) + len(value) + table.Overhead
	m := decide(policy.Decide(e.indexing, f, c, len(value)), nameIdx == contentLengthIndex, size, e.capNow)

	// A never-indexed field is never sent as a reference to an entry: the
	// decoder must see the flag and pass it on (RFC 7541 §7.1.3).
	// (Noted first: one that does not fit is found again by recall.)
	if exact != 0 && m != neverIndexed {
		e.note(fp, exact, 0, f)
		return e.indexed(dst, grow, uint64(exact))
	}
	idx := uint64(nameIdx)
	h, hashed := table.Hash{}, false
	if e.table.Len() == 0 {
		e.named = 0
	} else if nameIdx != contentLengthIndex && (nameIdx == 0 || e.named&(1<<nameIdx) != 0 || lookupAll) {
		// Content-length never enters the table, so there is nothing to
		// find; skipping the lookup keeps the raw and string paths alike.
		// Nor is there for a static name that no entry has (:path, etag,
		// set-cookie... under the default policy), whose value would
		// need hashing for nothing.
		hi := e.table.Inserted()
		hashed = true
		var abs uint64
		var exactDyn, found bool
		if idx == 0 {
			h = e.table.Hash(name, value) // HashID(0, ...), inline
			abs, exactDyn, found = e.table.LookupHashed(h, name, value, e.lo, hi)
		} else { // an entry that matches the name alone is of no use
			h, abs, exactDyn = e.table.LookupExactID(nameIdx, name, value, e.lo, hi)
			found = exactDyn
		}
		switch {
		case found && exactDyn && m != neverIndexed:
			e.note(fp, 0, abs+1, f)
			return e.indexed(dst, grow, static.HPACKLen+hi-abs)
		case found && idx == 0:
			idx = static.HPACKLen + hi - abs
		}
	}

	p := struct {
		first  byte
		prefix uint8
	}{byte(uint32(modeFirst) >> (8 * (m & 3))), uint8(uint32(modePrefix) >> (8 * (m & 3)))}
	// At most: the strings raw (or, always Huffman-coded, at their code's
	// length), with their length prefixes. Only where that does not fit
	// is the exact length worth working out.
	need := e.updLen + wire.StringMax(7, value, e.huffman)
	if idx != 0 {
		need += wire.IntLen(p.prefix, idx)
	} else {
		need += 1 + wire.StringMax(7, name, e.huffman)
	}
	if grow {
		dst = slices.Grow(dst, need)
	} else if len(dst)+need > cap(dst) {
		need += wire.StringLen(7, value, e.huffman) - wire.StringMax(7, value, e.huffman)
		if idx == 0 {
			need += wire.StringLen(7, name, e.huffman) - wire.StringMax(7, name, e.huffman)
		}
		if len(dst)+need > cap(dst) {
			return dst, false
		}
	}
	dst = e.sectionStart(dst)
	if idx != 0 {
		dst = wire.AppendInt(dst, p.first, p.prefix, idx)
	} else {
		dst = append(dst, p.first)
		dst = wire.AppendString(dst, 0, 7, name, e.huffman)
	}
	// AppendString's usual case inline, around its one leaf call (raw
	// strings and long codes go to AppendString after all).
	if at := len(dst); len(value) < 2 || len(value) >= 0x7f || e.huffman == wire.HuffmanAlways || e.huffman == wire.HuffmanNever || cap(dst)-at <= 4*len(value)+9 || !wire.HuffmanReady() {
		dst = wire.AppendString(dst, 0, 7, value, e.huffman)
	} else if code := wire.HuffmanInto(dst[:at+1], value); code >= 0 && code < len(value) {
		dst = append(dst, 0x80|byte(code))[:at+1+code]
	} else {
		dst = wire.AppendString(dst, 0, 7, value, e.huffman)
	}
	if m == withIndexing && !hashed {
		h = e.table.HashID(nameIdx, name, value)
	}
	if m == withIndexing && e.table.AddHashed(h, name, value) {
		e.named |= 1 << nameIdx
		e.note(fp, 0, e.table.Inserted(), f)
	}
	return dst, true
}

// indexed writes an Indexed Header Field (RFC 7541 §6.1), one byte first.
func (e *Encoder) indexed(dst []byte, grow bool, idx uint64) ([]byte, bool) {
	if idx < 0x7f && e.updLen == 0 && len(dst) < cap(dst) {
		e.started = true
		return append(dst, patIndexed|byte(idx)), true
	}
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
	var payload int
	var huff bool
	var code uint64
	var bits uint
	if e.huffman != wire.HuffmanAlways && e.huffman != wire.HuffmanNever && n < 1e9 {
		// DigitsChoice's answer from the code itself, coded once: it is
		// shorter than the digits, or they go raw.
		code, bits = wire.HuffmanDigits(n)
		payload = wire.DigitsLen(n)
		if h := int(bits+7) >> 3; h < payload {
			payload, huff = h, true
		}
	} else {
		payload, huff = wire.DigitsChoice(e.huffman, n)
	}
	dst, ok := e.room(dst, grow, e.updLen+3+payload)
	if !ok {
		return dst, false
	}
	dst = e.sectionStart(dst)
	// A literal without indexing, or never indexed when flagged, whose
	// name index 28 is 15 in the 4-bit prefix and 13 after it; the digits
	// (at most 20) have their length in one byte.
	first := byte(patWithout)
	if f&fastpath.NeverIndex != 0 {
		first = patNever
	}
	dst = append(dst, first|0x0f, contentLengthIndex-0x0f)
	if huff && bits > 0 {
		return wire.AppendHuffmanCode(append(dst, 0x80|byte(payload)), code, bits), true
	} else if huff {
		return wire.AppendHuffmanDigits(append(dst, 0x80|byte(payload)), n), true
	}
	return wire.AppendDigits(append(dst, byte(payload)), n), true
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

// lowercase returns name in lowercase, in e's scratch buffer: valid until
// the next field.
func (e *Encoder) lowercase(name string) string {
	e.lower = field.AppendLower(e.lower[:0], name)
	return unsafe.String(unsafe.SliceData(e.lower), len(e.lower))
}

// negative formats a negative Content-Length, which can only be sent as the
// string it is, into e's scratch.
func (e *Encoder) negative(n int64) string {
	b := strconv.AppendInt(e.num[:0], n, 10)
	return unsafe.String(unsafe.SliceData(b), len(b))
}
