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

// BenchmarkHuffmanDecodeShort decodes the request's Huffman strings one by
// one, as a cold HPACK decode meets them: the 14 names and values x/net's
// encoder codes for the first section (bench/fields_test.go), 546 bytes
// of text from 1 to 133 bytes each. Per-string costs (the last bits, the
// padding check) weigh more here than in BenchmarkHuffmanDecode.
func BenchmarkHuffmanDecodeShort(b *testing.B) {
	srcs, total, want := requestHuffmanStrings()
	b.Run("impl=hqpack", func(b *testing.B) {
		dst := make([]byte, 0, total)
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			dst = decodeStrings(b, dst[:0], srcs, total)
		}
		if string(dst) != want {
			b.Fatal("hqpack decoded the wrong text")
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var buf bytes.Buffer
		buf.Grow(total)
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			xnetDecodeStrings(b, &buf, srcs)
		}
		if buf.String() != want {
			b.Fatal("x/net decoded the wrong text")
		}
	})
}

// requestHuffmanStrings returns the request's strings that a cold decode
// meets Huffman-coded (BenchmarkHuffmanDecodeShort), the length of their
// text and the text run together.
func requestHuffmanStrings() (srcs [][]byte, total int, want string) {
	var strs []string
	for _, f := range request {
		switch f.name {
		case ":method", ":scheme":
			continue // static-table fields, no string on the wire
		case "upgrade-insecure-requests", "sec-fetch-site", "sec-fetch-mode":
			strs = append(strs, f.name) // not in the static table
		}
		strs = append(strs, f.value)
	}
	for _, s := range strs {
		srcs = append(srcs, hpack.AppendHuffmanString(nil, s))
		total += len(s)
	}
	return srcs, total, strings.Join(strs, "")
}

// decodeStrings appends the decoding of each of srcs to dst with hqpack.
func decodeStrings(b *testing.B, dst []byte, srcs [][]byte, maxLen int) []byte {
	for _, src := range srcs {
		var err error
		if dst, err = wire.AppendHuffmanDecode(dst, src, maxLen); err != nil {
			b.Fatal(err)
		}
	}
	return dst
}

// xnetDecodeStrings empties buf and writes the decoding of each of srcs
// to it with x/net.
func xnetDecodeStrings(b *testing.B, buf *bytes.Buffer, srcs [][]byte) {
	buf.Reset()
	for _, src := range srcs {
		if _, err := hpack.HuffmanDecode(buf, src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHuffmanDecodeShortEvicted is BenchmarkHuffmanDecodeShort with
// the caches evicted before each iteration (evictCaches), as on a
// server's first request of a connection: the decoder's tables are no
// longer in the L1 and L2 caches. ns/op includes the eviction; the
// decoding alone is decode-ns/op.
func BenchmarkHuffmanDecodeShortEvicted(b *testing.B) {
	srcs, total, want := requestHuffmanStrings()
	b.Run("impl=hqpack", func(b *testing.B) {
		dst := make([]byte, 0, total)
		benchEvicted(b, func() {
			dst = decodeStrings(b, dst[:0], srcs, total)
		})
		if string(dst) != want {
			b.Fatal("hqpack decoded the wrong text")
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var buf bytes.Buffer
		buf.Grow(total)
		benchEvicted(b, func() {
			xnetDecodeStrings(b, &buf, srcs)
		})
		if buf.String() != want {
			b.Fatal("x/net decoded the wrong text")
		}
	})
}
