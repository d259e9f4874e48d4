// Package hqpack is the root of a module for HTTP field compression: HPACK
// (RFC 7541, HTTP/2) and QPACK (RFC 9204, HTTP/3), encoders and decoders with
// allocation-free fast paths. This package holds no code; import one of:
//
//   - [github.com/hqpack/hqpack/hpack]: the HPACK encoder and decoder.
//   - [github.com/hqpack/hqpack/qpack]: the QPACK encoder and decoder.
//   - [github.com/hqpack/hqpack/fastpath]: the field enumerator encoders take
//     (with a raw numeric Content-Length), the decoder sink, digit
//     formatting and field validation, and the FieldID of each static-table
//     name, shared by both codecs (LookupField).
//
// The core packages import the standard library only.
package hqpack
