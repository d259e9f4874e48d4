// Package hpack implements HPACK, the field compression of HTTP/2
// (RFC 7541): an Encoder and a Decoder with allocation-free fast paths.
//
// # Decoding
//
// A Decoder decodes the field sections of one direction of one connection.
// Fields go to a fastpath.Sink as they are decoded, as byte slices valid
// until the Sink returns, with Flags that carry the never-indexed bit and
// the name's fastpath.FieldID (so a server can switch on a small integer
// instead of comparing strings). fastpath.SinkList is a ready Sink that
// keeps the fields. Once warm, decoding allocates nothing.
//
//	var dec hpack.Decoder // or dec.Init(hpack.DecoderConfig{...})
//	err := dec.Decode(block, sink)
//
// For a section that arrives as HEADERS and CONTINUATION frames, Write each
// fragment as it comes and End the section:
//
//	err := dec.Write(headersPayload, sink)
//	err = dec.Write(continuationPayload, sink)
//	err = dec.End()
//
// Write hands complete fields to the sink at once and keeps only the
// representation the fragment cut short, whose length prefixes it reads as
// soon as they arrive: no byte is decoded twice, and what it keeps is
// bounded by the string length limit, however the peer cuts the section.
//
// Limits (DecoderConfig): the field-section size (name + value + 32 per
// field, 64 KiB by default: our SETTINGS_MAX_HEADER_LIST_SIZE), counted as
// fields arrive, so a section of a thousand references to one large entry
// stops at the limit; the string length, checked before Huffman decoding;
// an optional cap on the number of fields. SetMaxTableSize records our
// SETTINGS_HEADER_TABLE_SIZE: Dynamic Table Size Updates above it, after a
// field, or more than two are errors, and after we lower it below the
// peer's table size, the peer's next section must start with an update.
// A section over MaxSectionSize ends the connection; a server that would
// rather answer 431 and keep it sets MaxSectionSize as a hard cap above the
// limit it advertises and has its Sink return an error past the advertised
// one: a Sink error is a stream error, and the table stays in sync
// (examples/h2server does this).
//
// Errors are *Error values, as in package qpack: a code, a sentinel for
// errors.Is and the offset in the section. The sentinels both codecs share are
// in package fastpath (fastpath.ErrInvalidIndex, ErrTruncated, ErrHuffmanEOS,
// ErrSectionTooLarge, ErrClosed, ErrInvalidFieldName, ...); those of HPACK
// alone are here (ErrSizeUpdate, and IndexError for errors.As). Both codecs
// follow one rule: an error is a stream error when the decoder's table is
// still in step with the peer's after it, else a connection error
// (Error.ConnectionError). Here a connection error is COMPRESSION_ERROR, and
// after one every call fails with fastpath.ErrClosed. In HPACK the table
// changes inside header blocks, so a block the decoder stops reading (a
// section over MaxSectionSize among them) leaves it out of step: a connection
// error. QPACK changes its table only on the encoder stream, so there the same
// limit ends only the stream. A stream error concerns one section, and the
// decoder stays usable: with DecoderConfig.Validate, a field that is malformed
// by RFC 9113 §8.2.1 or §8.3 is an *Error with ErrCodeProtocol
// (fastpath.ErrMalformedField); an error returned by the Sink is passed
// through as it is. Either way the Sink gets no more fields of that section,
// but the decoder decodes the rest of it to keep its dynamic table in sync,
// and End returns the error.
//
// # Configuration
//
// Both codecs read a zero in a Config the same way: a protocol setting
// that is zero is the protocol's initial value, and a zero limit is the
// package's default. HTTP/2 starts with a 4096-octet table (RFC 7541
// §4.2), so a zero table size here is 4096 and NoTable asks for none;
// HTTP/3 starts with none (RFC 9204 §3.2.3), so a zero capacity in package
// qpack is static-only. Zero section and string limits are 64 KiB in
// both.
//
// # Moving from golang.org/x/net/http2/hpack
//
// github.com/hqpack/hqpack/compat/xnet-hpack has x/net's API exactly
// (NewEncoder, WriteField, NewDecoder, Write, Close, DecodeFull,
// HeaderField, the Huffman functions and x/net's errors) on this package's
// Encoder and Decoder: code moves by changing its import path, and x/net's
// own http2 can use it through a copy of x/net (compat/README.md). It sends
// names as given and behaves as x/net does wherever a caller can observe
// it, except where RFC 7541 is stricter (its types list each difference).
// This package keeps its native API.
package hpack
