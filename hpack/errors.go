package hpack

import (
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
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

// Decoding causes of HPACK alone, each testable with errors.Is on the
// *Error a decoder returns. The causes both codecs share (ErrTruncated,
// ErrInvalidIndex, ErrSectionTooLarge, ErrClosed, the malformed-field
// errors, ...) are in package fastpath; the Decoder's documentation says
// which end the connection.
var (
	// ErrSizeUpdate reports a Dynamic Table Size Update after a field, above
	// the size we allow, or missing after we lowered it (RFC 7541 §4.2, §6.3).
	ErrSizeUpdate = errors.New("invalid dynamic table size update")
)

// Error is a decoding failure: the error code to send, what was wrong
// (Err, for errors.Is) and where (Offset, in bytes from the start of the
// field section). qpack.Error has the same shape, plus the stream.
type Error struct {
	Code   ErrCode
	Offset int
	Err    error
}

// Error returns "hpack: " with the cause and the offset.
func (e *Error) Error() string { return fmt.Sprintf("hpack: %v at offset %d", e.Err, e.Offset) }

// Unwrap returns the cause, so errors.Is(err, fastpath.ErrInvalidIndex) works.
func (e *Error) Unwrap() error { return e.Err }

// ConnectionError reports whether e ends the connection: every code but
// PROTOCOL_ERROR, which ends only the stream.
func (e *Error) ConnectionError() bool { return e.Code != ErrCodeProtocol }

// closedError is the cause of every call's failure after a fatal error:
// errors.Is finds both fastpath.ErrClosed and the original error.
type closedError struct{ cause error }

func (e *closedError) Error() string {
	msg := e.cause.Error()
	if c, ok := e.cause.(*Error); ok {
		msg = c.Err.Error()
	}
	return fastpath.ErrClosed.Error() + ": " + msg
}

func (e *closedError) Is(target error) bool { return target == fastpath.ErrClosed }

func (e *closedError) Unwrap() error { return e.cause }

// IndexError is the cause a decoder gives for an index that names no entry
// (RFC 7541 §2.3.3): 0, or past the static and dynamic tables. errors.Is
// matches it with fastpath.ErrInvalidIndex, and errors.As finds it in the
// *Error a decoder returns.
type IndexError struct {
	// Index is the index the field line referenced: the entry of an
	// Indexed Header Field, or the name of a literal.
	Index uint64
}

// Error says "invalid index" and the index.
func (e *IndexError) Error() string { return fmt.Sprintf("%v %d", fastpath.ErrInvalidIndex, e.Index) }

// Unwrap returns fastpath.ErrInvalidIndex.
func (e *IndexError) Unwrap() error { return fastpath.ErrInvalidIndex }
