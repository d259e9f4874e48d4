package qpack

import (
	"io"

	"github.com/hqpack/hqpack/fastpath"
)

// XDecoder has the shape of github.com/quic-go/qpack's Decoder (v0.6.0), so
// that moving to hqpack is a change of import path: NewDecoder returns one,
// Decode returns a function that yields the fields of a section one at a
// time, then io.EOF. Code that names the type itself (*qpack.Decoder) says
// *qpack.XDecoder instead: in this package Decoder is the native decoder,
// with a dynamic table, that XDecoder wraps.
//
// Like quic-go's, it is static-only (it advertises no dynamic table, so a
// section that references one is an error), has no size limits, and keeps
// no state between sections: a bad section does not affect the next one.
// It differs where RFC 9204 leaves quic-go lenient or strict:
//   - with Required Insert Count 0, any Base with sign 0 is accepted
//     (§4.5.1.2 lets an encoder send any value); quic-go wants Base 0;
//   - a negative Base (sign 1, Delta Base 0) is an error; quic-go ignores
//     the sign bit;
//   - integers past 2^62-1 are errors, and errors are *Error values,
//     testable with errors.Is (ErrInvalidIndex, ErrTruncated, ...).
//
// The whole section is decoded on the first call of the returned function;
// fields before an error are still returned first, then the error.
type XDecoder struct {
	dec  Decoder
	sink stringSink
}

// DecodeFunc yields the next field of a section, io.EOF after the last, or
// an error.
type DecodeFunc func() (HeaderField, error)

// NewDecoder returns an XDecoder, as quic-go/qpack's NewDecoder does.
func NewDecoder() *XDecoder {
	d := new(XDecoder)
	d.dec.Init(xDecoderConfig)
	return d
}

// Unlimited, as quic-go is (the HTTP/3 layer bounds frame sizes).
var xDecoderConfig = DecoderConfig{MaxSectionSize: maxLimit}

// Decode returns a function that yields the fields of the encoded section
// p. It does not copy p: p must stay unchanged until the function has
// returned io.EOF or an error.
func (d *XDecoder) Decode(p []byte) DecodeFunc {
	var (
		fields  []HeaderField
		err     error
		decoded bool
		next    int
	)
	return func() (HeaderField, error) {
		if !decoded {
			fields, err = d.decode(p)
			decoded = true
		}
		if next < len(fields) {
			next++
			return fields[next-1], nil
		}
		if err != nil {
			return HeaderField{}, err
		}
		return HeaderField{}, io.EOF
	}
}

// decode decodes p whole; the fields' strings share one allocation.
func (d *XDecoder) decode(p []byte) ([]HeaderField, error) {
	d.sink.reset()
	blocked, err := d.dec.DecodeSection(0, p, &d.sink)
	if blocked && err == nil {
		// Unreachable: with no dynamic table, any Required Insert Count
		// other than 0 is an error. Kept so a change there cannot hang a caller.
		err = &Error{Code: ErrCodeDecompressionFailed, Err: ErrRequiredInsertCount}
	}
	if err != nil {
		d.dec.Init(xDecoderConfig) // no state carries over, as in quic-go
	}
	return d.sink.fields(), err
}

// stringSink collects fields into one arena, turned into strings at the end.
type stringSink struct {
	arena []byte
	ends  []int // name end, value end, per field
}

func (s *stringSink) reset() {
	s.arena = s.arena[:0]
	s.ends = s.ends[:0]
}

func (s *stringSink) Field(name, value []byte, f fastpath.Flags) error {
	s.arena = append(s.arena, name...)
	s.ends = append(s.ends, len(s.arena))
	s.arena = append(s.arena, value...)
	s.ends = append(s.ends, len(s.arena))
	return nil
}

func (s *stringSink) fields() []HeaderField {
	if len(s.ends) == 0 {
		return nil
	}
	all := string(s.arena)
	out := make([]HeaderField, len(s.ends)/2)
	start := 0
	for i := range out {
		n, v := s.ends[2*i], s.ends[2*i+1]
		out[i] = HeaderField{Name: all[start:n], Value: all[n:v]}
		start = v
	}
	return out
}
