package hpack

import "github.com/hqpack/hqpack/internal/wire"

// HuffmanLen returns the length in bytes of s Huffman-coded with the code
// of RFC 7541 Appendix B (HPACK's, which QPACK shares).
func HuffmanLen(s string) int { return wire.HuffmanLen(s) }

// AppendHuffman appends the Huffman coding of s to dst, padded with 1s to a
// whole byte, and returns the extended slice: HuffmanLen(s) bytes more.
func AppendHuffman(dst []byte, s string) []byte { return wire.AppendHuffman(dst, s) }

// AppendHuffmanDecode appends the decoding of the Huffman-coded src to dst
// and returns the extended slice. It fails with fastpath.ErrStringTooLong
// once the output would pass maxLen bytes, with fastpath.ErrHuffmanEOS
// when src holds the EOS symbol, and with fastpath.ErrHuffmanPaddingLength
// or fastpath.ErrHuffmanPaddingBits when src does not end in at most 7
// bits of 1s (RFC 7541 §5.2). On error the returned slice has dst's
// length. It allocates only when dst lacks the capacity for the output.
func AppendHuffmanDecode(dst, src []byte, maxLen int) ([]byte, error) {
	return wire.AppendHuffmanDecode(dst, src, maxLen)
}
