package hpack

import (
	"bytes"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	xhpack "golang.org/x/net/http2/hpack"
)

// decRequest is a browser's request, as in the bench/ comparisons.
var decRequest = [][2]string{
	{":method", "GET"},
	{":scheme", "https"},
	{":authority", "www.example.com"},
	{":path", "/assets/app.3f9a2c.js?v=2"},
	{"user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"},
	{"accept", "*/*"},
	{"accept-language", "en-US,en;q=0.5"},
	{"accept-encoding", "gzip, deflate, br, zstd"},
	{"referer", "https://www.example.com/"},
	{"cookie", "session=8f2d1c0e9b7a6f5e4d3c2b1a; theme=dark; _ga=GA1.2.1234567890.1700000000"},
	{"sec-fetch-dest", "script"},
	{"sec-fetch-mode", "no-cors"},
	{"sec-fetch-site", "same-origin"},
}

// decBench returns the request encoded by x/net twice on one connection:
// cold (literals that enter the table), then warm (indexed).
func decBench(tb testing.TB) [][]byte {
	tb.Helper()
	var buf bytes.Buffer
	enc := xhpack.NewEncoder(&buf)
	var out [][]byte
	for range 2 {
		buf.Reset()
		for _, f := range decRequest {
			if err := enc.WriteField(xhpack.HeaderField{Name: f[0], Value: f[1]}); err != nil {
				tb.Fatal(err)
			}
		}
		out = append(out, bytes.Clone(buf.Bytes()))
	}
	return out
}

// BenchmarkDecode decodes the request cold (fresh table each time) and
// warm (every field indexed) into a SinkList.
func BenchmarkDecode(b *testing.B) {
	blocks := decBench(b)
	b.Run("cold", func(b *testing.B) {
		var d Decoder
		list := fastpath.NewSinkList(64, 16<<10)
		b.SetBytes(int64(len(blocks[0])))
		b.ReportAllocs()
		for b.Loop() {
			d.Init(DecoderConfig{})
			if err := d.Decode(blocks[0], list); err != nil {
				b.Fatal(err)
			}
			list.Reset()
		}
	})
	b.Run("warm", func(b *testing.B) {
		var d Decoder
		list := fastpath.NewSinkList(64, 16<<10)
		if err := d.Decode(blocks[0], list); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(blocks[1])))
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Decode(blocks[1], list); err != nil {
				b.Fatal(err)
			}
			list.Reset()
		}
	})
	b.Run("warm-nop", func(b *testing.B) {
		// Into a sink that keeps nothing, as x/net's emit below.
		var d Decoder
		if err := d.Decode(blocks[0], codectest.Discard{}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(blocks[1])))
		b.ReportAllocs()
		for b.Loop() {
			if err := d.Decode(blocks[1], codectest.Discard{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm-bytewise", func(b *testing.B) {
		var d Decoder
		list := fastpath.NewSinkList(64, 16<<10)
		if err := d.Decode(blocks[0], list); err != nil {
			b.Fatal(err)
		}
		w := blocks[1]
		b.SetBytes(int64(len(w)))
		b.ReportAllocs()
		for b.Loop() {
			for i := range w {
				if err := d.Write(w[i:i+1], list); err != nil {
					b.Fatal(err)
				}
			}
			if err := d.End(); err != nil {
				b.Fatal(err)
			}
			list.Reset()
		}
	})
	b.Run("xnet-warm", func(b *testing.B) {
		d := xhpack.NewDecoder(4096, func(f xhpack.HeaderField) {})
		if _, err := d.Write(blocks[0]); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(blocks[1])))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := d.Write(blocks[1]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("xnet-cold", func(b *testing.B) {
		emit := func(f xhpack.HeaderField) {}
		b.SetBytes(int64(len(blocks[0])))
		b.ReportAllocs()
		for b.Loop() {
			d := xhpack.NewDecoder(4096, emit)
			if _, err := d.Write(blocks[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
