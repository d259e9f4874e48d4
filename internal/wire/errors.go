package wire

import "errors"

// Decoding errors. The codecs wrap them with the offset where they happened.
var (
	// ErrTruncated reports input that ends inside an integer or string.
	// A streaming decoder treats it as "need more bytes".
	ErrTruncated = errors.New("truncated input")
	// ErrIntegerOverflow reports a prefixed integer above MaxInt, or a run of
	// continuation bytes longer than any value up to MaxInt needs.
	ErrIntegerOverflow = errors.New("integer overflow")
	// ErrStringTooLong reports a string literal longer than the decoder allows.
	ErrStringTooLong = errors.New("string literal too long")
	// ErrHuffmanEOS reports the EOS symbol inside a Huffman-coded string.
	ErrHuffmanEOS = errors.New("huffman: EOS symbol in string")
	// ErrHuffmanPaddingLength reports padding longer than 7 bits.
	ErrHuffmanPaddingLength = errors.New("huffman: padding longer than 7 bits")
	// ErrHuffmanPaddingBits reports padding that is not the EOS prefix (all 1s).
	ErrHuffmanPaddingBits = errors.New("huffman: padding not all ones")
)
