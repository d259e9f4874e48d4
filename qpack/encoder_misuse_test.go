package qpack

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	quicqpack "github.com/quic-go/qpack"
)

// What a caller can get wrong with an Encoder, and what it then sends:
// never a panic, never a lost field. Each section goes, with the encoder
// stream before it, to our Decoder (whose decoder stream goes back), and
// when the encoder is static-only to quic-go's decoder too.

// misuseConn is an encoder and the decoder at the other end.
type misuseConn struct {
	t      *testing.T
	e      *Encoder
	d      Decoder
	static bool
}

func newMisuseConn(t *testing.T, e *Encoder, cfg EncoderConfig) *misuseConn {
	c := &misuseConn{t: t, e: e, static: cfg.TableCapacity == 0}
	c.d.Init(DecoderConfig{MaxTableCapacity: cfg.MaxTableCapacity, MaxBlockedStreams: cfg.MaxBlockedStreams, MaxSectionSize: 1 << 30})
	return c
}

// receive delivers the encoder stream and the section on stream, then
// checks the section holds fs and hands the decoder stream back.
func (c *misuseConn) receive(what string, stream uint64, section []byte, fs []etField) {
	c.t.Helper()
	if err := c.d.ReadEncoderStream(c.e.AppendEncoderStream(nil)); err != nil {
		c.t.Fatalf("%s: encoder stream: %v", what, err)
	}
	s := codectest.Recorder{NoIDs: true}
	if blocked, err := c.d.DecodeSection(stream, section, &s); blocked || err != nil {
		c.t.Fatalf("%s: blocked %v, %v", what, blocked, err)
	}
	want := muWant(fs)
	if got := muString(s.Fields); got != want {
		c.t.Fatalf("%s: decoded %.300s, want %.300s", what, got, want)
	}
	if err := c.e.ReadDecoderStream(c.d.AppendDecoderStream(nil)); err != nil {
		c.t.Fatalf("%s: decoder stream: %v", what, err)
	}
	if !c.static {
		return
	}
	next := quicqpack.NewDecoder().Decode(section)
	var q []codectest.Field
	for {
		hf, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.t.Fatalf("%s: quic-go: %v", what, err)
		}
		q = append(q, codectest.Field{Name: hf.Name, Value: hf.Value})
	}
	if got := muString(q); got != want {
		c.t.Fatalf("%s: quic-go decoded %.300s, want %.300s", what, got, want)
	}
}

func muWant(fs []etField) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		if f.Raw {
			out[i] = fmt.Sprintf("content-length: %d", f.CL)
		} else {
			out[i] = strings.ToLower(f.Name) + ": " + f.Value
		}
	}
	return fmt.Sprint(out)
}

func muString(fs []codectest.Field) string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name + ": " + f.Value
	}
	return fmt.Sprint(out)
}

// muList is fs as a FieldList, raw Content-Lengths kept raw.
func muList(fs []etField) *fastpath.FieldList {
	var l fastpath.FieldList
	for _, f := range fs {
		if f.Raw {
			l.AddContentLength(f.CL)
		} else {
			l.Add(f.Name, f.Value, f.Flags)
		}
	}
	return &l
}

// muPieces encodes the section with Begin and Continue into a buffer of
// size bytes, the documented loop, and returns the pieces joined.
func muPieces(t *testing.T, e *Encoder, stream uint64, fields fastpath.Enumerator, size int) []byte {
	t.Helper()
	buf := make([]byte, size)
	n, res := e.Begin(stream, buf, fields)
	var out []byte
	for res == fastpath.MoreFields {
		out = append(out, buf[:n]...)
		n, res = e.Continue(buf)
	}
	if res != fastpath.Done {
		t.Fatalf("%d-byte buffer: %v", size, res)
	}
	return append(out, buf[:n]...)
}

func TestEncoderMisuse(t *testing.T) {
	request := []etField{
		{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/a/b?c=d"}, {Name: ":authority", Value: "example.com"},
		{Name: "User-Agent", Value: "curl/8.5.0"}, {Name: "cookie", Value: "id=0123456789abcdef0123456789"},
		{Raw: true, CL: 300}, {Name: "x-custom", Value: "value"},
	}
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	cookie := strings.Repeat("k=v; ", 8<<10)         // 40 KiB
	cases := []struct {
		name string
		run  func(t *testing.T, c *misuseConn)
	}{
		{"the same list twice, without Rewind", func(t *testing.T, c *misuseConn) {
			l := muList(request)
			c.receive("first", 0, c.e.AppendSection(0, nil, l), request)
			c.receive("second", 4, c.e.AppendSection(4, nil, l), request)
			c.receive("third", 8, muPieces(t, c.e, 8, l, 20), request)
			c.e.Plan(12, l)
			c.receive("planned", 12, c.e.AppendPlanned(nil), request)
		}},
		{"a list partly read", func(t *testing.T, c *misuseConn) {
			l := muList(request)
			l.Next()
			l.Next()
			c.receive("Begin", 0, muPieces(t, c.e, 0, l, 10), request)
			l.Next()
			c.receive("AppendSection", 4, c.e.AppendSection(4, nil, l), request)
		}},
		{"an empty list", func(t *testing.T, c *misuseConn) {
			c.receive("Begin", 0, muPieces(t, c.e, 0, muList(nil), 16), nil)
			c.receive("AppendSection", 4, c.e.AppendSection(4, nil, muList(nil)), nil)
		}},
		{"a zero-length buffer", func(t *testing.T, c *misuseConn) {
			if n, res := c.e.Begin(0, nil, muList(request)); n != 0 || res != fastpath.BufferTooSmall {
				t.Fatalf("Begin: %d %v", n, res)
			}
			c.receive("section", 0, muPieces(t, c.e, 0, muList(request), 8), request)
		}},
		{"Continue with no section", func(t *testing.T, c *misuseConn) {
			if n, res := c.e.Continue(make([]byte, 64)); n != 0 || res != fastpath.NoSection {
				t.Fatalf("before Begin: %d %v", n, res)
			}
			c.receive("section", 0, muPieces(t, c.e, 0, muList(request), 64), request)
			if n, res := c.e.Continue(make([]byte, 64)); n != 0 || res != fastpath.NoSection {
				t.Fatalf("after fastpath.Done: %d %v", n, res)
			}
		}},
		{"a 40 KiB cookie through 16 KiB buffers", func(t *testing.T, c *misuseConn) {
			fs := append(append([]etField(nil), request...), etField{Name: "cookie", Value: cookie}, etField{Name: "x-after", Value: "1"})
			c.receive("section", 0, muPieces(t, c.e, 0, muList(fs), 16<<10), fs)
			c.receive("next", 4, muPieces(t, c.e, 4, muList(request), 16<<10), request)
		}},
		{"a field of 1 MiB", func(t *testing.T, c *misuseConn) {
			fs := []etField{{Name: ":status", Value: "200"}, {Name: "x-big", Value: big}, {Name: "x-big-" + big[:100], Value: "v"}, {Raw: true, CL: 1 << 20}}
			c.receive("16 KiB buffers", 0, muPieces(t, c.e, 0, muList(fs), 16<<10), fs)
			small := []etField{{Name: "x-big", Value: big[:64<<10]}}
			c.receive("1-byte buffers", 4, muPieces(t, c.e, 4, muList(small), 1), small)
			c.receive("appended", 8, c.e.AppendSection(8, nil, muList(fs)), fs)
		}},
		{"the list reset, moved or refilled between pieces", func(t *testing.T, c *misuseConn) {
			// Begin plans the whole section: the pieces that follow write
			// the fields as they were, whatever became of the list.
			other := []etField{{Name: "x-new", Value: "entry"}, {Name: ":path", Value: "/other"}}
			for i, change := range []func(l *fastpath.FieldList){
				func(l *fastpath.FieldList) {
					l.Reset()
					l.Add(other[0].Name, other[0].Value, 0)
					l.Add(other[1].Name, other[1].Value, 0)
				},
				func(l *fastpath.FieldList) { l.Rewind() },
				func(l *fastpath.FieldList) { l.Seek(1) },
			} {
				l := muList(request)
				buf := make([]byte, 6)
				n, res := c.e.Begin(uint64(4*i), buf, l)
				if res != fastpath.MoreFields {
					t.Fatalf("change %d: Begin: %v", i, res)
				}
				change(l)
				out := append([]byte(nil), buf[:n]...)
				for res == fastpath.MoreFields {
					n, res = c.e.Continue(buf)
					out = append(out, buf[:n]...)
				}
				c.receive(fmt.Sprint("change ", i), uint64(4*i), out, request)
			}
		}},
		{"a section abandoned", func(t *testing.T, c *misuseConn) {
			c.receive("first", 0, muPieces(t, c.e, 0, muList(request), 64), request)
			other := []etField{{Name: "x-new", Value: "entry"}, {Name: "x-another", Value: "one"}, {Name: ":path", Value: "/other"}}
			if _, res := c.e.Begin(4, make([]byte, 6), muList(other)); res != fastpath.MoreFields {
				t.Fatalf("Begin: %v", res)
			}
			// Never sent: the stream is reset, and the decoder says so.
			if err := c.d.CancelStream(4); err != nil {
				t.Fatal(err)
			}
			c.receive("after", 8, muPieces(t, c.e, 8, muList(other), 64), other)
			c.receive("and the first", 12, muPieces(t, c.e, 12, muList(request), 64), request)
		}},
	}
	for _, cfg := range []EncoderConfig{
		{},
		{MaxTableCapacity: 4096, MaxBlockedStreams: 100, TableCapacity: 4096},
		{MaxTableCapacity: 4096, MaxBlockedStreams: 0, TableCapacity: 4096, Indexing: fastpath.IndexAll},
	} {
		for _, zero := range []bool{true, false} {
			if zero && cfg.TableCapacity != 0 {
				continue // only a static-only encoder has a zero value
			}
			for _, c := range cases {
				name := fmt.Sprintf("capacity %d blocked %d %v", cfg.TableCapacity, cfg.MaxBlockedStreams, cfg.Indexing)
				if zero {
					name = "zero value"
				}
				t.Run(name+"/"+c.name, func(t *testing.T) {
					var e Encoder
					if !zero {
						e.Init(cfg)
					}
					c.run(t, newMisuseConn(t, &e, cfg))
				})
			}
		}
	}
}
