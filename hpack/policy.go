package hpack

import "github.com/hqpack/hqpack/fastpath"

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

// decide returns the representation of a literal field under x: its flags, the
// class of its static name (classPlain if none), its RFC 7541 entry size,
// its value length and the table capacity it would be inserted into.
func decide(x fastpath.Indexing, f fastpath.Flags, c class, size, vlen, capacity int) mode {
	switch {
	case f&fastpath.NeverIndex != 0:
		return neverIndexed
	case f&fastpath.NoIndex != 0, c == classContentLength:
		return withoutIndexing
	case f&fastpath.Index != 0 || x == fastpath.IndexAll:
		// Inserting an entry larger than the table would only empty it.
		if size <= capacity {
			return withIndexing
		}
		return withoutIndexing
	case x == fastpath.IndexNone:
		return withoutIndexing
	}
	switch c {
	case classNoIndex:
		return withoutIndexing
	case classNever:
		return neverIndexed
	case classCookie:
		if vlen < fastpath.CookieNeverBelow {
			return neverIndexed
		}
	}
	if size > capacity*3/4 {
		return withoutIndexing
	}
	return withIndexing
}
