package qpack

import "github.com/hqpack/hqpack/fastpath"

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

// decide returns policy x for one field (not content-length): exactly
// one of NeverIndex (a never-indexed literal), NoIndex (not inserted),
// Index (inserted if it fits), or 0 (inserted when the encoder judges it
// pays and it is at most 3/4 of the table). sn is the lowest static index
// of the name, or -1.
func decide(x fastpath.Indexing, f fastpath.Flags, sn int, vlen int) fastpath.Flags {
	switch {
	case f&fastpath.NeverIndex != 0:
		return fastpath.NeverIndex
	case f&fastpath.NoIndex != 0:
		return fastpath.NoIndex
	case f&fastpath.Index != 0 || x == fastpath.IndexAll:
		return fastpath.Index
	case x == fastpath.IndexNone:
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
		if vlen < fastpath.CookieNeverBelow {
			return fastpath.NeverIndex
		}
	}
	return 0
}
