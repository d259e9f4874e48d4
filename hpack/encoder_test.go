package hpack

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

type rfcExample struct {
	ID           string `json:"id"`
	FreshContext bool   `json:"fresh_context"`
	Huffman      bool   `json:"huffman"`
	Settings     struct {
		HeaderTableSize int `json:"header_table_size"`
	} `json:"settings"`
	Headers []struct {
		Name       string `json:"name"`
		Value      string `json:"value"`
		NeverIndex bool   `json:"never_index"`
	} `json:"headers"`
	WireHex         string `json:"wire_hex"`
	Representations []struct {
		Kind string `json:"kind"`
	} `json:"representations"`
	DynamicTableAfter []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
		Size  int    `json:"size"`
	} `json:"dynamic_table_after"`
	DynamicTableSizeAfter int `json:"dynamic_table_size_after"`
}

func loadRFC7541(t testing.TB) []rfcExample {
	t.Helper()
	b, err := os.ReadFile("testdata/rfc7541.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Examples []rfcExample }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Examples) != 16 {
		t.Fatalf("%d examples, want C.2.1 to C.6.3 (16)", len(doc.Examples))
	}
	return doc.Examples
}

// TestEncoderRFC7541 encodes every example of RFC 7541 Appendix C byte for
// byte, with the index-everything policy, and checks the dynamic table.
func TestEncoderRFC7541(t *testing.T) {
	var e *Encoder
	for _, ex := range loadRFC7541(t) {
		if ex.FreshContext {
			c := Config{
				TableLimit:       ex.Settings.HeaderTableSize,
				InitialTableSize: ex.Settings.HeaderTableSize,
				Huffman:          fastpath.HuffmanNever,
				Indexing:         fastpath.IndexAll,
			}
			if ex.Huffman {
				c.Huffman = fastpath.HuffmanAlways
			}
			e = newEncoder(c)
		}
		var l fastpath.FieldList
		for i, h := range ex.Headers {
			var f fastpath.Flags
			switch {
			case h.NeverIndex:
				f = fastpath.NeverIndex
			case ex.Representations[i].Kind == "literal_without_indexing":
				f = fastpath.NoIndex
			}
			l.Add(h.Name, h.Value, f)
		}
		got := hex.EncodeToString(e.AppendSection(nil, &l))
		if got != ex.WireHex {
			t.Errorf("%s:\n got %s\nwant %s", ex.ID, got, ex.WireHex)
		}
		var want []tentry
		for _, d := range ex.DynamicTableAfter {
			want = append(want, tentry{d.Name, d.Value})
		}
		if diff := cmp.Diff(want, entries(e)); diff != "" {
			t.Errorf("%s: table (-want +got):\n%s", ex.ID, diff)
		}
		if size, _ := e.TableSize(); size != ex.DynamicTableSizeAfter {
			t.Errorf("%s: table size %d, want %d", ex.ID, size, ex.DynamicTableSizeAfter)
		}
	}
}

// kind names the representation a one-field block starts with.
func kind(b []byte) string {
	for len(b) > 0 && b[0]&0xe0 == 0x20 {
		_, n, err := wire.ReadInt(b, 5)
		if err != nil {
			return "bad size update"
		}
		b = b[n:]
	}
	switch {
	case len(b) == 0:
		return "empty"
	case b[0]&0x80 != 0:
		return "indexed"
	case b[0]&0xc0 == 0x40:
		return "with"
	case b[0]&0xf0 == 0x10:
		return "never"
	}
	return "without"
}

func TestEncoderDefaultPolicy(t *testing.T) {
	long := strings.Repeat("x", 3073-32-5) // x-big: entry size 3073, over 3/4 of 4096
	tests := []struct {
		f          tfield
		kind       string
		inserted   bool
		size       int // table size for the encoder; 0 means the default
		tableAfter int
	}{
		{f: str(":method", "GET"), kind: "indexed"},
		{f: str(":status", "200"), kind: "indexed"},
		{f: str(":status", "302"), kind: "with", inserted: true},
		{f: str("custom", "v"), kind: "with", inserted: true},
		{f: str("content-type", "text/html"), kind: "with", inserted: true},
		{f: str(":path", "/index.php"), kind: "without"},
		{f: str("age", "1"), kind: "without"},
		{f: str("content-length", "1024"), kind: "without"},
		{f: str("etag", `"x"`), kind: "without"},
		{f: str("if-modified-since", "x"), kind: "without"},
		{f: str("if-none-match", "x"), kind: "without"},
		{f: str("location", "/x"), kind: "without"},
		{f: str("set-cookie", "a=b"), kind: "without"},
		{f: str("authorization", "Basic xyz"), kind: "never"},
		{f: str("cookie", "short=1"), kind: "never"},
		{f: str("cookie", "long-enough-cookie=1"), kind: "with", inserted: true},
		{f: str("x-big", long), kind: "without"},
		{f: str("x-big", long[:len(long)-1]), kind: "with", inserted: true},
		{f: str("custom", "v"), kind: "without", size: NoTable},
		{f: str("custom", strings.Repeat("v", 192-32-6)), kind: "with", size: 256, inserted: true},
		{f: str("custom", strings.Repeat("v", 192-32-6+1)), kind: "without", size: 256},
		// Flags override the policy.
		{f: tfield{"custom", "v", fastpath.NoIndex, -1}, kind: "without"},
		{f: tfield{"custom", "v", fastpath.NeverIndex, -1}, kind: "never"},
		{f: tfield{":method", "GET", fastpath.NeverIndex, -1}, kind: "never"},
		{f: tfield{":method", "GET", fastpath.NoIndex, -1}, kind: "indexed"},
		{f: tfield{"authorization", "x", fastpath.Index, -1}, kind: "with", inserted: true},
		{f: tfield{"authorization", "x", fastpath.NoIndex, -1}, kind: "without"},
		{f: tfield{":path", "/a", fastpath.Index, -1}, kind: "with", inserted: true},
		{f: tfield{"x-big", long, fastpath.Index, -1}, kind: "with", inserted: true},
		{f: tfield{"x-big", long, fastpath.Index, -1}, kind: "without", size: 256},
		// Content-length never enters the table, raw or not, whatever the flags.
		{f: tfield{"content-length", "1", fastpath.Index, -1}, kind: "without"},
		{f: tfield{"content-length", "", 0, 7}, kind: "without"},
		{f: tfield{"content-length", "", fastpath.NeverIndex, 7}, kind: "never"},
	}
	for _, tt := range tests {
		e := newEncoder(Config{TableLimit: tt.size})
		e.SetMaxTableSize(uint32(configSize(tt.size)))
		var l *fastpath.FieldList
		if tt.f.Raw >= 0 {
			l = new(fastpath.FieldList)
			l.AddContentLength(tt.f.Raw)
			if tt.f.Flags != 0 {
				// A raw Content-Length with other flags: only via a custom
				// enumerator.
				l = nil
			}
		}
		var block []byte
		if l != nil {
			block = e.AppendSection(nil, l)
		} else {
			block = e.AppendSection(nil, &rawFlags{f: tt.f})
		}
		if got := kind(block); got != tt.kind {
			t.Errorf("%v (table %d): %s, want %s", tt.f, tt.size, got, tt.kind)
		}
		if got := len(entries(e)) == 1; got != tt.inserted {
			t.Errorf("%v (table %d): inserted %v, want %v", tt.f, tt.size, got, tt.inserted)
		}
	}
}

// rawFlags enumerates one field, which may be a raw Content-Length with any
// flags (fastpath.FieldList always gives it NoIndex).
type rawFlags struct {
	f    tfield
	done bool
}

func (r *rawFlags) Next() bool {
	ok := !r.done
	r.done = true
	return ok
}

func (r *rawFlags) Field() (string, string, fastpath.Flags) {
	if r.f.Raw >= 0 {
		return "content-length", "", r.f.Flags
	}
	return r.f.Name, r.f.Value, r.f.Flags
}

func (r *rawFlags) ContentLength() (int64, bool) { return r.f.Raw, r.f.Raw >= 0 }

func TestEncoderContentLengthBytes(t *testing.T) {
	tests := []struct {
		n       int64
		huffman fastpath.HuffmanPolicy
		want    string
	}{
		{1024, fastpath.HuffmanNever, "0f0d0431303234"},
		{0, fastpath.HuffmanNever, "0f0d0130"},
		{0, fastpath.HuffmanAuto, "0f0d0130"},   // 5 bits: no shorter
		{0, fastpath.HuffmanAlways, "0f0d8107"}, // '0' is 00000, padded with 1s
		{1024, fastpath.HuffmanAuto, "0f0d83" + hex.EncodeToString(xhpack.AppendHuffmanString(nil, "1024"))},
		{math.MaxInt64, fastpath.HuffmanNever, "0f0d13" + hex.EncodeToString([]byte("9223372036854775807"))},
	}
	for _, tt := range tests {
		for _, raw := range []bool{true, false} {
			e := newEncoder(Config{Huffman: tt.huffman})
			var l fastpath.FieldList
			if raw {
				l.AddContentLength(tt.n)
			} else {
				l.Add("Content-Length", strconv.FormatInt(tt.n, 10), 0)
			}
			if got := hex.EncodeToString(e.AppendSection(nil, &l)); got != tt.want {
				t.Errorf("content-length %d, %v, raw %v: %s, want %s", tt.n, tt.huffman, raw, got, tt.want)
			}
		}
	}
}

func TestEncoderIndexPreference(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	// A static exact match wins; a name shared with the static table uses
	// the static index even when the dynamic table has the name.
	var l fastpath.FieldList
	l.Add("cache-control", "private", 0)  // with indexing, name 24: 58 07 ...
	l.Add("cache-control", "private", 0)  // dynamic exact: be
	l.Add("cache-control", "no-cache", 0) // name 24 again, not 62/63
	l.Add("x-a", "1", 0)                  // literal name
	l.Add("x-a", "2", 0)                  // dynamic name: x-a 1, the newest entry (62)
	l.Add("x-a", "1", 0)                  // dynamic exact: x-a 1 is now 63
	got := hex.EncodeToString(e.AppendSection(nil, &l))
	want := "5807" + hex.EncodeToString([]byte("private")) +
		"be" +
		"5808" + hex.EncodeToString([]byte("no-cache")) +
		"4003" + hex.EncodeToString([]byte("x-a")) + "0131" +
		"7e" + "0132" + // 62, the newest
		"bf" // 63
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestEncoderLowercase(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add("X-Custom-Header", "Value", 0)
	l.Add("Content-Type", "text/html", 0)
	l.Add("x-custom-header", "Value", 0) // same entry as the first
	block := e.AppendSection(nil, &l)
	dec := xhpack.NewDecoder(4096, nil)
	got, err := dec.DecodeFull(block)
	if err != nil {
		t.Fatal(err)
	}
	want := []xhpack.HeaderField{
		{Name: "x-custom-header", Value: "Value"},
		{Name: "content-type", Value: "text/html"},
		{Name: "x-custom-header", Value: "Value"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]tentry{{"content-type", "text/html"}, {"x-custom-header", "Value"}}, entries(e)); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	if block[len(block)-1] != 0x80|63 {
		t.Errorf("third field not indexed: % x", block)
	}
}

func TestEncoderNeverIndexedStays(t *testing.T) {
	e := newEncoder(Config{})
	var l fastpath.FieldList
	l.Add("password", "secret", fastpath.NeverIndex)
	l.Add("authorization", "Bearer abc", 0)      // the default policy
	l.Add("cookie", "sid=1", 0)                  // short cookie
	l.Add(":method", "GET", fastpath.NeverIndex) // not as the static entry
	l.Add("password", "secret", fastpath.NeverIndex)
	dec := xhpack.NewDecoder(4096, nil)
	got, err := dec.DecodeFull(e.AppendSection(nil, &l))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if !f.Sensitive {
			t.Errorf("%v: not never-indexed", f)
		}
	}
	if len(entries(e)) != 0 {
		t.Errorf("sensitive fields in the table: %v", entries(e))
	}
	// Decode with x/net and encode again: sensitive stays sensitive.
	var again fastpath.FieldList
	for _, f := range got {
		var flags fastpath.Flags
		if f.Sensitive {
			flags = fastpath.NeverIndex
		}
		again.Add(f.Name, f.Value, flags)
	}
	second, err := xhpack.NewDecoder(4096, nil).DecodeFull(newEncoder(Config{Indexing: fastpath.IndexAll}).AppendSection(nil, &again))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, second); diff != "" {
		t.Errorf("re-encoded (-first +second):\n%s", diff)
	}
}

func TestEncoderSizeUpdates(t *testing.T) {
	field := func() *fastpath.FieldList {
		var l fastpath.FieldList
		l.Add(":method", "GET", 0)
		return &l
	}
	tests := []struct {
		name  string
		c     Config
		steps func(e *Encoder)
		want  string // the section's bytes before the field (82)
	}{
		{"default", Config{}, func(*Encoder) {}, ""},
		{"limit below initial", Config{TableLimit: 256}, func(*Encoder) {}, "3fe101"},
		{"no table", Config{TableLimit: NoTable}, func(*Encoder) {}, "20"},
		{"initial 256", Config{TableLimit: 256, InitialTableSize: 256}, func(*Encoder) {}, ""},
		{"peer lowers", Config{}, func(e *Encoder) { e.SetMaxTableSize(1024) }, "3fe107"},
		{"peer raises, limit holds", Config{}, func(e *Encoder) { e.SetMaxTableSize(8192) }, ""},
		{"peer raises, limit allows", Config{TableLimit: 16384}, func(e *Encoder) { e.SetMaxTableSize(8192) }, "3fe13f"},
		{"down and back up", Config{}, func(e *Encoder) { e.SetMaxTableSize(0); e.SetMaxTableSize(4096) }, "203fe11f"},
		{"down twice", Config{}, func(e *Encoder) { e.SetMaxTableSize(100); e.SetMaxTableSize(50) }, "3f13"},
		{"down, up, down", Config{}, func(e *Encoder) {
			e.SetMaxTableSize(100)
			e.SetMaxTableSize(4000)
			e.SetMaxTableSize(200)
		}, "3f453fa901"},
		{"peer lowers above our limit", Config{TableLimit: 1024}, func(e *Encoder) {
			e.SetMaxTableSize(1024) // the first section signals 1024 anyway
		}, "3fe107"},
		{"own limit", Config{}, func(e *Encoder) { e.SetTableLimit(0) }, "20"},
	}
	for _, tt := range tests {
		e := newEncoder(tt.c)
		tt.steps(e)
		got := hex.EncodeToString(e.AppendSection(nil, field()))
		if got != tt.want+"82" {
			t.Errorf("%s: %s, want %s82", tt.name, got, tt.want)
		}
		// Signaled once only.
		if got := hex.EncodeToString(e.AppendSection(nil, field())); got != "82" {
			t.Errorf("%s: second section %s, want 82", tt.name, got)
		}
	}
}

func TestEncoderSizeUpdateEvicts(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add("x-a", "1", 0) // 36
	l.Add("x-b", "2", 0) // 36
	e.AppendSection(nil, &l)
	// Down to 40 and back up: x-a is gone, x-b stays, for the decoder too.
	e.SetMaxTableSize(40)
	e.SetMaxTableSize(4096)
	l.Reset()
	l.Add("x-a", "1", 0)
	l.Add("x-b", "2", 0)
	block := e.AppendSection(nil, &l)
	// 3f09 (40), 3fe11f (4096), x-a as a new literal with indexing, x-b
	// (now at 63) indexed.
	want := "3f093fe11f" + "4003" + hex.EncodeToString([]byte("x-a")) + "0131" + "bf"
	if got := hex.EncodeToString(block); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// x/net's decoder agrees.
	dec := xhpack.NewDecoder(4096, nil)
	l.Reset()
	l.Add("x-a", "1", 0)
	l.Add("x-b", "2", 0)
	if _, err := dec.DecodeFull(newEncoder(Config{}).AppendSection(nil, &l)); err != nil {
		t.Fatal(err)
	}
	if _, err := xdecode(dec, block, 4096); err != nil {
		t.Error(err)
	}
}

// A size change between Begin and Continue waits for the next section.
func TestEncoderSizeChangeMidSection(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add("x-a", "1", 0)
	l.Add("x-b", "2", 0)
	dst := make([]byte, 8)
	n, res := e.Begin(dst, &l)
	if res != fastpath.MoreFields || n != 7 {
		t.Fatalf("Begin: %d %v", n, res)
	}
	e.SetMaxTableSize(0)
	n, res = e.Continue(dst)
	if res != fastpath.Done || hex.EncodeToString(dst[:n]) != "4003782d620132" {
		t.Fatalf("Continue: % x %v", dst[:n], res)
	}
	if got := len(entries(e)); got != 2 {
		t.Errorf("%d entries, want 2", got)
	}
	l.Rewind()
	if got := hex.EncodeToString(e.AppendSection(nil, &l)); got != "20"+"0003782d610131"+"0003782d620132" {
		t.Errorf("next section %s", got)
	}
}

func TestEncoderFraming(t *testing.T) {
	fs := []tfield{
		str(":status", "200"), str("content-type", "text/html; charset=utf-8"),
		{"content-length", "", fastpath.NoIndex, 1024}, str("date", "Mon, 21 Oct 2013 20:13:21 GMT"),
		str("server", "hqpack"), str("x-long", strings.Repeat("abc", 60)), str("vary", "accept-encoding"),
	}
	ref := newEncoder(Config{TableLimit: 256})
	ref.SetMaxTableSize(256)
	want := ref.AppendSection(nil, fastList(fs))
	us, err := units(want)
	if err != nil {
		t.Fatal(err)
	}
	for size := 0; size <= len(want)+8; size++ {
		e := newEncoder(Config{TableLimit: 256})
		e.SetMaxTableSize(256)
		l := fastList(fs)
		dst := make([]byte, size)
		var out []byte
		n, res := e.Begin(dst, l)
		if size == 0 {
			// Nothing fits an empty buffer; the section waits for one.
			if n != 0 || res != fastpath.BufferTooSmall {
				t.Fatalf("size 0: %d %v", n, res)
			}
			dst = make([]byte, len(want))
			n, res = e.Continue(dst)
		}
		for {
			off := len(out)
			out = append(out, dst[:n]...)
			if !bytes.HasPrefix(want, out) {
				t.Fatalf("size %d: output diverges: % x", size, out)
			}
			// A piece ends between fields, or is full and cuts a field
			// that does not fit an empty buffer; it starts where the last
			// one ended.
			if end := len(out); !onBoundary(us, end) {
				if u := unitAround(us, end); n != len(dst) || u.end-u.start <= len(dst) {
					t.Fatalf("size %d: piece [%d,%d) cuts a %d-byte field", size, off, end, u.end-u.start)
				}
			}
			if res != fastpath.MoreFields {
				break
			}
			if n == 0 {
				t.Fatalf("size %d: fastpath.MoreFields with nothing written", size)
			}
			if next := unitAt(us, len(out)); onBoundary(us, len(out)) && n+next.end-next.start <= len(dst) {
				t.Fatalf("size %d: fastpath.MoreFields but the next field (%d bytes) fits", size, next.end-next.start)
			}
			n, res = e.Continue(dst)
		}
		if res != fastpath.Done || !bytes.Equal(out, want) {
			t.Fatalf("size %d: %v, % x, want % x", size, res, out, want)
		}
		if diff := cmp.Diff(stateOf(ref), stateOf(e)); diff != "" {
			t.Fatalf("size %d: state (-append +framed):\n%s", size, diff)
		}
		if n, res := e.Continue(dst); n != 0 || res != fastpath.NoSection {
			t.Fatalf("size %d: Continue after fastpath.Done: %d %v", size, n, res)
		}
	}
}

// unitAround returns the unit that off falls inside of.
func unitAround(us []unit, off int) unit {
	for _, u := range us {
		if u.start < off && off < u.end {
			return u
		}
	}
	return unit{off, off}
}

func onBoundary(us []unit, off int) bool {
	if off == 0 {
		return true
	}
	for _, u := range us {
		if u.end == off {
			return true
		}
	}
	return false
}

func unitAt(us []unit, off int) unit {
	for _, u := range us {
		if u.start == off {
			return u
		}
	}
	return unit{off, off}
}

// An empty section carries the pending size updates alone, split when
// they do not fit.
func TestEncoderEmptySection(t *testing.T) {
	e := newEncoder(Config{})
	e.SetMaxTableSize(1024)
	var l fastpath.FieldList
	dst := make([]byte, 3)
	if n, res := e.Begin(dst[:2], &l); n != 2 || res != fastpath.MoreFields || hex.EncodeToString(dst[:n]) != "3fe1" {
		t.Fatalf("2-byte buffer: % x %v", dst[:n], res)
	}
	if n, res := e.Continue(dst); res != fastpath.Done || hex.EncodeToString(dst[:n]) != "07" {
		t.Fatalf("then: % x %v", dst[:n], res)
	}
	if n, res := e.Begin(nil, &l); n != 0 || res != fastpath.Done {
		t.Fatalf("empty: %d %v", n, res)
	}
}

// A field that does not fit leaves no trace: an encoder that tried and
// failed and one that never tried go on identically.
func TestEncoderNoTrace(t *testing.T) {
	fs := []tfield{str("x-first", "1"), str("x-second", strings.Repeat("2", 40)), str("x-third", "3")}
	for _, pending := range []bool{false, true} {
		a, b := newEncoder(Config{}), newEncoder(Config{})
		if pending {
			a.SetMaxTableSize(100)
			b.SetMaxTableSize(100)
		}
		la, lb := fastList(fs), fastList(fs)
		dst := make([]byte, 12)
		if n, res := a.Begin(dst[:0], la); n != 0 || res != fastpath.BufferTooSmall {
			t.Fatalf("pending %v: Begin: %d %v", pending, n, res)
		}
		if diff := cmp.Diff(tableOf(b), tableOf(a)); diff != "" {
			t.Fatalf("pending %v: after fastpath.BufferTooSmall (-untouched +tried):\n%s", pending, diff)
		}
		n, res := a.Continue(dst) // x-first fits, x-second does not
		if res != fastpath.MoreFields {
			t.Fatalf("pending %v: Continue: %d %v", pending, n, res)
		}
		nb, _ := b.Begin(dst[:n], lb)
		if nb != n {
			t.Fatalf("pending %v: %d vs %d bytes", pending, nb, n)
		}
		if la.Pos() != 1 || lb.Pos() != 1 {
			t.Fatalf("pending %v: positions %d, %d", pending, la.Pos(), lb.Pos())
		}
		if diff := cmp.Diff(stateOf(b), stateOf(a)); diff != "" {
			t.Fatalf("pending %v: after fastpath.MoreFields (-untouched +tried):\n%s", pending, diff)
		}
		ra := a.AppendSection(nil, fastList(fs))
		rb := b.AppendSection(nil, fastList(fs))
		if !bytes.Equal(ra, rb) {
			t.Fatalf("pending %v: next sections differ:\n% x\n% x", pending, ra, rb)
		}
	}
}

func TestEncoderZeroValue(t *testing.T) {
	var e Encoder
	var l fastpath.FieldList
	l.Add("x-custom", "value", 0)
	l.Add("authorization", "secret", 0)
	got := e.AppendSection(nil, &l)
	l.Rewind()
	if want := newEncoder(Config{}).AppendSection(nil, &l); !bytes.Equal(got, want) {
		t.Errorf("zero Encoder: % x, want % x", got, want)
	}
	if got := e.maxTableSize(); got != DefaultTableSize {
		t.Errorf("MaxTableSize %d", got)
	}
}
