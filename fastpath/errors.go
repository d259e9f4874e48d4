package fastpath

import (
	"errors"

	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/wire"
)

// The causes both codecs' decoders give, each testable with errors.Is on
// the *hpack.Error or *qpack.Error they return. They are defined once, here,
// because they mean the same in HPACK and QPACK; the error's Code says what
// to send, and its ConnectionError method whether the connection ends or
// only the stream (each decoder's documentation lists which cause ends
// what). Causes of one codec alone (hpack.ErrSizeUpdate, qpack.ErrCapacity,
// ...) are in that codec's package.
var (
	// ErrTruncated reports an integer or string literal cut short by the
	// end of a field section or instruction.
	ErrTruncated = wire.ErrTruncated
	// ErrIntegerOverflow reports a prefixed integer (RFC 7541 §5.1) above
	// the largest int, or with more continuation bytes than any such value
	// needs.
	ErrIntegerOverflow = wire.ErrIntegerOverflow
	// ErrStringTooLong reports a string literal over the decoder's string
	// limit.
	ErrStringTooLong = wire.ErrStringTooLong
	// ErrHuffmanEOS reports a Huffman-coded string containing the EOS
	// symbol (RFC 7541 §5.2).
	ErrHuffmanEOS = wire.ErrHuffmanEOS
	// ErrHuffmanPaddingLength reports Huffman padding longer than 7 bits.
	ErrHuffmanPaddingLength = wire.ErrHuffmanPaddingLength
	// ErrHuffmanPaddingBits reports Huffman padding that is not the most
	// significant bits of EOS (all ones).
	ErrHuffmanPaddingBits = wire.ErrHuffmanPaddingBits

	// ErrInvalidIndex reports an index that names no entry: in HPACK 0 or
	// past the static and dynamic tables (the hpack decoder's cause is an
	// *hpack.IndexError, which has the index and matches this); in QPACK a
	// static index past the table, or a dynamic index that is evicted, not
	// yet inserted, or at or past the section's Required Insert Count.
	ErrInvalidIndex = errors.New("invalid index")
	// ErrSectionTooLarge reports a field section over the decoder's size
	// limit (name + value + 32 per field, as HTTP/2's
	// SETTINGS_MAX_HEADER_LIST_SIZE and HTTP/3's
	// SETTINGS_MAX_FIELD_SECTION_SIZE count it); hpack also reports a
	// section over its field-count cap with it (qpack: ErrTooManyFields). It
	// ends the connection in HPACK (COMPRESSION_ERROR: the decoder
	// stops reading mid-section, so its table may be out of sync) and only
	// the stream in QPACK (H3_MESSAGE_ERROR).
	ErrSectionTooLarge = errors.New("field section too large")
	// ErrClosed reports use of a decoder or encoder after an earlier
	// connection error: it stays failed, and every later call returns an
	// error that matches both ErrClosed and the first error's cause.
	ErrClosed = errors.New("closed by an earlier connection error")

	// ErrMalformedField is the class of the malformed-field errors below,
	// reported by a decoder with validation on (RFC 9113 §8.2.1, §8.3;
	// RFC 9114 §4.2, §4.3): each matches it with errors.Is. They are
	// stream errors: hpack reports them with PROTOCOL_ERROR, qpack with
	// H3_MESSAGE_ERROR; the decoder has decoded the whole section and stays
	// usable.
	ErrMalformedField = field.ErrMalformedField
	// ErrInvalidFieldName reports a name that is empty, not a token, has
	// uppercase letters, or is an undefined pseudo-header field.
	ErrInvalidFieldName = field.ErrInvalidFieldName
	// ErrInvalidFieldValue reports a value with NUL, CR or LF, or with
	// leading or trailing whitespace.
	ErrInvalidFieldValue = field.ErrInvalidFieldValue
	// ErrPseudoAfterRegular reports a pseudo-header field after a regular
	// field.
	ErrPseudoAfterRegular = field.ErrPseudoAfterRegular
)
