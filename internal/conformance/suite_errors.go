package conformance

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/qpack"
)

// qifsErrorFile is what decoding a qifs encoded/errors file must give under
// RFC 9204: an error with the code and cause, or (Code 0) the fields.
type qifsErrorFile struct {
	name   string
	code   qpack.ErrCode
	cause  error
	fields Headers
}

// qifsErrorFiles date from about draft-03; read under RFC 9204:
//
//	err1  stream 1: ff               RIC integer truncated
//	err2  stream 1: 00               Base missing
//	err3  stream 1: 00 ff            Base integer truncated
//	err4  stream 1: 00 81            negative Base (sign 1 with RIC 0)
//	err5  stream 1: 00 00 41         dynamic name reference with RIC 0
//	err6  stream 1: 00 00 27         literal name length truncated
//	err7  stream 1: 00 00 51 ff      value length truncated
//	err8  stream 1: 00 00 bf         dynamic index integer truncated
//	err9  stream 1: 00 00 c0         static 0, :authority "" (valid)
//	err10 stream 1: 00 00 fe         static 62 (valid)
//	err11 stream 0: 01               Duplicate of an entry never inserted
//	err12 stream 0: ff 80 ff ff ff ff 01  Insert With Name Reference,
//	                                 static index past the table
var qifsErrorFiles = []qifsErrorFile{
	{"err1", qpack.ErrCodeDecompressionFailed, fastpath.ErrTruncated, nil},
	{"err2", qpack.ErrCodeDecompressionFailed, fastpath.ErrTruncated, nil},
	{"err3", qpack.ErrCodeDecompressionFailed, fastpath.ErrTruncated, nil},
	{"err4", qpack.ErrCodeDecompressionFailed, qpack.ErrRequiredInsertCount, nil},
	{"err5", qpack.ErrCodeDecompressionFailed, fastpath.ErrInvalidIndex, nil},
	{"err6", qpack.ErrCodeDecompressionFailed, fastpath.ErrTruncated, nil},
	{"err7", qpack.ErrCodeDecompressionFailed, fastpath.ErrTruncated, nil},
	{"err8", qpack.ErrCodeDecompressionFailed, fastpath.ErrTruncated, nil},
	{"err9", 0, nil, Headers{{":authority", ""}}},
	{"err10", 0, nil, Headers{{"x-xss-protection", "1; mode=block"}}},
	{"err11", qpack.ErrCodeEncoderStream, fastpath.ErrInvalidIndex, nil},
	{"err12", qpack.ErrCodeEncoderStream, fastpath.ErrInvalidIndex, nil},
}

// RunErrors checks that malformed input fails as it must: the qifs error
// files (when c is not nil), each with a static-only decoder and with a
// 4096-byte table, and the hand-made inputs of MalformedInputs. Each
// failure must match its sentinel with errors.Is and carry its code.
func RunErrors(c *Corpus) *Suite {
	s := newSuite("errors", "malformed input fails with the right error and code: qifs encoded/errors and hand-made inputs for both codecs", "input")
	if c != nil {
		for _, f := range qifsErrorFiles {
			for _, capacity := range []uint64{0, 4096} {
				name := fmt.Sprintf("qifs errors/%s @ capacity %d", f.name, capacity)
				s.count(name, safe(func() error { return checkErrorFile(s, c.path(qifsErrDir, f.name), f, capacity) }))
			}
		}
	}
	for _, m := range MalformedInputs {
		s.add(1, int64(len(m.Input)/2))
		s.count(m.Codec+": "+m.Name, safe(m.check))
	}
	return s
}

func checkErrorFile(s *Suite, path string, f qifsErrorFile, capacity uint64) error {
	recs, err := LoadRecords(path)
	if err != nil {
		return err
	}
	s.add(sectionCount(recs), payloadSize(recs))
	got, err := decodeRecords(recs, qpack.DecoderConfig{MaxTableCapacity: capacity, MaxBlockedStreams: 100})
	if f.cause == nil {
		if err != nil {
			return fmt.Errorf("valid under RFC 9204, got %w", err)
		}
		return compareStreams(got, []Headers{f.fields}, nil)
	}
	return wantError(err, f.cause, uint64(f.code), "want %v (%s)", f.cause, f.code)
}

// wantError checks that err matches cause and carries code.
func wantError(err, cause error, code uint64, format string, args ...any) error {
	if err == nil {
		return fmt.Errorf("no error; "+format, args...)
	}
	got, ok := errorCode(err)
	if !errors.Is(err, cause) || !ok || got != code {
		return fmt.Errorf("got %v (code %#x); "+format, append([]any{err, got}, args...)...)
	}
	return nil
}

// errorCode returns the protocol error code an error carries.
func errorCode(err error) (uint64, bool) {
	var he *hpack.Error
	if errors.As(err, &he) {
		return uint64(he.Code), true
	}
	var qe *qpack.Error
	if errors.As(err, &qe) {
		return uint64(qe.Code), true
	}
	return 0, false
}

// Malformed is a hand-made malformed input and the error it must give.
type Malformed struct {
	// Codec is the input's place: "hpack", "qpack section",
	// "qpack encoder stream" or "qpack decoder stream" (read by our
	// encoder).
	Codec string
	Name  string
	// Setup, in hex, goes first and must succeed (HPACK: a header block;
	// QPACK section: encoder-stream bytes) unless SetupFails.
	Setup      string
	SetupFails bool
	// Input, in hex, is the malformed input.
	Input string
	// Err is the sentinel the error must match, Code the error code.
	Err  error
	Code uint64
	// HPACK and QPACK configure the decoder (the zero value: defaults;
	// QPACK: static only).
	HPACK hpack.DecoderConfig
	QPACK qpack.DecoderConfig
}

// huffEOS is a 4-byte Huffman string holding EOS (30 one bits).
const huffEOS = "84ffffffff"

// MalformedInputs are the hand-made malformed inputs of the errors suite.
var MalformedInputs = []Malformed{
	{Codec: "hpack", Name: "indexed field 0", Input: "80", Err: fastpath.ErrInvalidIndex, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "index 62 with an empty dynamic table", Input: "be", Err: fastpath.ErrInvalidIndex, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "literal with a name index past both tables", Input: "7e0161", Err: fastpath.ErrInvalidIndex, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "index integer cut short", Input: "ff", Err: fastpath.ErrTruncated, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "index integer past 2^62", Input: "ffffffffffffffffffff01", Err: fastpath.ErrIntegerOverflow, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "literal cut inside its name", Input: "400a6162", Err: fastpath.ErrTruncated, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "literal without its value", Input: "400161", Err: fastpath.ErrTruncated, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "Huffman string with EOS", Input: "40" + huffEOS + "00", Err: fastpath.ErrHuffmanEOS, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "Huffman padding of 8 bits", Input: "4082" + "1fff" + "00", Err: fastpath.ErrHuffmanPaddingLength, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "Huffman padding of zeros", Input: "408118" + "00", Err: fastpath.ErrHuffmanPaddingBits, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "size update above the setting (4097)", Input: "3fe21f", Err: hpack.ErrSizeUpdate, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "size update after a field", Input: "8220", Err: hpack.ErrSizeUpdate, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "three size updates", Input: "202020", Err: hpack.ErrSizeUpdate, Code: uint64(hpack.ErrCodeCompression)},
	{Codec: "hpack", Name: "no size update after our setting went below the table size", Input: "82", Err: hpack.ErrSizeUpdate, Code: uint64(hpack.ErrCodeCompression),
		HPACK: hpack.DecoderConfig{MaxTableSize: 256}},
	{Codec: "hpack", Name: "section over the size limit", Input: "828486", Err: fastpath.ErrSectionTooLarge, Code: uint64(hpack.ErrCodeCompression),
		HPACK: hpack.DecoderConfig{MaxSectionSize: 80}},
	{Codec: "hpack", Name: "string over the length limit", Input: "40046161616100", Err: fastpath.ErrStringTooLong, Code: uint64(hpack.ErrCodeCompression),
		HPACK: hpack.DecoderConfig{MaxStringLength: 3}},
	{Codec: "hpack", Name: "decoding after an error", Setup: "80", SetupFails: true, Input: "82", Err: fastpath.ErrClosed, Code: uint64(hpack.ErrCodeCompression)},

	{Codec: "qpack section", Name: "Required Insert Count cut short", Input: "ff", Err: fastpath.ErrTruncated, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "Base missing", Input: "00", Err: fastpath.ErrTruncated, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "negative Base with Required Insert Count 0", Input: "0081", Err: qpack.ErrRequiredInsertCount, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "Required Insert Count with no dynamic table", Input: "0200", Err: qpack.ErrRequiredInsertCount, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "encoded Required Insert Count past 2*MaxEntries", Input: "1100", Err: qpack.ErrRequiredInsertCount, Code: uint64(qpack.ErrCodeDecompressionFailed),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256, MaxBlockedStreams: 100}},
	{Codec: "qpack section", Name: "dynamic reference with Required Insert Count 0", Input: "000080", Err: fastpath.ErrInvalidIndex, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "static index 99, past the table", Input: "0000ff24", Err: fastpath.ErrInvalidIndex, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "post-base index at the Required Insert Count", Setup: "3fe101c003616263", Input: "020010", Err: fastpath.ErrInvalidIndex, Code: uint64(qpack.ErrCodeDecompressionFailed),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256, MaxBlockedStreams: 100}},
	{Codec: "qpack section", Name: "literal name cut short", Input: "00002561", Err: fastpath.ErrTruncated, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "Huffman value with EOS", Input: "000051" + huffEOS, Err: fastpath.ErrHuffmanEOS, Code: uint64(qpack.ErrCodeDecompressionFailed)},
	{Codec: "qpack section", Name: "one blocked stream over the limit", Input: "0200", Err: qpack.ErrTooManyBlocked, Code: uint64(qpack.ErrCodeDecompressionFailed),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256, MaxBlockedStreams: 0}},
	{Codec: "qpack section", Name: "decoding after an error", Setup: "ff", SetupFails: true, Input: "0000d1", Err: fastpath.ErrClosed, Code: uint64(qpack.ErrCodeDecompressionFailed),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256, MaxBlockedStreams: 100}},

	{Codec: "qpack encoder stream", Name: "capacity above the maximum (257 > 256)", Input: "3fe201", Err: qpack.ErrCapacity, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "insert before any Set Dynamic Table Capacity", Input: "c003616263", Err: qpack.ErrCapacity, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "insert larger than the table", Input: "3f01" + "c003616263", Err: qpack.ErrCapacity, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "Duplicate with an empty table", Input: "3fe101" + "00", Err: fastpath.ErrInvalidIndex, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "dynamic name reference with an empty table", Input: "3fe101" + "8000", Err: fastpath.ErrInvalidIndex, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "static name index 99, past the table", Input: "3fe101" + "ff2400", Err: fastpath.ErrInvalidIndex, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "capacity integer past 2^62", Input: "3fffffffffffffffffff01", Err: fastpath.ErrIntegerOverflow, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},
	{Codec: "qpack encoder stream", Name: "Huffman value with EOS", Input: "3fe101" + "c0" + huffEOS, Err: fastpath.ErrHuffmanEOS, Code: uint64(qpack.ErrCodeEncoderStream),
		QPACK: qpack.DecoderConfig{MaxTableCapacity: 256}},

	{Codec: "qpack decoder stream", Name: "Section Acknowledgment for no section", Input: "84", Err: qpack.ErrUnexpectedAck, Code: uint64(qpack.ErrCodeDecoderStream)},
	{Codec: "qpack decoder stream", Name: "Insert Count Increment of 0", Input: "00", Err: qpack.ErrUnexpectedAck, Code: uint64(qpack.ErrCodeDecoderStream)},
	{Codec: "qpack decoder stream", Name: "Insert Count Increment past the inserts", Input: "01", Err: qpack.ErrUnexpectedAck, Code: uint64(qpack.ErrCodeDecoderStream)},
	{Codec: "qpack decoder stream", Name: "stream ID past 2^62", Input: "ffffffffffffffffffff01", Err: fastpath.ErrIntegerOverflow, Code: uint64(qpack.ErrCodeDecoderStream)},
}

// check runs the input and compares its error with the expected one.
func (m *Malformed) check() error {
	setup, err := hex.DecodeString(m.Setup)
	if err != nil {
		return fmt.Errorf("setup is not hex: %w", err)
	}
	input, err := hex.DecodeString(m.Input)
	if err != nil {
		return fmt.Errorf("input is not hex: %w", err)
	}
	var setupErr, got error
	switch m.Codec {
	case "hpack":
		var d hpack.Decoder
		d.Init(m.HPACK)
		var sink fastpath.SinkList
		if len(setup) > 0 {
			setupErr = d.Decode(setup, &sink)
		}
		got = d.Decode(input, &sink)
	case "qpack section":
		var d qpack.Decoder
		d.Init(m.QPACK)
		if len(setup) > 0 {
			if m.SetupFails {
				_, _, setupErr = decodeSection(&d, 1, setup)
			} else {
				setupErr = d.ReadEncoderStream(setup)
			}
		}
		_, _, got = decodeSection(&d, 4, input)
	case "qpack encoder stream":
		var d qpack.Decoder
		d.Init(m.QPACK)
		got = d.ReadEncoderStream(input)
	case "qpack decoder stream":
		var e qpack.Encoder
		e.Init(qpack.EncoderConfig{MaxTableCapacity: 256, TableCapacity: 256, MaxBlockedStreams: 100})
		got = e.ReadDecoderStream(input)
	default:
		return fmt.Errorf("unknown codec %q", m.Codec)
	}
	if (setupErr != nil) != m.SetupFails {
		return fmt.Errorf("setup %s: error %v, want failure %v", m.Setup, setupErr, m.SetupFails)
	}
	return wantError(got, m.Err, m.Code, "want %v (code %#x)", m.Err, m.Code)
}
