package hpack

import (
	"errors"
	"fmt"
)

// A HeaderField is one name-value pair of a field section. Name and Value
// are opaque octets: the Encoder sends them as they are, and the Decoder
// delivers them as they arrived. A HeaderField is a plain value, safe to
// copy and to share between goroutines.
type HeaderField struct {
	Name, Value string

	// Sensitive marks a field the encoder must send as never indexed (RFC
	// 7541 §7.1.3), so that no intermediary compresses it either; the
	// decoder sets it on fields that arrived never indexed.
	Sensitive bool
}

// IsPseudo reports whether the name starts with a colon, as HTTP/2
// pseudo-header fields' names do. It does not check that the name is one
// of the defined pseudo-header fields.
func (hf HeaderField) IsPseudo() bool {
	return len(hf.Name) != 0 && hf.Name[0] == ':'
}

// String formats the field for logs, marking a sensitive one.
func (hf HeaderField) String() string {
	var suffix string
	if hf.Sensitive {
		suffix = " (sensitive)"
	}
	return fmt.Sprintf("header field %q = %q%s", hf.Name, hf.Value, suffix)
}

// Size returns the field's size as a dynamic table entry (RFC 7541 §4.1):
// the lengths of name and value plus 32. It wraps for fields of 4 GiB and
// more, which the wire cannot carry.
func (hf HeaderField) Size() uint32 {
	return uint32(len(hf.Name) + len(hf.Value) + 32)
}

// A DecodingError is a field section that RFC 7541 calls a decoding error:
// a malformed representation, a reference to no table entry (Err is then
// an InvalidIndexError), a misplaced or oversized table size update, or a
// section that ended inside a field. It is a value, safe to copy and share.
//
// Where x/net's Err holds errors of its own, this package's holds the
// hqpack *hpack.Error that describes the failure and where it happened,
// for errors.Is against hqpack's sentinels (hpack.ErrSizeUpdate,
// fastpath.ErrTruncated, ...).
type DecodingError struct {
	Err error
}

// Error says "decoding error: " and what Err says.
func (de DecodingError) Error() string {
	return fmt.Sprintf("decoding error: %v", de.Err)
}

// An InvalidIndexError is an index that names no entry: 0, or past the end
// of the dynamic table. The Decoder returns it inside a DecodingError. It
// is a value, safe to copy and share.
type InvalidIndexError int

// Error names the index.
func (e InvalidIndexError) Error() string {
	return fmt.Sprintf("invalid indexed representation index %d", int(e))
}

// ErrStringLength is the error Decoder.Write returns, as it is (not
// wrapped), for a name or value longer than SetMaxStringLength allows,
// before or after Huffman decoding.
var ErrStringLength = errors.New("hpack: string too long")
