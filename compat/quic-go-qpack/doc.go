// Package qpack is a drop-in for github.com/quic-go/qpack v0.6.0, backed by
// hqpack: the same exported names and behavior, with hqpack's static table
// and Huffman code underneath. A module that uses quic-go's HTTP/3 switches
// with go.mod lines, and no code changes:
//
//	replace github.com/quic-go/qpack => github.com/hqpack/hqpack/compat/quic-go-qpack v0.0.0-...
//
// Like quic-go/qpack, it uses the static table only: the Encoder needs no
// encoder stream and the Decoder advertises no dynamic table. For QPACK
// with a dynamic table, use the package github.com/hqpack/hqpack/qpack.
//
// The Encoder writes the bytes quic-go's writes. The Decoder keeps no
// state, so one Decoder may serve every stream of a connection from many
// goroutines at once, as quic-go's HTTP/3 uses it; it decodes what
// quic-go's decodes, field by field, with the same errors (io.EOF at the
// end of a section, io.ErrUnexpectedEOF for a truncated one), and fewer
// allocations: the strings of one section share one allocation.
//
// It differs from quic-go/qpack in three places a caller can see:
//   - a section prefix with the sign bit set and Delta Base 0 (a negative
//     Base, RFC 9204 §4.5.1.2) is an error; quic-go ignores the sign bit;
//   - invalid Huffman data is errInvalidHuffman, with the text of
//     golang.org/x/net/http2/hpack's ErrInvalidHuffman but not that
//     variable (this module imports nothing outside hqpack);
//   - after an error, every later call of a DecodeFunc returns that error
//     again (quic-go's may return io.EOF after some).
package qpack
