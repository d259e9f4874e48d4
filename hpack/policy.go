package hpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/policy"
)

// mode is the literal representation chosen for a field.
type mode uint8

const (
	withIndexing    mode = iota // RFC 7541 §6.2.1, pattern 01
	withoutIndexing             // §6.2.2, pattern 0000
	neverIndexed                // §6.2.3, pattern 0001
)

// classes maps an HPACK static index to the default policy's class of its
// name (internal/policy's one table, keyed by static.FieldID).
var classes = policy.ByHPACKIndex()

// contentLengthIndex is content-length's HPACK static index.
const contentLengthIndex = 28

// decide returns the representation of a literal field whose policy
// answer (policy.Decide) is p: content-length never enters the table, and
// an insert must fit the table it would go into (capacity), by the
// policy's own measure for the default answer. size is the field's RFC
// 7541 entry size. It and policy.Decide inline into the caller.
func decide(p fastpath.Flags, contentLength bool, size, capacity int) mode {
	switch {
	case p == fastpath.NeverIndex:
		return neverIndexed
	case contentLength, p == fastpath.NoIndex:
		return withoutIndexing
	// Inserting an entry larger than the table would only empty it.
	case p == fastpath.Index && size <= capacity, p == 0 && size <= capacity*3/4:
		return withIndexing
	}
	return withoutIndexing
}
