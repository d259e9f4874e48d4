package bench

import (
	"github.com/hqpack/hqpack/internal/wire"
	"math"
	"strconv"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// digitValues spreads Content-Length values over the digit counts a
// server sends: empty bodies, small pages, larger files, the maximum.
var digitValues = []int64{0, 9, 299, 1024, 65536, 1234567, math.MaxInt64}

// BenchmarkAppendDigits formats every value of digitValues once per
// iteration, with hqpack's AppendDigits and with strconv.AppendInt.
func BenchmarkAppendDigits(b *testing.B) {
	buf := make([]byte, 0, 32)
	b.Run("impl=hqpack", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range digitValues {
				buf = wire.AppendDigits(buf[:0], uint64(v))
			}
		}
	})
	b.Run("impl=strconv", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range digitValues {
				buf = strconv.AppendInt(buf[:0], v, 10)
			}
		}
	})
}

// BenchmarkAppendHuffmanDigits Huffman-codes every value of digitValues
// once per iteration: hqpack codes the digits straight from the number,
// x/net formats the string and then codes it (what a string-path encoder
// does).
func BenchmarkAppendHuffmanDigits(b *testing.B) {
	buf := make([]byte, 0, 32)
	var digits []byte
	b.Run("impl=hqpack", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range digitValues {
				buf = wire.AppendHuffmanDigits(buf[:0], uint64(v))
			}
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range digitValues {
				digits = strconv.AppendInt(digits[:0], v, 10)
				buf = hpack.AppendHuffmanString(buf[:0], string(digits))
			}
		}
	})
}
