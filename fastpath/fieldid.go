package fastpath

import "github.com/hqpack/hqpack/internal/static"

// FieldID is a small integer for each distinct field name in the HPACK and
// QPACK static tables, shared by both (HPACK's content-length, index 28,
// and QPACK's, index 4, are one FieldID); NoField is any other name.
// Decoders report it in Flags.ID, so a server can switch on it instead of
// comparing names; FieldList.AddID takes it. Get one with LookupField, once
// (in a package-level var): the values are stable within a release but not
// a promise across releases. Its methods give the name (Name), the Go-style
// identifier (String, "ContentLength"), whether it is a pseudo-header field
// (IsPseudo), and the lowest static index with its name in each table
// (HPACKIndex, QPACKIndex; -1 when none).
type FieldID = static.FieldID

// NoField is the FieldID of a name in neither static table.
const NoField = static.None

// LookupField returns the FieldID of name, or NoField. Names are matched
// exactly: field names on the wire are lowercase, so "Content-Length" is
// NoField. It neither hashes nor allocates.
func LookupField(name string) FieldID { return static.Lookup(name) }

// LookupFieldBytes is LookupField for a name held as bytes, such as one a
// Sink is handed; it does not allocate.
func LookupFieldBytes(name []byte) FieldID { return static.LookupBytes(name) }

// MaxFieldID is the largest FieldID, so that a table indexed by FieldID
// can be an array of MaxFieldID+1 entries.
const MaxFieldID = static.MaxFieldID
