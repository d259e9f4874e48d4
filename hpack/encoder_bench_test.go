package hpack

import (
	"bytes"
	"strconv"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
)

// BenchmarkEncodeResponse encodes the 7-field response of the issue (plus a
// request id) on a warm encoder: hqpack with a raw Content-Length, x/net
// with strconv.Itoa as a server does today.
func BenchmarkEncodeResponse(b *testing.B) {
	b.Run("impl=hqpack", func(b *testing.B) {
		var l fastpath.FieldList
		var e Encoder
		dst := make([]byte, 4096)
		b.ReportAllocs()
		for b.Loop() {
			response(&l)
			e.Begin(dst, &l)
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var buf bytes.Buffer
		e := xhpack.NewEncoder(&buf)
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			e.WriteField(xhpack.HeaderField{Name: ":status", Value: "200"})
			e.WriteField(xhpack.HeaderField{Name: "content-type", Value: "text/html; charset=utf-8"})
			e.WriteField(xhpack.HeaderField{Name: "content-length", Value: strconv.Itoa(1024)})
			e.WriteField(xhpack.HeaderField{Name: "date", Value: "Mon, 21 Oct 2013 20:13:21 GMT"})
			e.WriteField(xhpack.HeaderField{Name: "server", Value: "hqpack"})
			e.WriteField(xhpack.HeaderField{Name: "cache-control", Value: "private, max-age=0"})
			e.WriteField(xhpack.HeaderField{Name: "vary", Value: "Accept-Encoding"})
			e.WriteField(xhpack.HeaderField{Name: "x-request-id", Value: "f058ebd6-02f7-4d3f-942e-904344e8cde5"})
		}
	})
}

// BenchmarkEncodeCorpus encodes raw-data story 00-30 sections, one encoder
// per story, default policy.
func BenchmarkEncodeCorpus(b *testing.B) {
	stories := rawStories(b)[:31]
	var lists [][]*fastpath.FieldList
	for _, s := range stories {
		var ls []*fastpath.FieldList
		for _, c := range s {
			l := new(fastpath.FieldList)
			fill(l, c)
			ls = append(ls, l)
		}
		lists = append(lists, ls)
	}
	dst := make([]byte, 0, 1<<16)
	var e Encoder
	b.ReportAllocs()
	for b.Loop() {
		for _, ls := range lists {
			e.Init(Config{})
			for _, l := range ls {
				l.Rewind()
				dst = e.AppendSection(dst[:0], l)
			}
		}
	}
}
