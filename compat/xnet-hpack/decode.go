package hpack

import (
	"errors"
	"math"

	"github.com/hqpack/hqpack/fastpath"
	hq "github.com/hqpack/hqpack/hpack"
)

// A Decoder decodes HPACK field sections, fragment by fragment, and calls
// its emit function for each field: the decoding context of one direction
// of one HTTP/2 connection. It is not safe for concurrent use, and its
// emit function runs on the goroutine that called Write, before Write
// returns.
//
// Fields are decoded by hqpack's decoder, which reads a fragment once
// however the section is cut and keeps only the representation a fragment
// ended inside. Like x/net's, it has no section-size limit (an HTTP/2
// server enforces SETTINGS_MAX_HEADER_LIST_SIZE itself, turning emitting
// off with SetEmitEnabled), and SetMaxStringLength may change the string
// limit at any time. It is stricter than x/net's where RFC 7541 is, and
// differs in these ways:
//
//   - Dynamic Table Size Updates (§4.2): one after a field is an error (x/net
//     accepts it while its table is empty); two may start a section, the
//     smallest size then the final one, even when the table holds entries
//     (x/net rejects the second); a third is an error (x/net accepts any
//     number while its table is empty).
//   - After SetAllowedMaxDynamicTableSize lowers the bound below the table's
//     size, the next section must start with an update to at most the new
//     bound (x/net keeps the larger table without one).
//   - Every string is Huffman-decoded and checked, also while emitting is
//     disabled (x/net skips decoding the strings it would not emit nor
//     insert, and so accepts invalid Huffman codes in them).
//   - After an error, every call returns that error again: a decoding error
//     is a COMPRESSION_ERROR, which ends the connection (x/net's decoder
//     carries on with the next bytes).
//   - DecodingError's Err is hqpack's *hpack.Error (what and where), not one
//     of x/net's unexported errors; InvalidIndexError, ErrStringLength and
//     ErrInvalidHuffman are as x/net returns them.
//   - With a nil emit function, fields are dropped (x/net calls it and
//     panics).
type Decoder struct {
	dec         hq.Decoder
	emit        func(f HeaderField)
	emitEnabled bool
	maxStrLen   int // 0: no limit beyond the native decoder's
	err         error

	// full collects the fields for DecodeFull instead of emit.
	full *[]HeaderField
	// long is set by the sink when a field is over maxStrLen.
	long bool
	// strs makes the strings of fields from the dynamic table once.
	strs strCache
}

// NewDecoder returns a Decoder whose dynamic table starts with
// maxDynamicTableSize bytes, which is also the largest size a Dynamic
// Table Size Update may set. emitFunc is called for each field decoded.
func NewDecoder(maxDynamicTableSize uint32, emitFunc func(f HeaderField)) *Decoder {
	d := &Decoder{emit: emitFunc, emitEnabled: true}
	size := int(min(uint64(maxDynamicTableSize), math.MaxInt32))
	if size == 0 {
		size = hq.NoTable
	}
	d.dec.Init(hq.DecoderConfig{MaxTableSize: size, InitialTableSize: size, MaxSectionSize: math.MaxInt})
	return d
}

// SetMaxStringLength sets the longest name or value accepted, checked on
// the encoded length and again after Huffman decoding; a longer one is
// ErrStringLength. 0, the default, means no limit.
func (d *Decoder) SetMaxStringLength(n int) {
	d.maxStrLen = n
	d.dec.SetMaxStringLength(n)
}

// SetEmitFunc sets the function called for each field decoded. It does not
// change EmitEnabled.
func (d *Decoder) SetEmitFunc(emitFunc func(f HeaderField)) {
	d.emit = emitFunc
}

// SetEmitEnabled sets whether the emit function is called (true by
// default). Fields are decoded either way, so the dynamic table stays in
// step with the peer's: a server past its MAX_HEADER_LIST_SIZE turns
// emitting off and decodes the rest of the section.
func (d *Decoder) SetEmitEnabled(v bool) { d.emitEnabled = v }

// EmitEnabled reports whether the emit function is called.
func (d *Decoder) EmitEnabled() bool { return d.emitEnabled }

// SetMaxDynamicTableSize sets the dynamic table's size to v at once,
// evicting entries to fit, as a Dynamic Table Size Update from the peer
// would, without checking v against the allowed maximum.
func (d *Decoder) SetMaxDynamicTableSize(v uint32) {
	d.dec.SetTableCapacity(v)
}

// SetAllowedMaxDynamicTableSize sets the largest size a Dynamic Table Size
// Update may set: our SETTINGS_HEADER_TABLE_SIZE, once the peer has
// acknowledged it. When v is below the table's size, the peer's next
// section must start with an update to at most v.
func (d *Decoder) SetAllowedMaxDynamicTableSize(v uint32) {
	d.dec.SetMaxTableSize(v)
}

// DecodeFull decodes p, the whole of a field section or its end, and
// returns its fields instead of calling the emit function (none while
// emitting is disabled).
func (d *Decoder) DecodeFull(p []byte) ([]HeaderField, error) {
	if d.err != nil {
		return nil, d.err
	}
	var hf []HeaderField
	d.full = &hf
	err := d.dec.Decode(p, (*decoderSink)(d))
	d.full = nil
	if err = d.check(err); err != nil {
		return nil, err
	}
	return hf, nil
}

// Close ends the field section; it fails when the section ended inside a
// field. The Decoder is then ready for the next section.
func (d *Decoder) Close() error {
	if d.err != nil {
		return d.err
	}
	return d.check(d.dec.End())
}

// Write decodes p, the next fragment of a field section (a HEADERS,
// PUSH_PROMISE or CONTINUATION frame's payload), calling the emit function
// for each field it completes. A field cut short by the end of p waits for
// the next Write. It returns len(p), with an error when p could not be
// decoded (as x/net's does), and 0 with the error of an earlier call.
func (d *Decoder) Write(p []byte) (n int, err error) {
	if d.err != nil {
		return 0, d.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	return len(p), d.check(d.dec.Write(p, (*decoderSink)(d)))
}

// check turns the native decoder's error, or the sink's finding of a long
// string, into x/net's error, and keeps it for every later call.
func (d *Decoder) check(err error) error {
	if d.long {
		err = ErrStringLength
	} else if err != nil {
		err = xnetError(err)
	}
	if err != nil {
		d.err = err
	}
	return err
}

// xnetError returns x/net's error for a failure of hqpack's decoder.
func xnetError(err error) error {
	var ie *hq.IndexError
	switch {
	case errors.Is(err, fastpath.ErrStringTooLong):
		return ErrStringLength
	case errors.Is(err, fastpath.ErrHuffmanEOS), errors.Is(err, fastpath.ErrHuffmanPaddingLength),
		errors.Is(err, fastpath.ErrHuffmanPaddingBits):
		return ErrInvalidHuffman
	case errors.As(err, &ie):
		return DecodingError{Err: InvalidIndexError(ie.Index)}
	}
	return DecodingError{Err: err}
}

// errLong is the sink's answer to a field over the string limit; Write
// reports ErrStringLength.
var errLong = errors.New("field over the string limit")

// decoderSink is the Decoder as the native decoder's fastpath.Sink.
type decoderSink Decoder

func (s *decoderSink) Field(name, value []byte, f fastpath.Flags) error {
	// The native decoder checks literals; x/net also checks fields from
	// the tables.
	if s.maxStrLen != 0 && (len(name) > s.maxStrLen || len(value) > s.maxStrLen) {
		s.long = true
		return errLong
	}
	if !s.emitEnabled {
		return nil
	}
	hf := HeaderField{Sensitive: f&fastpath.NeverIndex != 0}
	if id := f.ID(); id != fastpath.NoField {
		// A static-table name, and often value, needs no new string.
		hf.Name = id.Name()
		hf.Value = staticValue(id, value, &s.strs)
	} else {
		hf.Name = s.strs.get(name)
		hf.Value = s.strs.get(value)
	}
	switch {
	case s.full != nil:
		*s.full = append(*s.full, hf)
	case s.emit != nil:
		s.emit(hf)
	}
	return nil
}

// staticValues lists, by FieldID, the non-empty values of the static
// entries with that name. hqpack's static tables are internal to it (and
// the drop-in's files also build as x/net's, where they are out of reach),
// so they are read back once by decoding each static index in turn, up to
// the first the decoder rejects.
var staticValues = func() (t [fastpath.MaxFieldID + 1][]string) {
	var d hq.Decoder
	d.Init(hq.DecoderConfig{})
	var s fastpath.SinkList
	for i := byte(1); i < 0x7f; i++ {
		s.Reset()
		if d.Decode([]byte{0x80 | i}, &s) != nil {
			break // past the static table
		}
		_, value, f := s.At(0)
		if len(value) != 0 {
			t[f.ID()] = append(t[f.ID()], string(value))
		}
	}
	return t
}()

// staticValue returns value as a string, the static table's own when an
// entry with id's name has that value, else from c.
func staticValue(id fastpath.FieldID, value []byte, c *strCache) string {
	for _, v := range staticValues[id] {
		if v == string(value) {
			return v
		}
	}
	return c.get(value)
}
