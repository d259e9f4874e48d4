// Package policy is the default indexing policy both encoders share
// (fastpath.IndexDefault, after nghttp2's): what it knows about each static
// field name, keyed by static.FieldID and written once, and the decision
// it makes for a field from its flags, that knowledge and its value.
package policy

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
)

// Class is what the default policy knows about a field name.
type Class uint8

// The classes.
const (
	Plain   Class = iota
	NoIndex       // values that rarely repeat: not inserted
	Never         // credentials: never indexed
	Cookie        // never indexed when shorter than CookieNeverBelow
)

// CookieNeverBelow is the cut-off for cookies (nghttp2's and Firefox's):
// shorter values are guessable, so they are sent as never indexed.
const CookieNeverBelow = 20

// byField is the policy's one table; every other name is Plain.
var byField = [static.MaxFieldID + 1]Class{
	static.Path:            NoIndex,
	static.Age:             NoIndex,
	static.Authorization:   Never,
	static.Cookie:          Cookie,
	static.ETag:            NoIndex,
	static.IfModifiedSince: NoIndex,
	static.IfNoneMatch:     NoIndex,
	static.Location:        NoIndex,
	static.SetCookie:       NoIndex,
}

// Of returns the class of the name id.
func Of(id static.FieldID) Class {
	if id > static.MaxFieldID {
		return Plain
	}
	return byField[id]
}

// Decide returns what policy x does with a field that has flags f, a name
// of class c and a value of vlen bytes: exactly one of fastpath.NeverIndex
// (a never-indexed literal), fastpath.NoIndex (not inserted),
// fastpath.Index (inserted if it fits), or 0 (inserted when the encoder
// judges it pays).
func Decide(x fastpath.Indexing, f fastpath.Flags, c Class, vlen int) fastpath.Flags {
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
	switch c {
	case NoIndex:
		return fastpath.NoIndex
	case Never:
		return fastpath.NeverIndex
	case Cookie:
		if vlen < CookieNeverBelow {
			return fastpath.NeverIndex
		}
	}
	return 0
}

// ByHPACKIndex and ByQPACKIndex return the class of each static entry's
// name by its index in that table, for an encoder's lookup by the index
// its static search gives.
func ByHPACKIndex() (t [static.HPACKLen + 1]Class) {
	for i := range t {
		if e, ok := static.HPACK(uint64(i)); ok {
			t[i] = Of(e.ID)
		}
	}
	return t
}

// ByQPACKIndex is ByHPACKIndex for the QPACK static table.
func ByQPACKIndex() (t [static.QPACKLen]Class) {
	for i := range t {
		e, _ := static.QPACK(uint64(i))
		t[i] = Of(e.ID)
	}
	return t
}
