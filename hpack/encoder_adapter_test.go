package hpack

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
)

var adapterFields = []HeaderField{
	{Name: ":status", Value: "200"},
	{Name: "content-type", Value: "text/plain"},
	{Name: "content-length", Value: "12"},
	{Name: "set-cookie", Value: "a=b", Sensitive: true},
	{Name: "x-custom", Value: "one"},
	{Name: "x-custom", Value: "one"},
	{Name: "Mixed-Case", Value: "v"},
}

// XEncoder writes what x/net's Encoder would mean: x/net's decoder reads
// the same fields from both.
func TestXEncoderLikeXNet(t *testing.T) {
	var ours, theirs bytes.Buffer
	oe, xe := NewEncoder(&ours), xhpack.NewEncoder(&theirs)
	for _, f := range adapterFields {
		if err := oe.WriteField(f); err != nil {
			t.Fatal(err)
		}
		xe.WriteField(xhpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
	}
	got, err := xhpack.NewDecoder(4096, nil).DecodeFull(ours.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want, err := xhpack.NewDecoder(4096, nil).DecodeFull(theirs.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// x/net sends names as given; we lowercase them.
	want[len(want)-1].Name = "mixed-case"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-x/net +ours):\n%s", diff)
	}
}

func TestXEncoderTableSize(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if got := e.MaxDynamicTableSize(); got != 4096 {
		t.Fatalf("MaxDynamicTableSize %d", got)
	}
	e.SetMaxDynamicTableSize(8192) // above the limit: stays 4096
	if got := e.MaxDynamicTableSize(); got != 4096 {
		t.Errorf("after SetMaxDynamicTableSize(8192): %d", got)
	}
	e.SetMaxDynamicTableSizeLimit(256)
	if got := e.MaxDynamicTableSize(); got != 256 {
		t.Errorf("after SetMaxDynamicTableSizeLimit(256): %d", got)
	}
	e.WriteField(HeaderField{Name: ":method", Value: "GET"})
	if got := hex.EncodeToString(buf.Bytes()); got != "3fe10182" {
		t.Errorf("got %s, want the update to 256, then 82", got)
	}
	buf.Reset()
	e.SetMaxDynamicTableSize(100)
	e.WriteField(HeaderField{Name: ":method", Value: "GET"})
	e.WriteField(HeaderField{Name: ":method", Value: "GET"})
	if got := hex.EncodeToString(buf.Bytes()); got != "3f458282" {
		t.Errorf("got %s, want one update to 100", got)
	}
}

type shortWriter struct{ err error }

func (w shortWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	return len(p) - 1, nil
}

func TestXEncoderWriteErrors(t *testing.T) {
	if err := NewEncoder(shortWriter{}).WriteField(HeaderField{Name: "a", Value: "b"}); err != io.ErrShortWrite {
		t.Errorf("short write: %v", err)
	}
	boom := errors.New("boom")
	if err := NewEncoder(shortWriter{boom}).WriteField(HeaderField{Name: "a", Value: "b"}); err != boom {
		t.Errorf("write error: %v", err)
	}
}

func TestHeaderFieldLikeXNet(t *testing.T) {
	for _, f := range adapterFields {
		x := xhpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}
		if f.String() != x.String() || f.Size() != x.Size() || f.IsPseudo() != x.IsPseudo() {
			t.Errorf("%v: String/Size/IsPseudo differ from x/net's %v", f, x)
		}
	}
}

// Our decoder's flags go back into our encoder unchanged: never indexed
// stays never indexed, whatever the policy.
func TestEncoderReencodeOurFlags(t *testing.T) {
	var l fastpath.FieldList
	l.Add("password", "secret", fastpath.NeverIndex)
	l.Add("x-public", "data", 0)
	block := New(Config{}).AppendSection(nil, &l)
	var d Decoder
	var got fastpath.SinkList
	if err := d.Decode(block, &got); err != nil {
		t.Fatal(err)
	}
	var again fastpath.FieldList
	for i := range got.Len() {
		n, v, f := got.At(i)
		again.Add(string(n), string(v), f)
	}
	block = New(Config{Indexing: IndexAll}).AppendSection(nil, &again)
	fields, err := xhpack.NewDecoder(4096, nil).DecodeFull(block)
	if err != nil {
		t.Fatal(err)
	}
	if !fields[0].Sensitive || fields[1].Sensitive {
		t.Errorf("after re-encoding: %v", fields)
	}
}
