package qpack

import (
	"errors"
	"fmt"
)

// ErrCode is an HTTP/3 error code (RFC 9204 §6).
type ErrCode uint64

// The QPACK error codes.
const (
	ErrCodeDecompressionFailed ErrCode = 0x200 // QPACK_DECOMPRESSION_FAILED
	ErrCodeEncoderStream       ErrCode = 0x201 // QPACK_ENCODER_STREAM_ERROR
	ErrCodeDecoderStream       ErrCode = 0x202 // QPACK_DECODER_STREAM_ERROR

	// ErrCodeMessage is HTTP/3's H3_MESSAGE_ERROR (RFC 9114 §8.1), the code
	// of a decoder's stream errors: a malformed field or a section over a
	// limit. The connection and the Decoder carry on.
	ErrCodeMessage ErrCode = 0x10e
)

// String names the code as RFC 9204 and RFC 9114 do.
func (c ErrCode) String() string {
	switch c {
	case ErrCodeDecompressionFailed:
		return "QPACK_DECOMPRESSION_FAILED"
	case ErrCodeEncoderStream:
		return "QPACK_ENCODER_STREAM_ERROR"
	case ErrCodeDecoderStream:
		return "QPACK_DECODER_STREAM_ERROR"
	case ErrCodeMessage:
		return "H3_MESSAGE_ERROR"
	}
	return fmt.Sprintf("ErrCode(%#x)", uint64(c))
}

// Causes of QPACK alone, each testable with errors.Is on the *Error a coder
// returns. The causes both codecs share (ErrTruncated, ErrInvalidIndex,
// ErrSectionTooLarge, ErrClosed, the malformed-field errors, ...) are in
// package fastpath; the Decoder's documentation says which end the
// connection.
var (
	// ErrRequiredInsertCount reports an encoded Required Insert Count that
	// cannot be decoded (RFC 9204 §4.5.1.1), or a section whose Base is invalid.
	ErrRequiredInsertCount = errors.New("invalid required insert count")
	// ErrCapacity reports a Set Dynamic Table Capacity above our maximum, or
	// an insert that does not fit the table.
	ErrCapacity = errors.New("dynamic table capacity exceeded")
	// ErrTooManyBlocked reports one blocked stream more than we allow.
	ErrTooManyBlocked = errors.New("too many blocked streams")
	// ErrBufferLimit reports unfinished stream input past the buffer bound.
	ErrBufferLimit = errors.New("unfinished instruction exceeds buffer limit")
	// ErrUnexpectedAck reports a Section Acknowledgment, Stream Cancellation or
	// Insert Count Increment that the encoder's state makes impossible.
	ErrUnexpectedAck = errors.New("unexpected decoder stream instruction")

	// ErrTooManyFields reports a section with more fields than the
	// Decoder's MaxFields; a stream error.
	ErrTooManyFields = errors.New("too many fields")

	// ErrStreamBlocked reports a section for a stream that already has one
	// held: a caller must not read further frames of a blocked stream. It is
	// returned as is, and the Decoder is unchanged.
	ErrStreamBlocked = errors.New("stream already has a blocked section")
	// ErrNoBlockedSection reports DecodeUnblocked for a stream with no held
	// section. It is returned as is, and the Decoder is unchanged.
	ErrNoBlockedSection = errors.New("no blocked section for stream")
)

// Error is a QPACK failure: the error code to send, the cause (Err, for
// errors.Is), the stream it happened on and the offset in that input.
type Error struct {
	Code     ErrCode
	StreamID uint64
	Offset   int
	Err      error
}

// Error returns "qpack: " with the code, the cause, the stream and the offset.
func (e *Error) Error() string {
	return fmt.Sprintf("qpack: %v: %v (stream %d, offset %d)", e.Code, e.Err, e.StreamID, e.Offset)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ConnectionError reports whether e ends the connection: every code but
// H3_MESSAGE_ERROR, which ends only the stream.
func (e *Error) ConnectionError() bool { return e.Code != ErrCodeMessage }
