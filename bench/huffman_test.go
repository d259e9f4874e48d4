package bench

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/internal/wire"
	"golang.org/x/net/http2/hpack"
)

// huffmanText is about 1 KiB of header values (user-agent, accept, cookie,
// dates, paths, ...) run together, one file line per value.
func huffmanText(b *testing.B) string {
	data, err := os.ReadFile("testdata/header_values.txt")
	if err != nil {
		b.Fatal(err)
	}
	return strings.ReplaceAll(string(data), "\n", "")
}

// Both benchmarks count the header text's bytes (not the shorter coded
// form), so MB/s is text encoded or decoded per second.

func BenchmarkHuffmanEncode(b *testing.B) {
	text := huffmanText(b)
	dst := make([]byte, 0, 2*len(text))
	b.Run("impl=hqpack", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			dst = wire.AppendHuffman(dst[:0], text)
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			dst = hpack.AppendHuffmanString(dst[:0], text)
		}
	})
}

func BenchmarkHuffmanDecode(b *testing.B) {
	text := huffmanText(b)
	src := hpack.AppendHuffmanString(nil, text)
	b.Run("impl=hqpack", func(b *testing.B) {
		dst := make([]byte, 0, len(text))
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			var err error
			dst, err = wire.AppendHuffmanDecode(dst[:0], src, len(text))
			if err != nil {
				b.Fatal(err)
			}
		}
		if string(dst) != text {
			b.Fatal("hqpack decoded the wrong text")
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var buf bytes.Buffer
		buf.Grow(len(text))
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if _, err := hpack.HuffmanDecode(&buf, src); err != nil {
				b.Fatal(err)
			}
		}
		if buf.String() != text {
			b.Fatal("x/net decoded the wrong text")
		}
	})
}
