package wire

import "testing"

// BenchmarkHuffmanDecode measures AppendHuffmanDecode on strings like a
// request's, below the three-stream split: one stream, bound by the latency
// of its lookups (shift, shift, table load: about 7 cycles each, 2 symbols
// a lookup on such text), plus a cost per call that the short string shows.
// dst has room to spare and maxLen is large, as in a decoder.
func BenchmarkHuffmanDecode(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"short", "gzip, br"},
		{"path", "/products/widgets/item-1000?color=blue&page=1"},
		{"cookie", "session_id=9e3779b97f4a7c15c2b2ae3d27d4eb4f; theme=dark; _ga=GA1.1.1234567890.1733130000"},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := AppendHuffman(nil, c.s)
			dst := make([]byte, 0, 256)
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				var err error
				if dst, err = AppendHuffmanDecode(dst[:0], src, 1<<14); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
