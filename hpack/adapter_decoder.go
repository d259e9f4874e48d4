package hpack

import (
	"math"

	"github.com/hqpack/hqpack/fastpath"
)

// XDecoder has the shape of golang.org/x/net/http2/hpack's Decoder, so that
// moving to hqpack is a change of import path: NewDecoder returns one,
// Write decodes fragments and calls the emit function for each field,
// Close ends a section. Code that names the type itself (*hpack.Decoder)
// says *hpack.XDecoder instead: in this package Decoder is the native,
// allocation-free decoder that XDecoder wraps.
//
// It differs from x/net's only where Dynamic Table Size Updates may
// appear (RFC 7541 §4.2): one after a field is always an error (x/net
// accepts it while its table is empty), two may open a section even with
// a non-empty table (x/net rejects the second), a third may not (x/net
// accepts any number while its table is empty), and after
// SetAllowedMaxDynamicTableSize lowers the bound below the table size, the
// next section must start with an update to at most the new bound. Errors
// are *Error values, testable with errors.Is (ErrStringTooLong where x/net
// says ErrStringLength, ErrHuffmanEOS and two padding errors where it says
// ErrInvalidHuffman), and after one, every call fails, as a
// COMPRESSION_ERROR ends the connection. Like x/net's, it has no
// section-size limit (the http2 server enforces MAX_HEADER_LIST_SIZE with
// SetEmitEnabled); the native Decoder has one.
type XDecoder struct {
	dec         Decoder
	emit        func(f HeaderField)
	emitEnabled bool
}

// NewDecoder returns an XDecoder with the given maximum dynamic table size
// (the size it starts with, and the bound for size updates), as x/net's
// NewDecoder does. emitFunc is called for each field, before Write returns.
func NewDecoder(maxDynamicTableSize uint32, emitFunc func(f HeaderField)) *XDecoder {
	d := &XDecoder{emit: emitFunc, emitEnabled: true}
	size := int(min(uint64(maxDynamicTableSize), decMaxTable))
	if size == 0 {
		size = NoTable
	}
	d.dec.Init(DecoderConfig{MaxTableSize: size, InitialTableSize: size, MaxSectionSize: math.MaxInt})
	return d
}

// SetMaxStringLength sets the maximum length of a name or value, checked
// before Huffman decoding and after. 0 means unlimited (the default).
func (d *XDecoder) SetMaxStringLength(n int) {
	if n <= 0 {
		n = decMaxTable
	}
	d.dec.maxString = min(n, decMaxTable)
}

// SetEmitFunc changes the function called for each field.
func (d *XDecoder) SetEmitFunc(emitFunc func(f HeaderField)) { d.emit = emitFunc }

// SetEmitEnabled controls whether the emit function is called. Fields are
// decoded either way, which keeps the dynamic table in sync: a server past
// its MAX_HEADER_LIST_SIZE turns emitting off and finishes the section.
func (d *XDecoder) SetEmitEnabled(v bool) { d.emitEnabled = v }

// EmitEnabled reports whether the emit function is called.
func (d *XDecoder) EmitEnabled() bool { return d.emitEnabled }

// SetMaxDynamicTableSize sets the dynamic table's size directly, evicting
// entries to fit, as if the peer had sent a size update.
func (d *XDecoder) SetMaxDynamicTableSize(v uint32) {
	d.dec.tab.SetCapacity(int(min(uint64(v), decMaxTable)))
}

// SetAllowedMaxDynamicTableSize sets the upper bound of the size updates
// the peer may send: our SETTINGS_HEADER_TABLE_SIZE (Decoder.SetMaxTableSize).
func (d *XDecoder) SetAllowedMaxDynamicTableSize(v uint32) { d.dec.SetMaxTableSize(v) }

// Write decodes p, the next fragment of a field section, calling the emit
// function for each complete field. It returns len(p) or an error.
func (d *XDecoder) Write(p []byte) (n int, err error) {
	if err := d.dec.Write(p, (*xDecoderSink)(d)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close ends the field section, with an error when it ended inside a
// field. The XDecoder is then ready for the next section.
func (d *XDecoder) Close() error { return d.dec.End() }

// DecodeFull decodes p, one whole field section, and returns its fields.
func (d *XDecoder) DecodeFull(p []byte) ([]HeaderField, error) {
	var hf []HeaderField
	save := d.emit
	defer func() { d.emit = save }()
	d.emit = func(f HeaderField) { hf = append(hf, f) }
	if _, err := d.Write(p); err != nil {
		return nil, err
	}
	if err := d.Close(); err != nil {
		return nil, err
	}
	return hf, nil
}

// xDecoderSink is the XDecoder seen as the Sink of its Decoder.
type xDecoderSink XDecoder

func (s *xDecoderSink) Field(name, value []byte, f fastpath.Flags) error {
	if !s.emitEnabled || s.emit == nil {
		return nil
	}
	hf := HeaderField{Sensitive: f&fastpath.NeverIndex != 0}
	// A static-table name needs no new string.
	if id := f.ID(); id != 0 {
		hf.Name = id.Name()
	} else {
		hf.Name = string(name)
	}
	hf.Value = string(value)
	s.emit(hf)
	return nil
}
