package qpack

import (
	"bytes"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	quicqpack "github.com/quic-go/qpack"
)

// etRequest is a 13-field request.
func etRequest(l *fastpath.FieldList) {
	l.Reset()
	l.Add(":method", "GET", 0)
	l.Add(":scheme", "https", 0)
	l.Add(":authority", "www.example.com", 0)
	l.Add(":path", "/static/app.js?v=42", 0)
	l.Add("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", 0)
	l.Add("accept", "*/*", 0)
	l.Add("accept-language", "en-US,en;q=0.5", 0)
	l.Add("accept-encoding", "gzip, deflate, br", 0)
	l.Add("referer", "https://www.example.com/", 0)
	l.Add("sec-fetch-dest", "script", 0)
	l.Add("sec-fetch-mode", "no-cors", 0)
	l.Add("cookie", "session=0123456789abcdef0123456789abcdef", 0)
	l.Add("te", "trailers", 0)
}

func BenchmarkEncoderResponse(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  EncoderConfig
	}{
		{"static", EncoderConfig{}},
		{"dynamic4096", EncoderConfig{MaxTableCapacity: 4096, TableCapacity: 4096, MaxBlockedStreams: 100, AckMode: AckImmediate}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := etEncoder(bc.cfg)
			var l fastpath.FieldList
			buf := make([]byte, 0, 512)
			es := make([]byte, 0, 512)
			b.ReportAllocs()
			for i := range b.N {
				etResponse(&l, int64(i&1023))
				buf = e.AppendSection(uint64(i)*4, buf[:0], &l)
				es = e.AppendEncoderStream(es[:0])
			}
		})
	}
}

func BenchmarkEncoderRequest(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  EncoderConfig
	}{
		{"static", EncoderConfig{}},
		{"dynamic4096", EncoderConfig{MaxTableCapacity: 4096, TableCapacity: 4096, MaxBlockedStreams: 100, AckMode: AckImmediate}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := etEncoder(bc.cfg)
			var l fastpath.FieldList
			etRequest(&l)
			buf := make([]byte, 0, 512)
			es := make([]byte, 0, 512)
			b.ReportAllocs()
			for i := range b.N {
				l.Rewind()
				buf = e.AppendSection(uint64(i)*4, buf[:0], &l)
				es = e.AppendEncoderStream(es[:0])
			}
		})
	}
}

func BenchmarkQuicGoEncoderResponse(b *testing.B) {
	var buf bytes.Buffer
	e := quicqpack.NewEncoder(&buf)
	b.ReportAllocs()
	for i := range b.N {
		buf.Reset()
		e.WriteField(quicqpack.HeaderField{Name: ":status", Value: "200"})
		e.WriteField(quicqpack.HeaderField{Name: "content-type", Value: "text/html; charset=utf-8"})
		e.WriteField(quicqpack.HeaderField{Name: "content-length", Value: itoa(int64(i & 1023))})
		e.WriteField(quicqpack.HeaderField{Name: "date", Value: "Fri, 01 Dec 2017 02:47:59 GMT"})
		e.WriteField(quicqpack.HeaderField{Name: "server", Value: "hqpack"})
		e.WriteField(quicqpack.HeaderField{Name: "cache-control", Value: "private, max-age=0"})
		e.WriteField(quicqpack.HeaderField{Name: "x-request-id", Value: "0123456789abcdef"})
		e.Close()
	}
}
