package hpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// response is a server's typical response section, with a raw
// Content-Length.
func response(l *fastpath.FieldList) {
	l.Reset()
	l.Add(":status", "200", 0)
	l.Add("content-type", "text/html; charset=utf-8", 0)
	l.AddContentLength(1024)
	l.Add("date", "Mon, 21 Oct 2013 20:13:21 GMT", 0)
	l.Add("server", "hqpack", 0)
	l.Add("cache-control", "private, max-age=0", 0)
	l.Add("vary", "Accept-Encoding", 0)
	l.Add("X-Request-Id", "f058ebd6-02f7-4d3f-942e-904344e8cde5", 0) // lowercased on the way
}

func TestEncoderAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	var l fastpath.FieldList
	response(&l)
	for _, c := range []Config{
		{Huffman: fastpath.HuffmanAuto}, {Huffman: fastpath.HuffmanAlways}, {Huffman: fastpath.HuffmanNever},
		{TableLimit: NoTable}, // literals every time
	} {
		e := newEncoder(c)
		dst := make([]byte, 16384)
		e.Begin(dst, &l) // warm: table entries, scratch
		begin := testing.AllocsPerRun(100, func() {
			l.Rewind()
			if _, res := e.Begin(dst, &l); res != fastpath.Done {
				t.Fatal(res)
			}
		})
		appendSection := testing.AllocsPerRun(100, func() {
			l.Rewind()
			dst = e.AppendSection(dst[:0], &l)
		})
		small := make([]byte, 40) // fastpath.MoreFields, then Continue
		framedRun := testing.AllocsPerRun(100, func() {
			l.Rewind()
			_, res := e.Begin(small, &l)
			for res == fastpath.MoreFields {
				_, res = e.Continue(small)
			}
		})
		if begin != 0 || appendSection != 0 || framedRun != 0 {
			t.Errorf("%+v: allocs per section: Begin %v, AppendSection %v, Begin/Continue %v; want 0",
				c, begin, appendSection, framedRun)
		}
	}
}
