package hpack

import (
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
)

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
