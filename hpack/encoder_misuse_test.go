package hpack

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	xhpack "golang.org/x/net/http2/hpack"
)

// What a caller can get wrong with an Encoder, and what it then sends:
// never a panic, never a lost field. Every section goes to two peers, our
// Decoder and x/net's, piece by piece as HEADERS and CONTINUATION frames
// would carry it, and both must decode exactly the fields of the list.

// misusePeer is the decoding end of the connection.
type misusePeer struct {
	t    *testing.T
	ours *Decoder
	x    *xhpack.Decoder
	xgot []xhpack.HeaderField
}

func newMisusePeer(t *testing.T) *misusePeer {
	p := &misusePeer{t: t, ours: ourDecoder(DefaultTableSize)}
	p.x = xhpack.NewDecoder(DefaultTableSize, func(f xhpack.HeaderField) { p.xgot = append(p.xgot, f) })
	return p
}

// receive decodes one section from its pieces and checks it holds fs.
func (p *misusePeer) receive(what string, pieces [][]byte, fs []tfield) {
	p.t.Helper()
	var ours collect
	p.xgot = p.xgot[:0]
	for _, b := range pieces {
		if err := p.ours.Write(b, &ours); err != nil {
			p.t.Fatalf("%s: our decoder: %v", what, err)
		}
		if _, err := p.x.Write(b); err != nil {
			p.t.Fatalf("%s: x/net's decoder: %v", what, err)
		}
	}
	if err := p.ours.End(); err != nil {
		p.t.Fatalf("%s: our decoder: %v", what, err)
	}
	if err := p.x.Close(); err != nil {
		p.t.Fatalf("%s: x/net's decoder: %v", what, err)
	}
	want := wantFields(fs)
	if got := fmt.Sprint(plain(ours)); got != want {
		p.t.Fatalf("%s: our decoder got %.300s, want %.300s", what, got, want)
	}
	if got := fmt.Sprint(plain(p.xgot)); got != want {
		p.t.Fatalf("%s: x/net's decoder got %.300s, want %.300s", what, got, want)
	}
}

// plain drops the never-indexed bit, which the policy may add.
func plain(fs []xhpack.HeaderField) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name + ": " + f.Value
	}
	return out
}

func wantFields(fs []tfield) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		v := f.Value
		if f.Raw >= 0 {
			v = fmt.Sprint(f.Raw)
		}
		out[i] = strings.ToLower(f.Name) + ": " + v
	}
	return fmt.Sprint(out)
}

// pieces encodes the section of fields with Begin and Continue into a
// buffer of size bytes, the documented loop, and returns the pieces.
func pieces(t *testing.T, e *Encoder, fields fastpath.Enumerator, size int) [][]byte {
	t.Helper()
	buf := make([]byte, size)
	n, res := e.Begin(buf, fields)
	var out [][]byte
	for res == fastpath.MoreFields {
		out = append(out, append([]byte(nil), buf[:n]...))
		n, res = e.Continue(buf)
	}
	if res != fastpath.Done {
		t.Fatalf("%d-byte buffer: %v", size, res)
	}
	return append(out, append([]byte(nil), buf[:n]...))
}

func TestEncoderMisuse(t *testing.T) {
	request := []tfield{
		str(":method", "GET"), str(":path", "/a/b?c=d"), str(":authority", "example.com"),
		str("User-Agent", "curl/8.5.0"), str("cookie", "id=0123456789abcdef0123456789"),
		{"content-length", "", 0, 300}, str("x-custom", "value"),
	}
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	cookie := strings.Repeat("k=v; ", 8<<10)         // 40 KiB
	for _, c := range []struct {
		name string
		run  func(t *testing.T, e *Encoder, p *misusePeer)
	}{
		{"zero-value encoder", func(t *testing.T, e *Encoder, p *misusePeer) {
			var zero Encoder
			p.receive("section", pieces(t, &zero, fastList(request), 16), request)
		}},
		{"the same list twice, without Rewind", func(t *testing.T, e *Encoder, p *misusePeer) {
			l := fastList(request)
			p.receive("first", [][]byte{e.AppendSection(nil, l)}, request)
			p.receive("second", [][]byte{e.AppendSection(nil, l)}, request)
			p.receive("third", pieces(t, e, l, 20), request)
			p.receive("fourth", pieces(t, e, l, 4096), request)
		}},
		{"a list partly read", func(t *testing.T, e *Encoder, p *misusePeer) {
			l := fastList(request)
			l.Next()
			l.Next()
			p.receive("Begin", pieces(t, e, l, 10), request)
			l.Next()
			p.receive("AppendSection", [][]byte{e.AppendSection(nil, l)}, request)
		}},
		{"an empty list", func(t *testing.T, e *Encoder, p *misusePeer) {
			p.receive("Begin", pieces(t, e, fastList(nil), 16), nil)
			p.receive("AppendSection", [][]byte{e.AppendSection(nil, fastList(nil))}, nil)
			e.SetMaxTableSize(1024) // an empty section still carries the update
			p.ours.SetMaxTableSize(1024)
			p.x.SetAllowedMaxDynamicTableSize(1024)
			p.receive("with a size update", pieces(t, e, fastList(nil), 1), nil)
		}},
		{"a zero-length buffer", func(t *testing.T, e *Encoder, p *misusePeer) {
			l := fastList(request)
			if n, res := e.Begin(nil, l); n != 0 || res != fastpath.BufferTooSmall {
				t.Fatalf("Begin: %d %v", n, res)
			}
			buf := make([]byte, 8)
			var out [][]byte
			n, res := e.Continue(buf)
			for ; res == fastpath.MoreFields; n, res = e.Continue(buf) {
				out = append(out, append([]byte(nil), buf[:n]...))
				if n, res := e.Continue(nil); n != 0 || res != fastpath.BufferTooSmall {
					t.Fatalf("Continue, empty: %d %v", n, res)
				}
			}
			p.receive("section", append(out, buf[:n]), request)
		}},
		{"Continue with no section", func(t *testing.T, e *Encoder, p *misusePeer) {
			if n, res := e.Continue(make([]byte, 64)); n != 0 || res != fastpath.NoSection {
				t.Fatalf("before Begin: %d %v", n, res)
			}
			p.receive("section", pieces(t, e, fastList(request), 64), request)
			if n, res := e.Continue(make([]byte, 64)); n != 0 || res != fastpath.NoSection {
				t.Fatalf("after fastpath.Done: %d %v", n, res)
			}
		}},
		{"a 40 KiB cookie through 16 KiB frames", func(t *testing.T, e *Encoder, p *misusePeer) {
			fs := append(append([]tfield(nil), request...), str("cookie", cookie), str("x-after", "1"))
			ps := pieces(t, e, fastList(fs), 16<<10)
			if len(ps) < 3 {
				t.Fatalf("%d pieces", len(ps))
			}
			p.receive("section", ps, fs)
			p.receive("next", pieces(t, e, fastList(request), 16<<10), request)
		}},
		{"a field of 1 MiB", func(t *testing.T, e *Encoder, p *misusePeer) {
			fs := []tfield{str(":status", "200"), str("x-big", big), str("x-big-"+big[:100], "v"), {"content-length", "", 0, 1 << 20}}
			p.receive("16 KiB frames", pieces(t, e, fastList(fs), 16<<10), fs)
			// x/net's decoder takes time quadratic in a field cut into
			// pieces (it parses what it has kept again each time): 16 KiB.
			small := []tfield{str("x-big", big[:16<<10])}
			p.receive("1-byte frames", pieces(t, e, fastList(small), 1), small)
			p.receive("appended", [][]byte{e.AppendSection(nil, fastList(fs))}, fs)
		}},
		{"the list reset, moved or refilled between pieces", func(t *testing.T, e *Encoder, p *misusePeer) {
			other := []tfield{str("x-new", "entry"), str(":path", "/other")}
			for i, change := range []func(l *fastpath.FieldList){
				func(l *fastpath.FieldList) { l.Reset(); fillList(l, other) },
				func(l *fastpath.FieldList) { l.Rewind() },
				func(l *fastpath.FieldList) { l.Seek(l.Len()) },
				func(l *fastpath.FieldList) { l.Next() },
				func(l *fastpath.FieldList) { fillList(l, other) }, // added to
			} {
				l := fastList(request)
				buf := make([]byte, 4) // more than one piece, with the table warm
				if _, res := e.Begin(buf, l); res != fastpath.MoreFields {
					t.Fatalf("change %d: Begin: %v", i, res)
				}
				change(l)
				for range 2 { // the section stays unfinished, Continue after Continue
					if n, res := e.Continue(buf); n != 0 || res != fastpath.ListChanged {
						t.Fatalf("change %d: Continue: %d %v", i, n, res)
					}
				}
				// The abandoned piece went to no peer: the next section
				// decodes, and the one after it, against tables emptied.
				p.receive("after", pieces(t, e, fastList(other), 16), other)
				p.receive("and the request", pieces(t, e, fastList(request), 16), request)
			}
		}},
		{"a section abandoned", func(t *testing.T, e *Encoder, p *misusePeer) {
			p.receive("first", pieces(t, e, fastList(request), 64), request)
			// A piece written, never sent, then another section: the
			// table took fields the peer never saw.
			other := []tfield{str("x-new", "entry"), str("x-another", "one"), str(":path", "/other")}
			if _, res := e.Begin(make([]byte, 14), fastList(other)); res != fastpath.MoreFields {
				t.Fatalf("Begin: %v", res)
			}
			p.receive("after", pieces(t, e, fastList(other), 64), other)
			p.receive("and again", pieces(t, e, fastList(other), 64), other)
			p.receive("and the first", pieces(t, e, fastList(request), 64), request)
			// Abandoned before any byte: nothing to undo.
			if n, res := e.Begin(nil, fastList(other)); n != 0 || res != fastpath.BufferTooSmall {
				t.Fatalf("Begin, empty: %d %v", n, res)
			}
			p.receive("after nothing", [][]byte{e.AppendSection(nil, fastList(request))}, request)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var e Encoder
			c.run(t, &e, newMisusePeer(t))
		})
	}
}
