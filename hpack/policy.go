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

// decide returns the representation of a literal field under x: its flags,
// the class of its static name (policy.Plain if none), whether it is
// content-length (which never enters the table), its RFC 7541 entry size,
// its value length and the table capacity it would be inserted into.
func decide(x fastpath.Indexing, f fastpath.Flags, c policy.Class, contentLength bool, size, vlen, capacity int) mode {
	if contentLength && f&fastpath.NeverIndex == 0 {
		return withoutIndexing
	}
	switch policy.Decide(x, f, c, vlen) {
	case fastpath.NeverIndex:
		return neverIndexed
	case fastpath.NoIndex:
		return withoutIndexing
	case fastpath.Index:
		// Inserting an entry larger than the table would only empty it.
		if size <= capacity {
			return withIndexing
		}
		return withoutIndexing
	}
	if size > capacity*3/4 {
		return withoutIndexing
	}
	return withIndexing
}
