package hpack

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/hqpack/hqpack/internal/corpustest"
	"io"
	"math/rand"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/internal/conformance"
)

// xfield is f as x/net's HeaderField.
func xfield(f HeaderField) xhpack.HeaderField {
	return xhpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}
}

// encPair drives our Encoder and x/net's with the same calls and keeps
// each WriteField's bytes apart.
type encPair struct {
	ours             *Encoder
	xe               *xhpack.Encoder
	obuf, xbuf       bytes.Buffer
	ototal, xtotal   int
	odec, xdec       *Decoder
	ofields, xfields []HeaderField
}

func newEncPair() *encPair {
	p := &encPair{}
	p.ours, p.xe = NewEncoder(&p.obuf), xhpack.NewEncoder(&p.xbuf)
	// x/net's decoder rejects a second size update when its table is not
	// empty, which x/net's encoder writes (and RFC 7541 §4.2 allows): ours
	// decodes both.
	p.odec = NewDecoder(1<<20, func(f HeaderField) { p.ofields = append(p.ofields, f) })
	p.xdec = NewDecoder(1<<20, func(f HeaderField) { p.xfields = append(p.xfields, f) })
	return p
}

// write writes f with both, decodes both, and reports how the results
// differ, if they do.
func (p *encPair) write(t *testing.T, f HeaderField) {
	t.Helper()
	p.obuf.Reset()
	p.xbuf.Reset()
	if err := p.ours.WriteField(f); err != nil {
		t.Fatal(err)
	}
	if err := p.xe.WriteField(xfield(f)); err != nil {
		t.Fatal(err)
	}
	ob, xb := p.obuf.Bytes(), p.xbuf.Bytes()
	p.ototal += len(ob)
	p.xtotal += len(xb)
	// The size updates come first, and must be x/net's, byte for byte.
	if ou, xu := leadingUpdates(ob), leadingUpdates(xb); !bytes.Equal(ou, xu) {
		t.Fatalf("%v: size updates %x, x/net %x", f, ou, xu)
	}
	p.ofields, p.xfields = p.ofields[:0], p.xfields[:0]
	if _, err := p.odec.Write(ob); err != nil {
		t.Fatalf("%v: cannot decode ours (%x): %v", f, ob, err)
	}
	if _, err := p.xdec.Write(xb); err != nil {
		t.Fatal(err)
	}
	// Each field is a block of its own: a size update may come before any.
	if err := p.odec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.xdec.Close(); err != nil {
		t.Fatal(err)
	}
	if len(p.ofields) != 1 || len(p.xfields) != 1 || p.ofields[0] != p.xfields[0] || p.ofields[0] != f {
		t.Fatalf("wrote %v: decoded %v, x/net's decoded %v", f, p.ofields, p.xfields)
	}
}

// leadingUpdates returns the Dynamic Table Size Updates at the start of b.
func leadingUpdates(b []byte) []byte {
	i := 0
	for i < len(b) && b[i]&0xe0 == 0x20 {
		i++
		if b[i-1]&0x1f == 0x1f {
			for i < len(b) && b[i]&0x80 != 0 {
				i++
			}
			i++
		}
	}
	return b[:min(i, len(b))]
}

func (p *encPair) setSize(t *testing.T, v uint32) {
	p.ours.SetMaxDynamicTableSize(v)
	p.xe.SetMaxDynamicTableSize(v)
	p.sameSize(t, fmt.Sprintf("SetMaxDynamicTableSize(%d)", v))
}

func (p *encPair) setLimit(t *testing.T, v uint32) {
	p.ours.SetMaxDynamicTableSizeLimit(v)
	p.xe.SetMaxDynamicTableSizeLimit(v)
	p.sameSize(t, fmt.Sprintf("SetMaxDynamicTableSizeLimit(%d)", v))
}

func (p *encPair) sameSize(t *testing.T, call string) {
	t.Helper()
	if o, x := p.ours.MaxDynamicTableSize(), p.xe.MaxDynamicTableSize(); o != x {
		t.Fatalf("after %s: MaxDynamicTableSize %d, x/net %d", call, o, x)
	}
}

var encNames = []string{":method", ":path", ":status", "content-type", "content-length", "cookie",
	"authorization", "x-custom", "X-Upper", "Content-Type", "set-cookie", "a", ""}

var encValues = []string{"", "GET", "200", "/index.html", "text/html", "1234", "secret", "Value With Spaces",
	"\x00\xff binary", strings.Repeat("long ", 300)}

// TestEncoderLikeXNet drives both encoders with the same random calls:
// every field decodes to what was written, the table size updates are
// x/net's byte for byte, and MaxDynamicTableSize agrees after every call.
func TestEncoderLikeXNet(t *testing.T) {
	sizes := []uint32{0, 1, 64, 100, 256, 2048, 4095, 4096, 4097, 8192, 65536}
	for seed := range int64(200) {
		r := rand.New(rand.NewSource(seed))
		p := newEncPair()
		for range 60 {
			switch n := r.Intn(20); {
			case n == 0:
				p.setSize(t, sizes[r.Intn(len(sizes))])
			case n == 1:
				p.setLimit(t, sizes[r.Intn(len(sizes))])
			default:
				p.write(t, HeaderField{
					Name:      encNames[r.Intn(len(encNames))],
					Value:     encValues[r.Intn(len(encValues))],
					Sensitive: r.Intn(6) == 0,
				})
			}
		}
	}
}

func TestEncoderTableSizeUpdates(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if got := e.MaxDynamicTableSize(); got != 4096 {
		t.Fatalf("MaxDynamicTableSize %d, want 4096", got)
	}
	get := HeaderField{Name: ":method", Value: "GET"}
	steps := []struct {
		call func()
		size uint32
		hex  string // what the next WriteField(get) writes
	}{
		// Above the limit: stays 4096, and the update is written anyway.
		{func() { e.SetMaxDynamicTableSize(8192) }, 4096, "3fe11f82"},
		// Raising the limit does not grow the table.
		{func() { e.SetMaxDynamicTableSizeLimit(8192) }, 4096, "82"},
		{func() { e.SetMaxDynamicTableSize(8192) }, 8192, "3fe13f82"},
		// Lowering the limit below the table shrinks it.
		{func() { e.SetMaxDynamicTableSizeLimit(256) }, 256, "3fe10182"},
		// The smallest size since the last update, then the final one.
		{func() { e.SetMaxDynamicTableSize(100); e.SetMaxDynamicTableSize(200) }, 200, "3f453fa90182"},
		{func() { e.SetMaxDynamicTableSize(0) }, 0, "2082"},
	}
	for i, s := range steps {
		s.call()
		if got := e.MaxDynamicTableSize(); got != s.size {
			t.Errorf("step %d: MaxDynamicTableSize %d, want %d", i, got, s.size)
		}
		buf.Reset()
		if err := e.WriteField(get); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", buf.Bytes()); got != s.hex {
			t.Errorf("step %d: wrote %s, want %s", i, got, s.hex)
		}
	}
}

// Names go out as given, uppercase included, and Sensitive fields go out
// never indexed: x/net's decoder sees what x/net's encoder would send.
func TestEncoderNamesAndSensitive(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	fields := []HeaderField{
		{Name: "X-Upper", Value: "1"},
		{Name: "X-Upper", Value: "1"},
		{Name: "password", Value: "secret", Sensitive: true},
		{Name: "password", Value: "secret", Sensitive: true},
		{Name: ":method", Value: "GET", Sensitive: true},
	}
	for _, f := range fields {
		if err := e.WriteField(f); err != nil {
			t.Fatal(err)
		}
	}
	got, err := xhpack.NewDecoder(4096, nil).DecodeFull(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fields {
		if i >= len(got) || got[i] != xfield(f) {
			t.Fatalf("decoded %v, want %v", got, fields)
		}
	}
	// The second X-Upper is the entry the first inserted: 62, one byte.
	if !bytes.Contains(buf.Bytes(), []byte{'1', 0xbe}) {
		t.Errorf("the repeated X-Upper is not a reference to entry 62: %x", buf.Bytes())
	}
}

// request is an 8-field browser request.
var request = []HeaderField{
	{Name: ":method", Value: "GET"},
	{Name: ":scheme", Value: "https"},
	{Name: ":authority", Value: "www.example.com"},
	{Name: ":path", Value: "/search?q=hpack"},
	{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"},
	{Name: "accept", Value: "text/html,application/xhtml+xml"},
	{Name: "accept-encoding", Value: "gzip, deflate, br"},
	{Name: "cookie", Value: "sid=31d4d96e407aad42"},
}

func TestEncoderRepeatedRequest(t *testing.T) {
	p := newEncPair()
	for range 3 {
		for _, f := range request {
			p.write(t, f)
		}
	}
	t.Logf("the request 3 times: %d bytes, x/net %d", p.ototal, p.xtotal)
	if p.ototal > p.xtotal {
		t.Errorf("%d bytes, more than x/net's %d", p.ototal, p.xtotal)
	}
}

// TestEncoderStories encodes the hpack-test-case raw-data stories field by
// field, as x/net's http2 does, one encoder per story: every field decodes
// as written, and the total is no larger than x/net's.
func TestEncoderStories(t *testing.T) {
	c, err := conformance.OpenCorpus(corpustest.Dir(t, "hpack-test-case/raw-data"))
	if err != nil {
		t.Fatal(err)
	}
	stories, err := c.Stories("raw-data")
	if err != nil {
		t.Fatal(err)
	}
	var ours, theirs, fields int
	for _, s := range stories {
		if s.Err != nil {
			t.Fatal(s.Err)
		}
		p := newEncPair()
		for _, cs := range s.Story.Cases {
			for _, h := range cs.Headers {
				p.write(t, HeaderField{Name: h.Name, Value: h.Value})
				fields++
			}
		}
		ours += p.ototal
		theirs += p.xtotal
	}
	t.Logf("%d stories, %d fields: %d bytes, x/net %d (%.4f)", len(stories), fields, ours, theirs, float64(ours)/float64(theirs))
	if len(stories) < 30 || fields < 10000 {
		t.Fatalf("%d stories, %d fields: too few", len(stories), fields)
	}
	if ours > theirs {
		t.Errorf("%d bytes, more than x/net's %d", ours, theirs)
	}
}

type shortWriter struct{ err error }

func (w shortWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	return len(p) - 1, nil
}

func TestEncoderWriteErrors(t *testing.T) {
	f := HeaderField{Name: "a", Value: "b"}
	if err := NewEncoder(shortWriter{}).WriteField(f); err != io.ErrShortWrite {
		t.Errorf("short write: %v, want io.ErrShortWrite", err)
	}
	boom := errors.New("boom")
	if err := NewEncoder(shortWriter{boom}).WriteField(f); err != boom {
		t.Errorf("write error: %v, want the Writer's", err)
	}
}

func TestHeaderFieldLikeXNet(t *testing.T) {
	for _, name := range encNames {
		for _, sensitive := range []bool{false, true} {
			f := HeaderField{Name: name, Value: "v", Sensitive: sensitive}
			x := xfield(f)
			if f.String() != x.String() || f.Size() != x.Size() || f.IsPseudo() != x.IsPseudo() {
				t.Errorf("%v: String, Size or IsPseudo differ from x/net's %v", f, x)
			}
		}
	}
}
