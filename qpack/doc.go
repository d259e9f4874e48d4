// Package qpack implements QPACK (RFC 9204), HTTP/3 field compression:
// an Encoder and a Decoder with static and dynamic tables, the encoder and
// decoder streams, and blocked streams, allocation-free once warm.
//
// A QPACK connection has two halves, each with its own dynamic table: the
// Encoder compresses the sections we send and fills the peer's table through
// our encoder stream; the Decoder decompresses the sections we receive,
// reading the peer's encoder stream and acknowledging on our decoder
// stream what it decoded. The caller owns the unidirectional streams and the request
// streams; this package only turns bytes into bytes. Neither half is safe
// for concurrent use.
//
// # Encoding
//
// Init an Encoder with the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY and
// SETTINGS_QPACK_BLOCKED_STREAMS and the table capacity to use (the zero
// Encoder is static-only). For each section, Plan returns its exact length
// (an HTTP/3 HEADERS frame carries its length first); the inserts it relies
// on are then pending, to be taken with AppendEncoderStream and sent on the
// encoder stream before the section. Begin and Continue write the section
// into caller buffers, whole field lines to a buffer unless one does not
// fit an empty buffer (it is then split: no field is ever dropped), and
// AppendSection does it in one call. Bytes from the peer's decoder stream go to
// ReadDecoderStream. Fields come from a fastpath.Enumerator, which can hold
// Content-Length as a number: it is written without a string.
//
// # Decoding
//
// Init a Decoder with the settings sent to the peer
// (SETTINGS_QPACK_MAX_TABLE_CAPACITY, SETTINGS_QPACK_BLOCKED_STREAMS) and
// the limits to enforce (the zero Decoder is static-only). Then:
//
//   - bytes from the peer's encoder stream go to ReadEncoderStream, in
//     pieces of any size;
//   - the payload of each HEADERS frame goes to DecodeSection with the
//     stream ID and a fastpath.Sink that receives the fields;
//   - a section that needs inserts not yet received is held (blocked is
//     true); after ReadEncoderStream, NextUnblocked names each stream whose
//     section can now be decoded, and DecodeUnblocked decodes it into that
//     request's sink;
//   - a stream reset before its sections were decoded goes to CancelStream;
//   - AppendDecoderStream returns what to write on our decoder stream:
//     Section Acknowledgments, Stream Cancellations and Insert Count
//     Increments.
//
// Names and values handed to a Sink are valid only during the call; the
// Flags carry fastpath.NeverIndex for fields sent as never-indexed and the
// fastpath.FieldID of names known to the static table (static references and
// dynamic entries alike), so a server can switch on a small integer instead
// of comparing strings.
//
// # Configuration
//
// Both codecs read a zero in a Config the same way: a protocol setting
// that is zero is the protocol's initial value, and a zero limit is the
// package's default. HTTP/3 starts with no dynamic table (RFC 9204
// §3.2.3), so a zero capacity is static-only; HTTP/2 starts with 4096
// octets, so package hpack's zero table size is 4096. Zero section and
// string limits are 64 KiB in both.
//
// # Errors
//
// Failures are *Error values carrying the HTTP/3 error code to send
// (QPACK_DECOMPRESSION_FAILED, QPACK_ENCODER_STREAM_ERROR,
// QPACK_DECODER_STREAM_ERROR), the stream, the offset and a cause testable
// with errors.Is: those both codecs share are in package fastpath
// (fastpath.ErrInvalidIndex, ErrTruncated, ErrSectionTooLarge, ErrClosed,
// ErrMalformedField, ...), those of QPACK alone here (ErrTooManyBlocked,
// ErrCapacity, ...). These are connection errors: afterwards every call fails
// with fastpath.ErrClosed. A Decoder also reports stream errors, with code
// H3_MESSAGE_ERROR, for a malformed field (when validation is on) or a section
// over a limit; after them it carries on. Error.ConnectionError tells the two
// apart. The rule is the hpack package's, with the same *Error shape: an error
// is a stream error when the decoder's table is still in step with the peer's
// after it. A QPACK table changes only on the encoder stream, so a section the
// decoder stops reading costs only its stream (in HPACK, where blocks change
// the table, the same limit ends the connection). No input makes a decoder
// panic, and decoding time is linear in the input.
//
// # quic-go/qpack
//
// github.com/quic-go/qpack supports only the static table. Code written
// against it, quic-go's HTTP/3 included, moves to hqpack with a go.mod
// replace of github.com/quic-go/qpack by the module
// github.com/hqpack/hqpack/compat/quic-go-qpack, which has quic-go/qpack's
// API (see compat/README.md).
package qpack
