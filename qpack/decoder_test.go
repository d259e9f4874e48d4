package qpack

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/static"
)

// newTestDecoder returns a decoder with a 4096-byte table already set.
func newTestDecoder(t *testing.T, blocked uint64) *Decoder {
	t.Helper()
	d := newDecoder(DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: blocked})
	mustRead(t, d, setCapacity(4096))
	return d
}

func mustRead(t *testing.T, d *Decoder, b []byte) {
	t.Helper()
	if err := d.ReadEncoderStream(b); err != nil {
		t.Fatal(err)
	}
}

func mustDecode(t *testing.T, d *Decoder, stream uint64, section []byte) []codectest.Field {
	t.Helper()
	var s codectest.Recorder
	blocked, err := d.DecodeSection(stream, section, &s)
	if err != nil || blocked {
		t.Fatalf("stream %d: blocked %v, %v", stream, blocked, err)
	}
	return s.Fields
}

// wantCode checks err is an *Error with code and cause.
func wantCode(t *testing.T, err error, code ErrCode, cause error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *Error %v %v", err, err, code, cause)
	}
	if e.Code != code || !errors.Is(err, cause) {
		t.Fatalf("error %v, want %v with %v", err, code, cause)
	}
	return e
}

// TestFieldLineForms decodes every field line representation, with and
// without Huffman and the N bit, against a table of three entries.
func TestFieldLineForms(t *testing.T) {
	for _, huff := range []bool{false, true} {
		d := newTestDecoder(t, 0)
		mustRead(t, d, cat(
			insertStaticRef(0, "example.com", huff),             // abs 0 :authority
			insertLiteral("x-custom", "one", huff),              // abs 1
			insertDynamicRef(0, "two", huff),                    // abs 2 x-custom: two
			insertLiteral("content-type", "text/x-plain", huff), // abs 3, a static name sent as a literal
		))
		// Base 2: abs 0 and 1 are relative 1 and 0, abs 2 and 3 post-base 0 and 1.
		section := cat(sectionPrefix(4, 2, 4096/32),
			indexedStatic(17),                        // :method GET
			indexedDynamic(1),                        // abs 0
			indexedPostBase(0),                       // abs 2
			indexedPostBase(1),                       // abs 3
			literalStaticRef(1, "/a", false, huff),   // :path
			literalStaticRef(1, "/b", true, huff),    // never-indexed
			literalDynamicRef(0, "v1", false, huff),  // x-custom name (abs 1)
			literalDynamicRef(1, "v2", true, huff),   // :authority name (abs 0)
			literalPostBaseRef(0, "v3", false, huff), // x-custom name (abs 2)
			literalPostBaseRef(1, "v4", true, huff),  // content-type (abs 3)
			literalName("x-lit", "v5", false, huff),  //
			literalName("authorization", "s", true, huff),
		)
		want := []codectest.Field{
			{Name: ":method", Value: "GET", ID: static.Method},
			{Name: ":authority", Value: "example.com", ID: static.Authority},
			{Name: "x-custom", Value: "two"},
			{Name: "content-type", Value: "text/x-plain", ID: static.ContentType},
			{Name: ":path", Value: "/a", ID: static.Path},
			{Name: ":path", Value: "/b", Never: true, ID: static.Path},
			{Name: "x-custom", Value: "v1"},
			{Name: ":authority", Value: "v2", Never: true, ID: static.Authority},
			{Name: "x-custom", Value: "v3"},
			{Name: "content-type", Value: "v4", Never: true, ID: static.ContentType},
			{Name: "x-lit", Value: "v5"},
			{Name: "authorization", Value: "s", Never: true}, // literal names carry no FieldID
		}
		got := mustDecode(t, d, 8, section)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("huffman %v (-want +got):\n%s", huff, diff)
		}
		// Section Acknowledgment for stream 8, which covers all 4 inserts.
		if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x88}) {
			t.Errorf("decoder stream %x, want 88", out)
		}
	}
}

// TestInsertCountIncrement checks the decoder-stream policy: one increment
// per flush for inserts no acknowledgment covered, none when sections
// acknowledged them all.
func TestInsertCountIncrement(t *testing.T) {
	d := newTestDecoder(t, 0)
	if out := d.AppendDecoderStream(nil); len(out) != 0 {
		t.Fatalf("nothing inserted: %x", out)
	}
	mustRead(t, d, insertLiteral("a", "1", false))
	mustRead(t, d, insertLiteral("b", "2", false))
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x02}) {
		t.Fatalf("after 2 inserts %x, want 02", out)
	}
	mustRead(t, d, cat(insertLiteral("c", "3", false), insertLiteral("d", "4", false)))
	// A section with RIC 3 acknowledges 3; the 4th is an increment of 1.
	mustDecode(t, d, 4, cat(sectionPrefix(3, 3, 128), indexedDynamic(0)))
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x84, 0x01}) {
		t.Fatalf("after ack %x, want 84 01", out)
	}
	// A static-only section is not acknowledged.
	mustDecode(t, d, 8, cat(sectionPrefix(0, 0, 128), indexedStatic(25)))
	if out := d.AppendDecoderStream(nil); len(out) != 0 {
		t.Fatalf("static section: %x", out)
	}
	// A large increment and a large stream ID take several bytes.
	for i := 0; i < 100; i++ {
		mustRead(t, d, insertLiteral("e", "5", false))
	}
	mustDecode(t, d, 1000, cat(sectionPrefix(104, 104, 128), indexedDynamic(0)))
	want := []byte{0xff, 0xe9, 0x06} // 1000 = 127 + 873, 873 = 0x69 + 6<<7
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, want) {
		t.Fatalf("ack of stream 1000: %x, want %x", out, want)
	}
}

// TestBlocked follows sections that wait for inserts: the order
// NextUnblocked reports them in, DecodeUnblocked before and after, and
// cancellation.
func TestBlocked(t *testing.T) {
	d := newTestDecoder(t, 3)
	const me = 4096 / 32
	sec := func(ric uint64) []byte { return cat(sectionPrefix(ric, ric, me), indexedDynamic(0)) }
	for _, tc := range []struct {
		stream, ric uint64
	}{{4, 2}, {8, 1}, {12, 2}} {
		blocked, err := d.DecodeSection(tc.stream, sec(tc.ric), codectest.Discard{})
		if err != nil || !blocked {
			t.Fatalf("stream %d: blocked %v, %v", tc.stream, blocked, err)
		}
	}
	if n := d.BlockedStreams(); n != 3 {
		t.Fatalf("%d blocked, want 3", n)
	}
	if _, err := d.DecodeSection(4, sec(2), codectest.Discard{}); err != ErrStreamBlocked {
		t.Fatalf("second section on stream 4: %v", err)
	}
	if _, err := d.DecodeUnblocked(16, codectest.Discard{}); err != ErrNoBlockedSection {
		t.Fatalf("unknown stream: %v", err)
	}
	if blocked, err := d.DecodeUnblocked(8, codectest.Discard{}); !blocked || err != nil {
		t.Fatalf("stream 8 before inserts: %v %v", blocked, err)
	}
	if _, ok := d.NextUnblocked(); ok {
		t.Fatal("unblocked before any insert")
	}
	mustRead(t, d, insertLiteral("k", "v1", false))
	if id, ok := d.NextUnblocked(); !ok || id != 8 {
		t.Fatalf("NextUnblocked %d %v, want 8", id, ok)
	}
	if _, ok := d.NextUnblocked(); ok {
		t.Fatal("a second stream after one insert")
	}
	// Stream 12 is cancelled while blocked; stream 8 is not decoded yet when
	// the second insert arrives.
	if err := d.CancelStream(12); err != nil {
		t.Fatal(err)
	}
	mustRead(t, d, insertLiteral("k", "v2", false))
	if id, ok := d.NextUnblocked(); !ok || id != 4 {
		t.Fatalf("NextUnblocked %d %v, want 4", id, ok)
	}
	if _, ok := d.NextUnblocked(); ok {
		t.Fatal("cancelled stream 12 reported")
	}
	var s4, s8 codectest.Recorder
	if blocked, err := d.DecodeUnblocked(4, &s4); blocked || err != nil {
		t.Fatal(blocked, err)
	}
	if blocked, err := d.DecodeUnblocked(8, &s8); blocked || err != nil {
		t.Fatal(blocked, err)
	}
	if diff := cmp.Diff([][2]string{{"k", "v2"}}, s4.Pairs()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([][2]string{{"k", "v1"}}, s8.Pairs()); diff != "" {
		t.Error(diff)
	}
	if _, err := d.DecodeUnblocked(4, codectest.Discard{}); err != ErrNoBlockedSection {
		t.Fatalf("stream 4 decoded twice: %v", err)
	}
	// Cancellation of 12 (4c), acks of 4 and 8 (84 88): they cover both inserts.
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x4c, 0x84, 0x88}) {
		t.Fatalf("decoder stream %x, want 4c 84 88", out)
	}
	if d.BlockedStreams() != 0 || len(d.held) != 0 {
		t.Fatalf("%d held", len(d.held))
	}
}

// TestTooManyBlocked: MaxBlockedStreams sections may wait, one more is a
// connection error. Ready sections no longer count.
func TestTooManyBlocked(t *testing.T) {
	for _, limit := range []uint64{0, 1, 2} {
		d := newTestDecoder(t, limit)
		sec := cat(sectionPrefix(1, 1, 128), indexedDynamic(0))
		for i := uint64(0); i < limit; i++ {
			if blocked, err := d.DecodeSection(4*i, sec, codectest.Discard{}); !blocked || err != nil {
				t.Fatal(blocked, err)
			}
		}
		_, err := d.DecodeSection(400, sec, codectest.Discard{})
		e := wantCode(t, err, ErrCodeDecompressionFailed, ErrTooManyBlocked)
		if e.StreamID != 400 {
			t.Errorf("stream %d", e.StreamID)
		}
	}
	d := newTestDecoder(t, 1)
	if blocked, _ := d.DecodeSection(0, cat(sectionPrefix(1, 1, 128), indexedDynamic(0)), codectest.Discard{}); !blocked {
		t.Fatal("not blocked")
	}
	mustRead(t, d, insertLiteral("a", "b", false))
	// Stream 0 is ready, not decoded: stream 4 may block.
	if blocked, err := d.DecodeSection(4, cat(sectionPrefix(2, 2, 128), indexedDynamic(0)), codectest.Discard{}); !blocked || err != nil {
		t.Fatal(blocked, err)
	}
}

// TestHeldSectionTooLarge: a blocked section over MaxBlockedSectionSize is
// a stream error and the decoder cancels the stream itself.
func TestHeldSectionTooLarge(t *testing.T) {
	d := newDecoder(DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 10, MaxBlockedSectionSize: 16})
	mustRead(t, d, setCapacity(4096))
	sec := cat(sectionPrefix(1, 1, 128), literalStaticRef(1, "/a/long/path/past/sixteen", false, false))
	blocked, err := d.DecodeSection(4, sec, codectest.Discard{})
	if blocked {
		t.Fatal("held")
	}
	e := wantCode(t, err, ErrCodeMessage, fastpath.ErrSectionTooLarge)
	if e.ConnectionError() {
		t.Error("a stream error reported as a connection error")
	}
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x44}) {
		t.Fatalf("decoder stream %x, want 44 (cancel stream 4)", out)
	}
	mustDecode(t, d, 8, cat(sectionPrefix(0, 0, 128), indexedStatic(1)))
}

// TestRequiredInsertCountWrap decodes sections long after the insert count
// passed 2*MaxEntries, so the encoded RIC wraps, including blocked ones
// whose RIC is ahead of the insert count.
func TestRequiredInsertCountWrap(t *testing.T) {
	const capacity = 100 // MaxEntries 3, so RIC is sent modulo 6
	d := newDecoder(DecoderConfig{MaxTableCapacity: capacity, MaxBlockedStreams: 1})
	mustRead(t, d, setCapacity(capacity))
	for i := uint64(0); i < 40; i++ {
		v := string(rune('a' + i%26))
		// Send the section first: it blocks on the insert that follows.
		sec := cat(sectionPrefix(i+1, i+1, 3), indexedDynamic(0))
		blocked, err := d.DecodeSection(4*i, sec, codectest.Discard{})
		if err != nil || !blocked {
			t.Fatalf("insert %d: blocked %v, %v", i, blocked, err)
		}
		mustRead(t, d, insertLiteral("k", v, false))
		id, ok := d.NextUnblocked()
		if !ok || id != 4*i {
			t.Fatalf("insert %d: NextUnblocked %d %v", i, id, ok)
		}
		var s codectest.Recorder
		if _, err := d.DecodeUnblocked(id, &s); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][2]string{{"k", v}}, s.Pairs()); diff != "" {
			t.Fatalf("insert %d: %s", i, diff)
		}
		// The entry before, referenced with RIC = insert count.
		if i >= 1 {
			got := mustDecode(t, d, 1, cat(sectionPrefix(i+1, i+1, 3), indexedDynamic(1)))
			if want := string(rune('a' + (i-1)%26)); got[0].Value != want {
				t.Fatalf("insert %d: %q, want %q", i, got[0].Value, want)
			}
		}
	}
}

// TestStreamErrorsKeepDecoder: limits and malformed fields end the stream,
// not the decoder, and the section is still acknowledged.
func TestStreamErrorsKeepDecoder(t *testing.T) {
	big := string(bytes.Repeat([]byte("x"), 200))
	entry := insertLiteral("x-e", big[:50], true) // 85 bytes
	tests := []struct {
		name    string
		cfg     DecoderConfig
		section []byte
		cause   error
	}{
		{"section size", DecoderConfig{MaxSectionSize: 200},
			cat(sectionPrefix(1, 1, 128), indexedDynamic(0), indexedDynamic(0), indexedDynamic(0)), fastpath.ErrSectionTooLarge},
		{"string length", DecoderConfig{MaxStringLength: 100},
			cat(sectionPrefix(1, 1, 128), literalDynamicRef(0, big[:101], false, false)), fastpath.ErrStringTooLong},
		{"huffman string length", DecoderConfig{MaxStringLength: 100},
			cat(sectionPrefix(1, 1, 128), literalName("a", big[:200], false, true)), fastpath.ErrStringTooLong},
		{"field count", DecoderConfig{MaxFields: 2},
			cat(sectionPrefix(1, 1, 128), indexedDynamic(0), indexedStatic(1), indexedStatic(2)), ErrTooManyFields},
		{"uppercase name", DecoderConfig{Validate: true},
			cat(sectionPrefix(1, 1, 128), indexedDynamic(0), literalName("X-Up", "v", false, false)), fastpath.ErrInvalidFieldName},
		{"empty name", DecoderConfig{Validate: true},
			cat(sectionPrefix(1, 1, 128), literalName("", "v", false, false)), fastpath.ErrInvalidFieldName},
		{"unknown pseudo", DecoderConfig{Validate: true},
			cat(sectionPrefix(1, 1, 128), literalName(":nope", "v", false, false)), fastpath.ErrInvalidFieldName},
		{"pseudo after regular", DecoderConfig{Validate: true},
			cat(sectionPrefix(1, 1, 128), indexedDynamic(0), indexedStatic(17)), fastpath.ErrPseudoAfterRegular},
		{"bad value", DecoderConfig{Validate: true},
			cat(sectionPrefix(1, 1, 128), literalStaticRef(2, "a\nb", false, false)), fastpath.ErrInvalidFieldValue},
		{"trailing space", DecoderConfig{Validate: true},
			cat(sectionPrefix(1, 1, 128), literalDynamicRef(0, "ab ", false, true)), fastpath.ErrInvalidFieldValue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.MaxTableCapacity = 4096
			d := newDecoder(tc.cfg)
			mustRead(t, d, cat(setCapacity(4096), entry))
			d.AppendDecoderStream(nil)
			_, err := d.DecodeSection(4, tc.section, codectest.Discard{})
			e := wantCode(t, err, ErrCodeMessage, tc.cause)
			if e.StreamID != 4 || e.ConnectionError() {
				t.Errorf("stream %d connection %v", e.StreamID, e.ConnectionError())
			}
			if errors.Is(tc.cause, fastpath.ErrMalformedField) != errors.Is(err, fastpath.ErrMalformedField) {
				t.Errorf("fastpath.ErrMalformedField class: %v", err)
			}
			if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x84}) {
				t.Errorf("decoder stream %x, want the ack 84", out)
			}
			// The same section is fine without the limit or validation,
			// and the decoder goes on.
			cfg := DecoderConfig{MaxTableCapacity: 4096}
			d2 := newDecoder(cfg)
			mustRead(t, d2, cat(setCapacity(4096), entry))
			mustDecode(t, d2, 4, tc.section)
			mustDecode(t, d, 8, cat(sectionPrefix(1, 1, 128), indexedStatic(1)))
		})
	}
}

// TestValidFields: what Validate accepts.
func TestValidFields(t *testing.T) {
	d := newDecoder(DecoderConfig{Validate: true})
	mustDecode(t, d, 0, cat(sectionPrefix(0, 0, 0),
		indexedStatic(17), indexedStatic(23), literalStaticRef(0, "example.com", false, true),
		literalName(":protocol", "websocket", false, false),
		literalName(":path", "/", false, false), // a pseudo-header sent as a literal name
		literalName("x-ok", "", false, false), indexedStatic(31), literalName("x-tab", "a\tb", false, false),
	))
}

// TestSinkError: a sink's error comes back as is, and the decoder goes on.
func TestSinkError(t *testing.T) {
	d := newTestDecoder(t, 0)
	mustRead(t, d, insertLiteral("a", "b", false))
	stop := errors.New("stop")
	_, err := d.DecodeSection(4, cat(sectionPrefix(1, 1, 128), indexedDynamic(0)), &codectest.FailAt{At: 1, Err: stop})
	if err != stop {
		t.Fatalf("%v, want the sink's error", err)
	}
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x84}) {
		t.Fatalf("decoder stream %x, want 84", out)
	}
	mustDecode(t, d, 8, cat(sectionPrefix(1, 1, 128), indexedDynamic(0)))
}

// TestCancelStream: cancellations are sent for any stream when the table
// may be used, never for a static-only decoder.
func TestCancelStream(t *testing.T) {
	d := newTestDecoder(t, 0)
	for _, id := range []uint64{0, 63, 64} {
		if err := d.CancelStream(id); err != nil {
			t.Fatal(err)
		}
	}
	if out := d.AppendDecoderStream(nil); !bytes.Equal(out, []byte{0x40, 0x7f, 0x00, 0x7f, 0x01}) {
		t.Fatalf("decoder stream %x, want 40 7f00 7f01", out)
	}
	s := newDecoder(DecoderConfig{})
	if err := s.CancelStream(4); err != nil {
		t.Fatal(err)
	}
	if out := s.AppendDecoderStream(nil); len(out) != 0 {
		t.Fatalf("static-only decoder wrote %x", out)
	}
}

// TestInit: Init makes a used decoder a fresh one.
func TestInit(t *testing.T) {
	d := newTestDecoder(t, 1)
	mustRead(t, d, insertLiteral("a", "b", false))
	d.DecodeSection(4, cat(sectionPrefix(2, 2, 128), indexedDynamic(0)), codectest.Discard{})
	mustRead(t, d, []byte{0x3f}) // unfinished
	d.Init(DecoderConfig{MaxTableCapacity: 220, MaxBlockedStreams: 100})
	if d.InsertCount() != 0 || d.BlockedStreams() != 0 || len(d.pend) != 0 {
		t.Fatal("state survived Init")
	}
	if out := d.AppendDecoderStream(nil); len(out) != 0 {
		t.Fatalf("decoder stream after Init %x", out)
	}
	if size, c := d.TableSize(); size != 0 || c != 0 {
		t.Fatalf("table %d/%d", size, c)
	}
	runRFC(t, loadRFC(t), func(b []byte) [][]byte { return [][]byte{b} }, d)
}
