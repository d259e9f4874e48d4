package qpack

import "github.com/hqpack/hqpack/fastpath"

// Indexing is an Encoder's policy for inserting fields into the dynamic
// table, as in the hpack package. Per-field flags override it
// (fastpath.NeverIndex, NoIndex, Index), except that content-length never
// enters the table, so that its raw fast path and its string form always
// encode the same.
type Indexing uint8

const (
	// IndexDefault is nghttp2's policy: never insert content-length, :path,
	// age, etag, if-modified-since, if-none-match, location and set-cookie
	// (values that rarely repeat), nor fields larger than 3/4 of the table;
	// send authorization, and cookie values shorter than 20 bytes, as never
	// indexed (low-entropy secrets). Other fields are inserted when the
	// encoder judges that the entry will be used (see Encoder).
	IndexDefault Indexing = iota
	// IndexAll inserts every field that fits in the table.
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

// nameClass is what the default policy knows about a static-table name.
type nameClass uint8

const (
	classPlain   nameClass = iota
	classNoIndex           // values that rarely repeat
	classNever             // authorization
	classCookie            // never indexed when shorter than 20 bytes
)

// nameClasses maps the lowest QPACK static index of a name (what
// static.LookupQPACK reports as nameOnly) to its class.
var nameClasses = [99]nameClass{
	1:  classNoIndex, // :path
	2:  classNoIndex, // age
	5:  classCookie,  // cookie
	7:  classNoIndex, // etag
	8:  classNoIndex, // if-modified-since
	9:  classNoIndex, // if-none-match
	12: classNoIndex, // location
	14: classNoIndex, // set-cookie
	84: classNever,   // authorization
}

// cookieNeverBelow is nghttp2's (and Firefox's) cut-off: shorter cookie
// values are guessable, so they are sent as never indexed.
const cookieNeverBelow = 20

// decide returns the policy for one field (not content-length): exactly
// one of NeverIndex (a never-indexed literal), NoIndex (not inserted),
// Index (inserted if it fits), or 0 (inserted when the encoder judges it
// pays and it is at most 3/4 of the table). sn is the lowest static index
// of the name, or -1.
func (x Indexing) decide(f fastpath.Flags, sn int, vlen int) fastpath.Flags {
	switch {
	case f&fastpath.NeverIndex != 0:
		return fastpath.NeverIndex
	case f&fastpath.NoIndex != 0:
		return fastpath.NoIndex
	case f&fastpath.Index != 0 || x == IndexAll:
		return fastpath.Index
	case x == IndexNone:
		return fastpath.NoIndex
	}
	c := classPlain
	if sn >= 0 {
		c = nameClasses[sn]
	}
	switch c {
	case classNoIndex:
		return fastpath.NoIndex
	case classNever:
		return fastpath.NeverIndex
	case classCookie:
		if vlen < cookieNeverBelow {
			return fastpath.NeverIndex
		}
	}
	return 0
}
