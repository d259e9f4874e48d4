package hpack

import (
	"bytes"
	"errors"
	"io"
	"math"
	"sync"

	"github.com/hqpack/hqpack/fastpath"
	hq "github.com/hqpack/hqpack/hpack"
)

// ErrInvalidHuffman is the error for Huffman-coded data that RFC 7541 §5.2
// rejects: a code for EOS, padding longer than 7 bits, or padding that is
// not the most significant bits of EOS. HuffmanDecode,
// HuffmanDecodeToString and Decoder.Write return it as it is.
var ErrInvalidHuffman = errors.New("hpack: invalid Huffman-encoded data")

// bufPool holds the buffers HuffmanDecode and HuffmanDecodeToString decode
// into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// HuffmanDecode decodes the Huffman-coded v (RFC 7541 Appendix B) and
// writes the result to w in a single Write, returning that call's results;
// on invalid input it returns 0 and ErrInvalidHuffman without writing.
// It is safe for concurrent use.
func HuffmanDecode(w io.Writer, v []byte) (int, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := huffmanDecode(buf, 0, v); err != nil {
		return 0, err
	}
	return w.Write(buf.Bytes())
}

// HuffmanDecodeToString decodes the Huffman-coded v, or returns "" and
// ErrInvalidHuffman. It is safe for concurrent use.
func HuffmanDecodeToString(v []byte) (string, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := huffmanDecode(buf, 0, v); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// huffmanDecode appends the decoding of v to buf, with hqpack's decoder.
// With maxLen > 0, an output longer than maxLen bytes is ErrStringLength.
// (x/net's helper of the same name and signature is what its Huffman tests
// call, so they run against this one.)
func huffmanDecode(buf *bytes.Buffer, maxLen int, v []byte) error {
	if maxLen <= 0 {
		maxLen = math.MaxInt
	}
	out, err := hq.AppendHuffmanDecode(buf.AvailableBuffer(), v, maxLen)
	if err != nil {
		return huffmanError(err)
	}
	buf.Write(out)
	return nil
}

// huffmanError turns hqpack's Huffman decoding errors into x/net's.
func huffmanError(err error) error {
	if errors.Is(err, fastpath.ErrStringTooLong) {
		return ErrStringLength
	}
	return ErrInvalidHuffman
}

// AppendHuffmanString appends the Huffman coding of s to dst, padded to a
// whole byte with the most significant bits of EOS, and returns the
// extended slice. It is safe for concurrent use.
func AppendHuffmanString(dst []byte, s string) []byte {
	return hq.AppendHuffman(dst, s)
}

// HuffmanEncodeLength returns the length in bytes of s Huffman-coded: what
// AppendHuffmanString appends. It is safe for concurrent use.
func HuffmanEncodeLength(s string) uint64 {
	return uint64(hq.HuffmanLen(s))
}
