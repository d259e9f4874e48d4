package hpack

import (
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/wire"
)

// ErrCodeCompression is the HTTP/2 error code for every decoding failure:
// COMPRESSION_ERROR (RFC 9113 §7).
const ErrCodeCompression = 0x9

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

// Error is a decoding failure: what was wrong (Err, for errors.Is) and
// where (Offset, in bytes from the start of the field section).
type Error struct {
	Offset int
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("hpack: %v at offset %d", e.Err, e.Offset)
}

// Unwrap returns the cause, so errors.Is(err, ErrInvalidIndex) works.
func (e *Error) Unwrap() error { return e.Err }

// Code returns the HTTP/2 error code to send: COMPRESSION_ERROR.
func (e *Error) Code() uint64 { return ErrCodeCompression }

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

// ErrCodeProtocol is the HTTP/2 error code for a malformed field section:
// PROTOCOL_ERROR, sent as a stream error (RFC 9113 §8.1.1).
const ErrCodeProtocol = 0x1

// Malformed-field errors, reported by a Decoder with validation on. They
// concern one section (one stream), not the connection: the decoder has
// decoded the whole section and stays usable.
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

// FieldError is a malformed field: where it starts (Offset, in bytes from
// the start of the section) and what was wrong (Err, which matches
// ErrMalformedField with errors.Is).
type FieldError struct {
	Offset int
	Err    error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("hpack: %v at offset %d", e.Err, e.Offset)
}

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// Code returns the HTTP/2 error code to reset the stream with:
// PROTOCOL_ERROR.
func (e *FieldError) Code() uint64 { return ErrCodeProtocol }
