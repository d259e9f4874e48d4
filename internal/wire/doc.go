// Package wire holds the wire primitives that HPACK (RFC 7541) and QPACK
// (RFC 9204) share: prefixed integers (RFC 7541 §5.1), string literals with
// the H flag (§5.2) and the canonical Huffman code (Appendix B).
//
// Everything here is append-style and allocation-free: encoders append to a
// caller's slice, decoders return values and lengths, and errors are the
// sentinels below, compared with errors.Is.
package wire
