package hpack

import (
	"fmt"
	"io"

	"github.com/hqpack/hqpack/fastpath"
)

// HeaderField is a name-value pair, as golang.org/x/net/http2/hpack has it.
// Sensitive fields are sent, and reported by decoders, as never indexed.
type HeaderField struct {
	Name, Value string

	// Sensitive means that this header field should never be
	// indexed (RFC 7541 §7.1.3).
	Sensitive bool
}

// IsPseudo reports whether the field is a pseudo-header field (its name
// starts with a colon).
func (hf HeaderField) IsPseudo() bool {
	return len(hf.Name) != 0 && hf.Name[0] == ':'
}

// String formats the field as x/net does.
func (hf HeaderField) String() string {
	var suffix string
	if hf.Sensitive {
		suffix = " (sensitive)"
	}
	return fmt.Sprintf("header field %q = %q%s", hf.Name, hf.Value, suffix)
}

// Size returns the size of an entry per RFC 7541 §4.1: name and value
// lengths plus 32.
func (hf HeaderField) Size() uint32 {
	return uint32(len(hf.Name) + len(hf.Value) + 32)
}

// XEncoder has the shape of golang.org/x/net/http2/hpack's Encoder, so that
// moving to hqpack is a change of import path: NewEncoder(w) returns one,
// WriteField writes each field to w. Code that names the type itself
// (*hpack.Encoder) says *hpack.XEncoder instead: in this package Encoder is
// the native, buffer-oriented encoder that XEncoder wraps.
//
// Unlike x/net's, it indexes with nghttp2's policy (IndexDefault) and
// lowercases names.
type XEncoder struct {
	enc Encoder
	w   io.Writer
	buf []byte
	one oneField
}

// NewEncoder returns an XEncoder that writes the HPACK encoding of each
// field to w, with a 4096-octet table, as x/net's NewEncoder does.
func NewEncoder(w io.Writer) *XEncoder {
	e := &XEncoder{w: w}
	e.enc.Init(Config{})
	return e
}

// WriteField encodes f into a single Write to the underlying Writer,
// preceded by any pending Dynamic Table Size Update.
func (e *XEncoder) WriteField(f HeaderField) error {
	e.one = oneField{f: f}
	e.buf = e.enc.AppendSection(e.buf[:0], &e.one)
	n, err := e.w.Write(e.buf)
	if err == nil && n != len(e.buf) {
		err = io.ErrShortWrite
	}
	return err
}

// SetMaxDynamicTableSize sets the table size to v (the peer's
// SETTINGS_HEADER_TABLE_SIZE), bounded by SetMaxDynamicTableSizeLimit. The
// change is signaled before the next field written.
func (e *XEncoder) SetMaxDynamicTableSize(v uint32) { e.enc.SetMaxTableSize(v) }

// SetMaxDynamicTableSizeLimit bounds the table size the encoder uses
// (4096 by default). A smaller table is signaled before the next field.
func (e *XEncoder) SetMaxDynamicTableSizeLimit(v uint32) {
	e.enc.SetTableLimit(int(min(uint64(v), maxTableSize)))
}

// MaxDynamicTableSize returns the dynamic table size in use from the next
// field on.
func (e *XEncoder) MaxDynamicTableSize() uint32 { return uint32(e.enc.MaxTableSize()) }

// oneField enumerates a single HeaderField.
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
