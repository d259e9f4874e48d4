package qpack

import (
	"io"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/static"
)

// HeaderField is a name-value pair, as in github.com/quic-go/qpack.
type HeaderField struct {
	Name  string
	Value string
}

// IsPseudo reports whether the field is an HTTP/3 pseudo-header field: its
// name starts with a colon.
func (hf HeaderField) IsPseudo() bool { return len(hf.Name) != 0 && hf.Name[0] == ':' }

// XEncoder has the shape of github.com/quic-go/qpack's Encoder (v0.6.0), so
// that moving to hqpack is a change of import path: NewEncoder returns one,
// WriteField writes a field (and the section prefix before the first), and
// Close ends the section. Code that names the type itself (*qpack.Encoder)
// says *qpack.XEncoder instead: in this package Encoder is the native
// encoder, with a dynamic table, encoder stream and Begin/Continue.
//
// Like quic-go's, it uses the static table only, so it needs no encoder
// stream and no acknowledgments. Its bytes differ from quic-go's in two
// ways, both allowed by RFC 9204 and read by every decoder: a string is
// Huffman-coded only when that is shorter (quic-go codes every string), and
// authorization and short cookie fields carry the never-indexed bit, as
// IndexDefault says. Names are sent as given (quic-go does not lowercase).
type XEncoder struct {
	w           io.Writer
	buf         []byte
	wrotePrefix bool
}

// NewEncoder returns an XEncoder that writes to w, as quic-go/qpack's
// NewEncoder does.
func NewEncoder(w io.Writer) *XEncoder { return &XEncoder{w: w} }

// WriteField encodes f into a single Write to the underlying writer,
// preceded by the field section prefix when f is the first field of the
// section.
func (e *XEncoder) WriteField(f HeaderField) error {
	b := e.buf[:0]
	if !e.wrotePrefix {
		b = AppendSectionPrefix(b, 0, 0, 0)
		e.wrotePrefix = true
	}
	b = appendStaticField(b, f.Name, f.Value)
	e.buf = b
	_, err := e.w.Write(b)
	return err
}

// Close ends the section: the next WriteField starts a new one. It writes
// nothing (a section with no fields is the two-byte prefix alone, which
// quic-go's Encoder does not write either).
func (e *XEncoder) Close() error {
	e.wrotePrefix = false
	return nil
}

// appendStaticField appends the shortest static-only line for a field, as
// the Encoder writes it with the default configuration.
func appendStaticField(dst []byte, name, value string) []byte {
	const h = fastpath.HuffmanAuto
	sx, sn := static.LookupQPACK(name, value)
	never := decide(IndexDefault, 0, sn, len(value)) == fastpath.NeverIndex
	switch {
	case sx >= 0 && !never:
		return AppendIndexed(dst, true, uint64(sx))
	case sn >= 0:
		return AppendLiteralNameRef(dst, true, uint64(sn), value, never, h)
	}
	return AppendLiteralName(dst, name, value, never, h)
}
