package main

import (
	"bytes"
	"io"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// The request fields of the end-to-end measurement (bench.sh): what h2load
// sends to /, and the 13 fields of a browser's navigation to /page.
var (
	h2loadRequest = []string{
		":method", "GET", ":scheme", "http", ":authority", "127.0.0.1:8080", ":path", "/",
		"user-agent", "h2load nghttp2/1.52.0",
	}
	browserRequest = []string{
		":method", "GET", ":scheme", "http", ":authority", "127.0.0.1:8080", ":path", "/page",
		"user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
		"accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
		"accept-language", "en-US,en;q=0.9",
		"accept-encoding", "gzip, deflate, br",
		"referer", "https://example.com/index.html",
		"cookie", "session=0123456789abcdef0123456789abcdef; theme=dark",
		"sec-fetch-mode", "navigate",
		"sec-fetch-site", "same-origin",
		"upgrade-insecure-requests", "1",
	}
)

// BenchmarkServerCodec is the codec's share of one request on a warm
// connection, as the server runs it: the request's section into the
// decoder and the request checks, the route, the response's section into
// HEADERS frames (written to io.Discard). Everything but the codec is the
// same code for both; the difference is what the codec costs or saves.
func BenchmarkServerCodec(b *testing.B) {
	for _, route := range []struct {
		name   string
		fields []string
	}{{"root", h2loadRequest}, {"page13x8", browserRequest}} {
		for _, codec := range codecs {
			b.Run(route.name+"/"+codec.String(), func(b *testing.B) {
				benchmarkServerCodec(b, codec, route.fields)
			})
		}
	}
}

func benchmarkServerCodec(b *testing.B, codec codecKind, fields []string) {
	// The client's blocks: the first inserts into the table, the ones
	// after it (all the same) refer to it, as on a warm connection.
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	var blocks [2][]byte
	for i := range blocks {
		buf.Reset()
		for j := 0; j < len(fields); j += 2 {
			enc.WriteField(hpack.HeaderField{Name: fields[j], Value: fields[j+1]})
		}
		blocks[i] = bytes.Clone(buf.Bytes())
	}
	srv := newServer(codec)
	dec := codec.newDecoder(&srv.cfg)
	henc := codec.newEncoder()
	fr := http2.NewFramer(io.Discard, nil)
	one := func(block []byte) {
		req := getRequest(srv.cfg.maxHeaderListSize)
		dec.begin(req)
		if err := dec.write(block); err != nil {
			b.Fatal(err)
		}
		if stream, fatal := dec.end(); stream != nil || fatal != nil {
			b.Fatal(stream, fatal)
		}
		if err := req.check(); err != nil {
			b.Fatal(err)
		}
		resp := getResponse(1)
		srv.serveHTTP(req, resp)
		putRequest(req)
		if resp.status != 200 {
			b.Fatalf("status %d", resp.status)
		}
		if err := henc.writeHeaders(fr, 1, false, 16384, resp); err != nil {
			b.Fatal(err)
		}
		putResponse(resp)
	}
	one(blocks[0])
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		one(blocks[1])
	}
}
