package hpack

import (
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/wire"
)

// ErrCode is an HTTP/2 error code (RFC 9113 §7).
type ErrCode uint64

// The error codes of a decoder's errors (Error.Code).
const (
	// ErrCodeProtocol is PROTOCOL_ERROR, sent as a stream error (RST_STREAM,
	// RFC 9113 §8.1.1): a malformed field. The connection and the Decoder
	// carry on.
	ErrCodeProtocol ErrCode = 0x1
	// ErrCodeCompression is COMPRESSION_ERROR, a connection error: every
	// other decoding failure.
	ErrCodeCompression ErrCode = 0x9
)

// String names the code as RFC 9113 does. qpack.ErrCode is the same shape
// on purpose (one error model), over HTTP/3's codes.
func (c ErrCode) String() string {
	switch c {
	case ErrCodeProtocol:
		return "PROTOCOL_ERROR"
	case ErrCodeCompression:
		return "COMPRESSION_ERROR"
	}
	return fmt.Sprintf("ErrCode(%#x)", uint64(c))
}

// Decoding errors, each testable with errors.Is on the *Error a decoder
// returns. The wire-level ones are shared with the qpack package.
var (
	ErrTruncated            = wire.ErrTruncated
	ErrIntegerOverflow      = wire.ErrIntegerOverflow
	ErrStringTooLong        = wire.ErrStringTooLong
	ErrHuffmanEOS           = wire.ErrHuffmanEOS
	ErrHuffmanPaddingLength = wire.ErrHuffmanPaddingLength
	ErrHuffmanPaddingBits   = wire.ErrHuffmanPaddingBits

	// ErrInvalidIndex reports an index of 0 or past the static and dynamic
	// tables; the decoders report it as an *IndexError, which has the index.
	ErrInvalidIndex = errors.New("invalid index")
	// ErrSizeUpdate reports a Dynamic Table Size Update after a field, above
	// the size we allow, or missing after we lowered it (RFC 7541 §4.2, §6.3).
	ErrSizeUpdate = errors.New("invalid dynamic table size update")
	// ErrSectionTooLarge reports a field section over the size limit
	// (name + value + 32 per field, RFC 9113 SETTINGS_MAX_HEADER_LIST_SIZE),
	// or over the field-count cap.
	ErrSectionTooLarge = errors.New("field section too large")
	// ErrClosed reports use of a decoder after an earlier error: a
	// COMPRESSION_ERROR is a connection error, and the decoder stays failed.
	ErrClosed = errors.New("decoder failed earlier")
)

// Error is a decoding failure: the error code to send, what was wrong
// (Err, for errors.Is) and where (Offset, in bytes from the start of the
// field section). qpack.Error has the same shape, plus the stream.
type Error struct {
	Code   ErrCode
	Offset int
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("hpack: %v at offset %d", e.Err, e.Offset)
}

// Unwrap returns the cause, so errors.Is(err, ErrInvalidIndex) works.
func (e *Error) Unwrap() error { return e.Err }

// ConnectionError reports whether e ends the connection: every code but
// PROTOCOL_ERROR, which ends only the stream.
func (e *Error) ConnectionError() bool { return e.Code != ErrCodeProtocol }

// closedError is the cause of every call's failure after a fatal error:
// errors.Is finds both ErrClosed and the original error.
type closedError struct{ cause error }

func (e *closedError) Error() string {
	msg := e.cause.Error()
	if c, ok := e.cause.(*Error); ok {
		msg = c.Err.Error()
	}
	return ErrClosed.Error() + ": " + msg
}

func (e *closedError) Is(target error) bool { return target == ErrClosed }

func (e *closedError) Unwrap() error { return e.cause }

// Malformed-field errors, reported by a Decoder with validation on in an
// *Error with ErrCodeProtocol. They concern one section (one stream), not
// the connection: the decoder has decoded the whole section and stays
// usable. They are the qpack package's too.
var (
	// ErrMalformedField is the class of every malformed-field error.
	ErrMalformedField = field.ErrMalformedField
	// ErrInvalidFieldName reports a name that is empty, not a token, has
	// uppercase letters (RFC 9113 §8.2.1), or is an undefined pseudo-header
	// field (§8.3).
	ErrInvalidFieldName = field.ErrInvalidFieldName
	// ErrInvalidFieldValue reports a value with NUL, CR or LF, or with
	// leading or trailing whitespace (RFC 9113 §8.2.1).
	ErrInvalidFieldValue = field.ErrInvalidFieldValue
	// ErrPseudoAfterRegular reports a pseudo-header field after a regular
	// field (RFC 9113 §8.3).
	ErrPseudoAfterRegular = field.ErrPseudoAfterRegular
)
