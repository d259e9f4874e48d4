package hpack

import (
	"io"
	"math"

	"github.com/hqpack/hqpack/fastpath"
	hq "github.com/hqpack/hqpack/hpack"
)

// initialHeaderTableSize is HTTP/2's initial SETTINGS_HEADER_TABLE_SIZE,
// the table size an Encoder starts with and its default limit.
const initialHeaderTableSize = 4096

// An Encoder writes the HPACK encoding of fields, one WriteField at a
// time, to an io.Writer: the compression context of one direction of one
// HTTP/2 connection. It is not safe for concurrent use: a connection
// encodes its sections one after another, and so must its callers.
//
// Fields are encoded by hqpack's encoder with x/net's policy: names as
// given, every field that fits inserted into the dynamic table, Sensitive
// fields sent never indexed and never as a reference to an entry, strings
// Huffman-coded when that is shorter. A pending table size change is
// written before the next field, as one or two Dynamic Table Size Updates
// exactly as x/net writes them. It differs from x/net's in two ways, both
// invisible to a decoder's caller:
//
//   - content-length never enters the dynamic table (hqpack keeps it out,
//     since its values rarely repeat and its raw form must encode as its
//     string does), so a repeated Content-Length costs its literal, 3 to 6
//     bytes, where x/net sends a one-byte reference;
//   - where x/net could choose among equal encodings, the bytes may differ:
//     a name found only by name in the static table is referenced by its
//     lowest index (:method is 2, x/net says 3), the same length.
//
// Use NewEncoder: the zero Encoder has no Writer.
type Encoder struct {
	enc hq.Encoder
	w   io.Writer
	buf []byte
	one oneField

	// x/net's table size state. maxSize is the table size in use: the
	// native encoder's capacity. minSize is the smallest size set since
	// the last update written (math.MaxUint32 for none).
	maxSize, minSize, maxSizeLimit uint32
	tableSizeUpdate                bool
}

// NewEncoder returns an Encoder that writes each field's encoding to w,
// with a 4096-byte dynamic table and a limit of 4096.
func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{
		w:            w,
		maxSize:      initialHeaderTableSize,
		minSize:      math.MaxUint32,
		maxSizeLimit: initialHeaderTableSize,
	}
	e.enc.Init(hq.Config{Indexing: fastpath.IndexAll, NamesAsGiven: true})
	e.enc.SetTableCapacity(initialHeaderTableSize)
	return e
}

// WriteField encodes f and writes it to the Writer in one Write, after the
// Dynamic Table Size Updates that a table size change since the last field
// calls for. A short write is io.ErrShortWrite.
func (e *Encoder) WriteField(f HeaderField) error {
	e.buf = e.buf[:0]
	if e.tableSizeUpdate {
		// As x/net: the smallest size set since the last update, when it
		// is below the final one, then the final one.
		e.tableSizeUpdate = false
		if e.minSize < e.maxSize {
			e.buf = appendTableSize(e.buf, e.minSize)
		}
		e.minSize = math.MaxUint32
		e.buf = appendTableSize(e.buf, e.maxSize)
	}
	e.one = oneField{f: f}
	e.buf = e.enc.AppendSection(e.buf, &e.one)
	n, err := e.w.Write(e.buf)
	if err == nil && n != len(e.buf) {
		err = io.ErrShortWrite
	}
	return err
}

// SetMaxDynamicTableSize sets the dynamic table's size to v, bounded by
// the limit SetMaxDynamicTableSizeLimit set: the peer's
// SETTINGS_HEADER_TABLE_SIZE. The table shrinks at once; the next
// WriteField signals the change, even when v is the size already in use.
func (e *Encoder) SetMaxDynamicTableSize(v uint32) {
	v = min(v, e.maxSizeLimit)
	e.minSize = min(e.minSize, v)
	e.tableSizeUpdate = true
	e.setSize(v)
}

// MaxDynamicTableSize returns the dynamic table size in use.
func (e *Encoder) MaxDynamicTableSize() (v uint32) {
	return e.maxSize
}

// SetMaxDynamicTableSizeLimit sets the largest size SetMaxDynamicTableSize
// may set (4096 by default): the memory the encoder may spend on its
// table. When the table is larger than v, it shrinks to v at once and the
// next WriteField signals it. Raising the limit does not grow the table;
// the next SetMaxDynamicTableSize may.
func (e *Encoder) SetMaxDynamicTableSizeLimit(v uint32) {
	e.maxSizeLimit = v
	if e.maxSize > v {
		e.tableSizeUpdate = true
		e.setSize(v)
	}
}

func (e *Encoder) setSize(v uint32) {
	e.maxSize = v
	// The native encoder writes no update for it: WriteField does.
	e.enc.SetTableCapacity(v)
}

// appendTableSize appends a Dynamic Table Size Update to v (RFC 7541 §6.3).
func appendTableSize(dst []byte, v uint32) []byte {
	first := len(dst)
	dst = appendVarInt(dst, 5, uint64(v))
	dst[first] |= 0x20
	return dst
}

// appendVarInt appends i as an HPACK integer with an n-bit prefix (RFC
// 7541 §5.1), 1 <= n <= 8, leaving the bits above the prefix 0.
func appendVarInt(dst []byte, n byte, i uint64) []byte {
	k := uint64(1)<<n - 1
	if i < k {
		return append(dst, byte(i))
	}
	dst = append(dst, byte(k))
	for i -= k; i >= 0x80; i >>= 7 {
		dst = append(dst, byte(i)|0x80)
	}
	return append(dst, byte(i))
}

// oneField is a HeaderField as the native encoder's field enumerator.
type oneField struct {
	f    HeaderField
	done bool
}

func (o *oneField) Next() bool {
	if o.done {
		return false
	}
	o.done = true
	return true
}

func (o *oneField) Field() (name, value string, f fastpath.Flags) {
	if o.f.Sensitive {
		f = fastpath.NeverIndex
	}
	return o.f.Name, o.f.Value, f
}

func (o *oneField) ContentLength() (int64, bool) { return 0, false }
