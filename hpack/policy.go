package hpack

import "github.com/hqpack/hqpack/fastpath"

// Indexing is an encoder's policy for inserting fields into the dynamic
// table. Per-field flags override it (fastpath.NeverIndex, NoIndex, Index),
// except that content-length never enters the table, so that its raw fast
// path and its string form always encode the same.
type Indexing uint8

const (
	// IndexDefault is nghttp2's policy: insert every field except
	// content-length, :path, age, etag, if-modified-since, if-none-match,
	// location and set-cookie (values that rarely repeat), and fields larger
	// than 3/4 of the table; send authorization, and cookie values shorter
	// than 20 bytes, as never indexed (low-entropy secrets).
	IndexDefault Indexing = iota
	// IndexAll inserts every field that fits in the table, as the examples
	// of RFC 7541 Appendix C do.
	IndexAll
	// IndexNone inserts nothing; the encoder uses the static table only
	// (fields flagged fastpath.Index still go in).
	IndexNone
)

// String returns the constant's name.
func (x Indexing) String() string {
	switch x {
	case IndexDefault:
		return "IndexDefault"
	case IndexAll:
		return "IndexAll"
	case IndexNone:
		return "IndexNone"
	}
	return "Indexing(?)"
}

// mode is the literal representation chosen for a field.
type mode uint8

const (
	withIndexing    mode = iota // RFC 7541 §6.2.1, pattern 01
	withoutIndexing             // §6.2.2, pattern 0000
	neverIndexed                // §6.2.3, pattern 0001
)

// class is what the default policy knows about a static-table name.
type class uint8

const (
	classPlain         class = iota
	classNoIndex             // values that rarely repeat
	classNever               // authorization
	classCookie              // never indexed when shorter than 20 bytes
	classContentLength       // never in the table, whatever the flags
)

// classes maps the lowest HPACK static index of a name (what
// static.LookupHPACK reports as nameOnly) to its class.
var classes = [62]class{
	4:  classNoIndex, // :path
	21: classNoIndex, // age
	23: classNever,   // authorization
	28: classContentLength,
	32: classCookie,  // cookie
	34: classNoIndex, // etag
	40: classNoIndex, // if-modified-since
	41: classNoIndex, // if-none-match
	46: classNoIndex, // location
	55: classNoIndex, // set-cookie
}

// contentLengthIndex is content-length's HPACK static index.
const contentLengthIndex = 28

// cookieNeverBelow is nghttp2's (and Firefox's) cut-off: shorter cookie
// values are guessable, so they are sent as never indexed.
const cookieNeverBelow = 20

// decide returns the representation of a literal field: its flags, the
// class of its static name (classPlain if none), its RFC 7541 entry size,
// its value length and the table capacity it would be inserted into.
func (x Indexing) decide(f fastpath.Flags, c class, size, vlen, capacity int) mode {
	switch {
	case f&fastpath.NeverIndex != 0:
		return neverIndexed
	case f&fastpath.NoIndex != 0, c == classContentLength:
		return withoutIndexing
	case f&fastpath.Index != 0 || x == IndexAll:
		// Inserting an entry larger than the table would only empty it.
		if size <= capacity {
			return withIndexing
		}
		return withoutIndexing
	case x == IndexNone:
		return withoutIndexing
	}
	switch c {
	case classNoIndex:
		return withoutIndexing
	case classNever:
		return neverIndexed
	case classCookie:
		if vlen < cookieNeverBelow {
			return neverIndexed
		}
	}
	if size > capacity*3/4 {
		return withoutIndexing
	}
	return withIndexing
}
