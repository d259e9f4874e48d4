// Package hpack is a drop-in for golang.org/x/net/http2/hpack v0.58.0,
// backed by hqpack's HPACK codec (github.com/hqpack/hqpack/hpack).
//
// It has x/net's exported API, name for name and signature for signature:
// Encoder, Decoder, HeaderField, the Huffman functions, ErrStringLength,
// ErrInvalidHuffman, DecodingError and InvalidIndexError. Code that imports
// golang.org/x/net/http2/hpack moves by changing the import path to
// github.com/hqpack/hqpack/compat/xnet-hpack (the package name stays
// hpack). golang.org/x/net/http2 itself can use it through a copy of x/net
// whose http2/hpack holds this package's files (compat/README.md says how);
// net/http's own HTTP/2 uses the standard library's vendored copy of
// x/net's hpack and cannot be switched.
//
// Where a caller can observe it, it behaves as x/net does: names are sent
// and delivered as given (no lowercasing), fields marked Sensitive are sent
// never-indexed and never-indexed fields arrive Sensitive, every field that
// fits is inserted into the dynamic table, table size updates are written
// when and as x/net writes them, and errors compare as x/net's do
// (err == ErrStringLength, err == ErrInvalidHuffman, errors.As with
// DecodingError and InvalidIndexError). The Encoder and Decoder types list
// the few differences, each where hqpack keeps to RFC 7541 more strictly or
// encodes differently.
//
// This package imports only the standard library and hqpack's public
// packages, so that its files also build as golang.org/x/net/http2/hpack
// inside a copy of x/net.
package hpack
