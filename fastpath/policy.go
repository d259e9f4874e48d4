package fastpath

import "github.com/hqpack/hqpack/internal/wire"

// HuffmanPolicy says when an encoder Huffman-codes a string literal: the
// type the hpack and qpack encoders take, named here so that their users
// need not import an internal package.
type HuffmanPolicy = wire.Huffman

// The Huffman policies.
const (
	// HuffmanAuto codes a string only when that is strictly shorter.
	HuffmanAuto = wire.HuffmanAuto
	// HuffmanAlways codes every string.
	HuffmanAlways = wire.HuffmanAlways
	// HuffmanNever sends every string as raw octets.
	HuffmanNever = wire.HuffmanNever
)
