package qpack

import (
	"bytes"
	"encoding/hex"
	"errors"
	"github.com/hqpack/hqpack/internal/wire"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	quicqpack "github.com/quic-go/qpack"
)

func etEncoder(cfg EncoderConfig) *Encoder {
	e := new(Encoder)
	e.Init(cfg)
	return e
}

// etDynamic is a connection with a dynamic table and acknowledgments on
// the decoder stream.
func etDynamic(capacity, blocked uint64) EncoderConfig {
	return EncoderConfig{MaxTableCapacity: capacity, TableCapacity: capacity, MaxBlockedStreams: blocked}
}

// etQuicGoDecode decodes a static-only section with quic-go/qpack.
func etQuicGoDecode(t *testing.T, sec []byte) []codectest.Field {
	t.Helper()
	next := quicqpack.NewDecoder().Decode(sec)
	var got []codectest.Field
	for {
		hf, err := next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatalf("quic-go/qpack: %v (section %x)", err, sec)
		}
		got = append(got, codectest.Field{Name: hf.Name, Value: hf.Value})
	}
}

func TestEncoderStaticOnly(t *testing.T) {
	fields := []etField{
		{Name: ":method", Value: "GET"},                           // indexed static 17
		{Name: ":path", Value: "/index.html"},                     // literal, static name 1
		{Name: "x-custom", Value: "v"},                            // literal name
		{Name: "authorization", Value: "secret"},                  // never indexed, static name 84
		{Name: "cookie", Value: "a=b"},                            // never indexed, static name 5
		{Name: "content-type", Value: "text/html; charset=utf-8"}, // indexed static 52
		{Raw: true, CL: 0},                                        // indexed static 4
		{Raw: true, CL: 12},                                       // literal, static name 4
	}
	want := "0000" + "d1" + "510b2f696e6465782e68746d6c" + "2701782d637573746f6d0176" +
		"7f4506736563726574" + "7503613d62" + "f4" + "c4" + "54023132"
	for _, e := range []*Encoder{new(Encoder), etEncoder(EncoderConfig{Huffman: fastpath.HuffmanNever})} {
		e.huff = fastpath.HuffmanNever
		got := e.AppendSection(1, nil, newEtFields(fields))
		if hex.EncodeToString(got) != want {
			t.Errorf("got  %x\nwant %s", got, want)
		}
		if e.EncoderStreamLen() != 0 || e.Outstanding() != 0 {
			t.Errorf("static-only: encoder stream %d bytes, %d outstanding", e.EncoderStreamLen(), e.Outstanding())
		}
		if diff := cmp.Diff(etWantRaw(fields), etQuicGoDecode(t, got)); diff != "" {
			t.Errorf("quic-go/qpack decodes (-want +got):\n%s", diff)
		}
	}
}

// etWantRaw is etWant with raw Content-Lengths as decimal strings.
func etWantRaw(l []etField) []codectest.Field {
	w := etWant(l)
	for i, f := range l {
		if f.Raw {
			w[i] = codectest.Field{Name: "content-length", Value: itoa(f.CL)}
		}
	}
	return w
}

func itoa(n int64) string { return string(wire.AppendDigits(nil, uint64(n))) }

func TestEncoderLowercasesNames(t *testing.T) {
	var e Encoder
	got := e.AppendSection(0, nil, newEtFields([]etField{{Name: "Content-Type", Value: "text/html; charset=utf-8"}, {Name: "X-Up", Value: "1"}, {Name: "Content-Length", Value: "0"}}))
	want := []codectest.Field{{Name: "content-type", Value: "text/html; charset=utf-8"}, {Name: "x-up", Value: "1"}, {Name: "content-length", Value: "0"}}
	if diff := cmp.Diff(want, etQuicGoDecode(t, got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !bytes.Contains(got, []byte{0xf4}) || !bytes.Contains(got, []byte{0xc4}) {
		t.Errorf("%x: lowercased names should match static entries 52 and 4", got)
	}
}

func TestEncoderNegativeContentLength(t *testing.T) {
	// A custom enumerator may report a negative length: sent as its string.
	var a, b Encoder
	raw := a.AppendSection(0, nil, newEtFields([]etField{{Raw: true, CL: -5}}))
	str := b.AppendSection(0, nil, newEtFields([]etField{{Name: "content-length", Value: "-5"}}))
	if !bytes.Equal(raw, str) {
		t.Errorf("raw %x, string %x", raw, str)
	}
}

func TestEncoderBeginContinue(t *testing.T) {
	fields := []etField{{Name: "x-a", Value: "1234567"}, {Name: ":method", Value: "GET"}, {Name: "x-b", Value: "12"}}
	var ref Encoder
	whole := ref.AppendSection(0, nil, newEtFields(fields))
	var e Encoder
	if n := e.Plan(0, newEtFields(fields)); n != len(whole) || e.Remaining() != n {
		t.Fatalf("Plan = %d, Remaining %d, section is %d bytes", n, e.Remaining(), len(whole))
	}
	if n, res := e.Continue(nil); n != 0 || res != fastpath.BufferTooSmall || e.Remaining() != len(whole) {
		t.Fatalf("empty buffer: %d, %v, remaining %d", n, res, e.Remaining())
	}
	// Every buffer size: fastpath.MoreFields until fastpath.Done; a piece ends where the next
	// line would not fit, or fills the buffer with a line that does not
	// fit an empty one.
	lines := etLineEnds(t, whole)
	starts := map[int]int{0: 2} // each unit's start, to its end
	for end, next := range lines {
		starts[end] = next
	}
	for size := 1; size <= len(whole)+2; size++ {
		var e Encoder
		buf := make([]byte, size)
		n, res := e.Begin(0, buf, newEtFields(fields))
		var got []byte
		for {
			got = append(got, buf[:n]...)
			if res == fastpath.Done {
				break
			}
			if res != fastpath.MoreFields || n == 0 || len(got) > len(whole) {
				t.Fatalf("size %d: %v with %d bytes", size, res, n)
			}
			if next, ok := lines[len(got)]; ok || len(got) == 2 {
				if !ok {
					next = starts[2]
				}
				if next-len(got)+n <= len(buf) {
					t.Fatalf("size %d: a piece of %d bytes ends at %d, before a line that fits", size, n, len(got))
				}
			} else if n != len(buf) {
				t.Fatalf("size %d: a piece of %d bytes cuts a line", size, n)
			}
			n, res = e.Continue(buf)
		}
		if !bytes.Equal(got, whole) {
			t.Fatalf("size %d: pieces %x, whole %x", size, got, whole)
		}
	}
	// Plan, one piece with Continue, the rest with AppendPlanned.
	e.Init(EncoderConfig{})
	e.Plan(0, newEtFields(fields))
	n, res := e.Continue(make([]byte, 3))
	if res != fastpath.MoreFields || n != 2 {
		t.Fatalf("3-byte buffer: %d, %v", n, res)
	}
	if got := e.AppendPlanned(append([]byte(nil), whole[:n]...)); !bytes.Equal(got, whole) || e.Remaining() != 0 {
		t.Errorf("AppendPlanned: %x, want %x", got, whole)
	}
	var fresh Encoder
	if n, res := fresh.Continue(make([]byte, 10)); n != 0 || res != fastpath.NoSection {
		t.Errorf("Continue with nothing planned: %d, %v", n, res)
	}
}

// etLineEnds maps the end offset of each unit of a static-only section
// (prefix, then each field line) to the end of the next unit.
func etLineEnds(t *testing.T, sec []byte) map[int]int {
	t.Helper()
	ends := []int{2}
	dec := quicqpack.NewDecoder()
	for i := 3; i <= len(sec); i++ {
		// A prefix of the section decodes cleanly only at line ends.
		next := dec.Decode(sec[:i])
		ok := true
		for {
			_, err := next()
			if err == io.EOF {
				break
			}
			if err != nil {
				ok = false
				break
			}
		}
		if ok {
			ends = append(ends, i)
		}
	}
	m := map[int]int{}
	for i := 0; i+1 < len(ends); i++ {
		m[ends[i]] = ends[i+1]
	}
	return m
}

func TestEncoderDecoderStreamInstructions(t *testing.T) {
	cfg := etDynamic(220, 100)
	cfg.Indexing = fastpath.IndexAll
	e := etEncoder(cfg)
	e.AppendSection(4, nil, newEtFields([]etField{{Name: ":authority", Value: "www.example.com"}, {Name: ":path", Value: "/sample/path"}}))
	if e.InsertCount() != 2 || e.Outstanding() != 1 || e.BlockedStreams() != 1 {
		t.Fatalf("after stream 4: inserts %d, outstanding %d, blocked %d", e.InsertCount(), e.Outstanding(), e.BlockedStreams())
	}
	// The decoder-stream bytes of RFC 9204 B.2, B.3 and B.4.
	if err := e.ReadDecoderStream([]byte{0x84}); err != nil { // Section Acknowledgment, stream 4
		t.Fatal(err)
	}
	if e.KnownReceivedCount() != 2 || e.Outstanding() != 0 || e.BlockedStreams() != 0 {
		t.Fatalf("after ack: known %d, outstanding %d, blocked %d", e.KnownReceivedCount(), e.Outstanding(), e.BlockedStreams())
	}
	e.AppendSection(8, nil, newEtFields([]etField{{Name: "custom-key", Value: "custom-value"}, {Name: ":authority", Value: "www.example.com"}}))
	if e.InsertCount() != 3 || e.Outstanding() != 1 || e.BlockedStreams() != 1 {
		t.Fatalf("after stream 8: inserts %d, outstanding %d, blocked %d", e.InsertCount(), e.Outstanding(), e.BlockedStreams())
	}
	if err := e.ReadDecoderStream([]byte{0x01}); err != nil { // Insert Count Increment 1
		t.Fatal(err)
	}
	if e.KnownReceivedCount() != 3 || e.Outstanding() != 1 || e.BlockedStreams() != 0 {
		t.Fatalf("after increment: known %d, outstanding %d, blocked %d", e.KnownReceivedCount(), e.Outstanding(), e.BlockedStreams())
	}
	if err := e.ReadDecoderStream([]byte{0x48}); err != nil { // Stream Cancellation, stream 8
		t.Fatal(err)
	}
	if e.Outstanding() != 0 {
		t.Fatalf("after cancellation: %d outstanding", e.Outstanding())
	}
}

func TestEncoderDecoderStreamErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		cause error
		off   int
	}{
		{"increment of 0", "00", ErrUnexpectedAck, 0},
		{"increment past the inserts", "03", ErrUnexpectedAck, 0},
		{"ack with nothing outstanding", "8481", ErrUnexpectedAck, 1},
		{"integer over 2^62", "3fffffffffffffffffff7f", fastpath.ErrIntegerOverflow, 0},
		{"ack after cancellation", "4484", ErrUnexpectedAck, 1},
	}
	for _, tt := range tests {
		cfg := etDynamic(256, 100)
		cfg.Indexing = fastpath.IndexAll
		e := etEncoder(cfg)
		e.AppendSection(4, nil, newEtFields([]etField{{Name: "x", Value: "y"}, {Name: "x", Value: "z"}}))
		in, _ := hex.DecodeString(tt.input)
		var err error
		for i := range in { // one byte at a time: instructions split anywhere
			if err = e.ReadDecoderStream(in[i : i+1]); err != nil {
				break
			}
		}
		var qe *Error
		if !errors.As(err, &qe) || qe.Code != ErrCodeDecoderStream || !errors.Is(err, tt.cause) || qe.Offset != tt.off {
			t.Errorf("%s: %v, want %v at offset %d with QPACK_DECODER_STREAM_ERROR", tt.name, err, tt.cause, tt.off)
			continue
		}
		if err := e.ReadDecoderStream([]byte{0x01}); !errors.Is(err, fastpath.ErrClosed) {
			t.Errorf("%s: after the error, %v, want fastpath.ErrClosed", tt.name, err)
		}
		// Static only from now on.
		if sec := e.AppendSection(8, nil, newEtFields([]etField{{Name: "x", Value: "y"}})); sec[0] != 0 {
			t.Errorf("%s: section after the error %x references the table", tt.name, sec)
		}
	}
}

// TestEncoderKeepsReferencedEntries checks that an entry an unacknowledged
// section references is not evicted, and that the blocked-streams budget
// holds.
func TestEncoderKeepsReferencedEntries(t *testing.T) {
	cfg := etDynamic(100, 1) // room for two entries of 40 bytes
	cfg.Indexing = fastpath.IndexAll
	e := etEncoder(cfg)
	a := []etField{{Name: "aaaa", Value: "1111"}}
	b := []etField{{Name: "bbbb", Value: "2222"}}
	c := []etField{{Name: "cccc", Value: "3333"}}
	e.AppendSection(0, nil, newEtFields(a)) // inserts a, blocked stream 0
	if e.InsertCount() != 1 || e.BlockedStreams() != 1 {
		t.Fatalf("inserts %d blocked %d", e.InsertCount(), e.BlockedStreams())
	}
	// Stream 4 may not block: b is inserted for later but sent as a literal.
	sec := e.AppendSection(4, nil, newEtFields(b))
	if sec[0] != 0 || e.InsertCount() != 2 || e.BlockedStreams() != 1 {
		t.Fatalf("stream 4: %x, inserts %d, blocked %d", sec, e.InsertCount(), e.BlockedStreams())
	}
	// Stream 0 is blocked already: it may reference b.
	sec = e.AppendSection(0, nil, newEtFields(b))
	if sec[0] == 0 {
		t.Fatalf("stream 0's second section %x does not use the table", sec)
	}
	// The table is full; a and b are unacknowledged and referenced: c
	// cannot go in.
	e.AppendSection(8, nil, newEtFields(c))
	if e.InsertCount() != 2 {
		t.Fatalf("inserted c by evicting an unacknowledged entry")
	}
	// Acknowledge stream 0's first section (a): still referenced by
	// nothing? No: a is acknowledged and unreferenced, so c evicts it.
	if err := e.ReadDecoderStream([]byte{0x80}); err != nil {
		t.Fatal(err)
	}
	e.AppendSection(8, nil, newEtFields(c))
	if e.InsertCount() != 3 {
		t.Fatalf("c not inserted once a was acknowledged")
	}
	if _, _, ok := e.TableEntry(0); ok {
		t.Fatalf("a still in the table")
	}
}

// TestEncoderDecoderStreamNoPanic feeds random decoder-stream bytes, split
// at random, to encoders with outstanding sections: errors are decoder
// stream errors, and nothing panics.
func TestEncoderDecoderStreamNoPanic(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 2000 {
		cfg := etDynamic(256, uint64(r.Intn(3)))
		e := etEncoder(cfg)
		for i := range r.Intn(5) {
			e.AppendSection(uint64(4*i), nil, newEtFields(etRandomSection(r)))
		}
		in := make([]byte, r.Intn(12))
		r.Read(in)
		for len(in) > 0 {
			k := 1 + r.Intn(len(in))
			err := e.ReadDecoderStream(in[:k])
			in = in[k:]
			if err == nil {
				continue
			}
			var qe *Error
			if !errors.As(err, &qe) || qe.Code != ErrCodeDecoderStream {
				t.Fatalf("%v is not a decoder-stream error", err)
			}
			break
		}
		if e.KnownReceivedCount() > e.InsertCount() {
			t.Fatalf("known received %d > inserts %d", e.KnownReceivedCount(), e.InsertCount())
		}
	}
}

// TestEncoderAckNever: nothing is ever evicted, and at most
// MaxBlockedStreams sections reference the table.
func TestEncoderAckNever(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, blocked := range []uint64{0, 1, 5} {
		cfg := etDynamic(512, blocked)
		cfg.AckMode = AckNever
		e := etEncoder(cfg)
		dynamic := 0
		for i := range 200 {
			sec := e.AppendSection(uint64(4*i), nil, newEtFields(etRandomSection(r)))
			if sec[0] != 0 {
				dynamic++
			}
			if size, _ := e.TableSize(); e.oldest() != 0 || size > 512 {
				t.Fatalf("blocked %d: entries evicted (oldest %d)", blocked, e.oldest())
			}
		}
		if uint64(dynamic) > blocked || e.BlockedStreams() != dynamic {
			t.Errorf("blocked %d: %d sections reference the table, %d blocked streams", blocked, dynamic, e.BlockedStreams())
		}
		if blocked == 0 && e.InsertCount() != 0 {
			t.Errorf("no blocked streams, yet %d inserts nothing can reference", e.InsertCount())
		}
		if blocked > 0 && dynamic == 0 {
			t.Errorf("blocked %d: the table is never used", blocked)
		}
	}
}

func TestEncoderMaxOutstanding(t *testing.T) {
	cfg := etDynamic(4096, 100)
	cfg.MaxOutstanding = 2
	cfg.Indexing = fastpath.IndexAll
	e := etEncoder(cfg)
	f := []etField{{Name: "x-a", Value: "1"}}
	for i := range 3 {
		sec := e.AppendSection(uint64(4*i), nil, newEtFields(f))
		if dyn := sec[0] != 0; dyn != (i < 2) {
			t.Fatalf("section %d: %x", i, sec)
		}
	}
	if err := e.ReadDecoderStream([]byte{0x80}); err != nil {
		t.Fatal(err)
	}
	if sec := e.AppendSection(12, nil, newEtFields(f)); sec[0] == 0 {
		t.Fatalf("after an acknowledgment, still static only: %x", sec)
	}
}

func TestEncoderLargeField(t *testing.T) {
	cfg := etDynamic(256, 100)
	cfg.Indexing = fastpath.IndexAll
	e := etEncoder(cfg)
	big := strings.Repeat("x", 300)
	var d Decoder
	d.Init(DecoderConfig{MaxTableCapacity: 256, MaxBlockedStreams: 100})
	for i := range 2 {
		sec := e.AppendSection(uint64(4*i), nil, newEtFields([]etField{{Name: "x-big", Value: big}, {Name: "x-small", Value: "1"}}))
		s := codectest.Recorder{NoIDs: true}
		if err := d.ReadEncoderStream(e.AppendEncoderStream(nil)); err != nil {
			t.Fatal(err)
		}
		if _, err := d.DecodeSection(uint64(4*i), sec, &s); err != nil || len(s.Fields) != 2 || s.Fields[0].Value != big {
			t.Fatalf("%v %v", err, s.Fields)
		}
	}
	for abs := e.oldest(); abs < e.InsertCount(); abs++ {
		if _, v, _ := e.TableEntry(abs); len(v) > 256 {
			t.Errorf("entry %d holds the large value", abs)
		}
	}
}

// TestEncoderTrailers: a stream with two unacknowledged sections (headers
// and trailers) counts as one blocked stream; acknowledgments take them in
// order.
func TestEncoderTrailers(t *testing.T) {
	cfg := etDynamic(4096, 1)
	cfg.Indexing = fastpath.IndexAll
	e := etEncoder(cfg)
	e.AppendSection(4, nil, newEtFields([]etField{{Name: "x-a", Value: "1"}}))
	sec := e.AppendSection(4, nil, newEtFields([]etField{{Name: "x-b", Value: "2"}})) // trailers
	if sec[0] == 0 || e.Outstanding() != 2 || e.BlockedStreams() != 1 {
		t.Fatalf("trailers %x: %d outstanding, %d blocked", sec, e.Outstanding(), e.BlockedStreams())
	}
	if err := e.ReadDecoderStream([]byte{0x84}); err != nil {
		t.Fatal(err)
	}
	if e.KnownReceivedCount() != 1 || e.Outstanding() != 1 || e.BlockedStreams() != 1 {
		t.Fatalf("after one ack: known %d, %d outstanding, %d blocked", e.KnownReceivedCount(), e.Outstanding(), e.BlockedStreams())
	}
	if err := e.ReadDecoderStream([]byte{0x84}); err != nil {
		t.Fatal(err)
	}
	if e.KnownReceivedCount() != 2 || e.Outstanding() != 0 || e.BlockedStreams() != 0 {
		t.Fatalf("after two acks: known %d, %d outstanding, %d blocked", e.KnownReceivedCount(), e.Outstanding(), e.BlockedStreams())
	}
	if err := e.ReadDecoderStream([]byte{0x84}); !errors.Is(err, ErrUnexpectedAck) {
		t.Fatalf("third ack: %v", err)
	}
}

// TestEncoderNoIndexNameInsertedLater: a NoIndex field whose static name no
// entry has had is planned without a hash; when a later field of the same
// section inserts it, the first still references the new entry. The names
// of static indices 8 and 72 share a bit of the encoder's record of names.
func TestEncoderNoIndexNameInsertedLater(t *testing.T) {
	for _, ack := range []AckMode{AckImmediate, AckNever} {
		cfg := etDynamic(4096, 100)
		cfg.AckMode = ack
		e := etEncoder(cfg)
		f := []etField{{Name: ":path", Value: "/index.html"}, {Name: ":path", Value: "/index.html", Flags: fastpath.Index}}
		// The prefix and two indexed post-base lines of one byte each.
		if sec := e.AppendSection(0, nil, newEtFields(f)); len(sec) != 4 || e.InsertCount() != 1 {
			t.Fatalf("ack %d: section %x, %d inserts", ack, sec, e.InsertCount())
		}
		f = []etField{{Name: "if-modified-since", Value: "x"}, {Name: "accept-language", Value: "y", Flags: fastpath.Index},
			{Name: "if-modified-since", Value: "x", Flags: fastpath.Index}}
		if sec := e.AppendSection(4, nil, newEtFields(f)); len(sec) != 5 || e.InsertCount() != 3 {
			t.Fatalf("ack %d: section %x, %d inserts", ack, sec, e.InsertCount())
		}
	}
}

// TestEncoderRememberedStatic checks the static lines that the next
// section's field at the same position may take without a lookup: the
// same field is the one-byte static line again, but not when flagged
// never-indexed, nor a field of the same lengths with other bytes (an
// upper-case name is lowercased, and then the static line).
func TestEncoderRememberedStatic(t *testing.T) {
	e := etEncoder(etDynamic(4096, 100))
	indexed := []etField{{Name: ":method", Value: "GET"}, {Name: "accept", Value: "*/*"}}
	never := []etField{{Name: ":method", Value: "GET"}, {Name: "accept", Value: "*/*", Flags: fastpath.NeverIndex}}
	other := []etField{{Name: ":method", Value: "PUT"}, {Name: "accept", Value: "*/x"}}
	upper := []etField{{Name: ":method", Value: "GET"}, {Name: "Accept", Value: "*/*"}}
	for i, c := range []struct {
		f    []etField
		want string
	}{
		{indexed, "0000d1dd"}, {indexed, "0000d1dd"}, {never, "0000d17f0e032a2f2a"},
		{indexed, "0000d1dd"}, {other, "0200d580"}, {indexed, "0000d1dd"}, {upper, "0000d1dd"},
	} {
		if sec := e.AppendSection(uint64(4*i), nil, newEtFields(c.f)); hex.EncodeToString(sec) != c.want {
			t.Errorf("section %d: %x, want %s", i, sec, c.want)
		}
	}
}
