package static

import "strconv"

// FieldID is a small integer for each distinct field name in the HPACK and
// QPACK static tables, shared by both; 0 (None) is any other name.
// The constants (Authority, ContentLength, ...) are generated in tables.go.
type FieldID uint8

// Entry is one static-table entry.
type Entry struct {
	Name, Value string
	ID          FieldID
}

// HPACKLen and QPACKLen are the sizes of the static tables.
const (
	HPACKLen = 61
	QPACKLen = 99
)

// HPACK returns HPACK static entry i (1-based, RFC 7541 Appendix A).
// ok is false when i is out of range.
func HPACK(i uint64) (e Entry, ok bool) {
	// i == 0 wraps around and fails the same test.
	if i-1 >= HPACKLen {
		return Entry{}, false
	}
	return hpackTable[i-1], true
}

// HPACKStrings returns HPACK static entry i's name and value (1-based), or
// two empty strings when i is out of range: HPACK without a copy of the
// entry, for a caller that keeps no frame.
func HPACKStrings(i uint64) (name, value string) {
	if i-1 >= HPACKLen {
		return "", ""
	}
	e := &hpackTable[i-1]
	return e.Name, e.Value
}

// QPACKStrings returns QPACK static entry i's name and value (0-based), or
// two empty strings when i is out of range: QPACK without a copy of the
// entry.
func QPACKStrings(i uint64) (name, value string) {
	if i >= QPACKLen {
		return "", ""
	}
	e := &qpackTable[i]
	return e.Name, e.Value
}

// QPACK returns QPACK static entry i (0-based, RFC 9204 Appendix A).
// ok is false when i is out of range.
func QPACK(i uint64) (e Entry, ok bool) {
	if i >= QPACKLen {
		return Entry{}, false
	}
	return qpackTable[i], true
}

// LookupHPACK returns the index of the entry matching name and value
// exactly and the lowest index whose name matches; -1 means none, in every
// lookup of this package (HPACK's indices start at 1, QPACK's at 0).
func LookupHPACK(name, value string) (exact, nameOnly int) {
	x, n := lookupHPACK(name, value)
	return noneIfZero(x), noneIfZero(n)
}

// LookupHPACKZero is LookupHPACK with 0 for none, which HPACK's indices
// (from 1) leave free: the answer the decision tree has, with no mapping,
// so that the encoder's call inlines.
func LookupHPACKZero(name, value string) (exact, nameOnly int) {
	return lookupHPACK(name, value)
}

// noneIfZero maps the generated HPACK tables' 0 (no entry: HPACK has no
// index 0) to -1.
func noneIfZero(i int) int {
	if i == 0 {
		return -1
	}
	return i
}

// LookupQPACK is LookupHPACK for the QPACK table.
func LookupQPACK(name, value string) (exact, nameOnly int) {
	return lookupQPACK(name, value)
}

// Lookup returns the FieldID of name, or None. Names are matched exactly:
// field names on the wire are lowercase, and "Content-Length" is None.
func Lookup(name string) FieldID { return lookupString(name) }

// LookupBytes is Lookup for a name a decoder holds as bytes; it does not
// allocate.
func LookupBytes(name []byte) FieldID { return lookupBytes(name) }

// Name returns the field name of id ("" for None or an unknown id).
func (id FieldID) Name() string {
	if id > MaxFieldID {
		return ""
	}
	return fieldNames[id]
}

// HPACKIndex returns the lowest HPACK static index with id's name (-1 if none).
func (id FieldID) HPACKIndex() int {
	if id > MaxFieldID {
		return -1
	}
	return noneIfZero(int(hpackNameIndex[id]))
}

// QPACKIndex returns the lowest QPACK static index with id's name (-1 if none).
func (id FieldID) QPACKIndex() int {
	if id > MaxFieldID {
		return -1
	}
	return int(qpackNameIndex[id])
}

// IsPseudo reports whether id is a pseudo-header field (":authority",
// ":method", ":path", ":scheme", ":status").
func (id FieldID) IsPseudo() bool { return id != None && id < firstRegular }

// String returns the Go name of id ("ContentLength"), or "FieldID(n)"
// when id is past MaxFieldID.
func (id FieldID) String() string {
	if id > MaxFieldID {
		return "FieldID(" + strconv.Itoa(int(id)) + ")"
	}
	return fieldIdents[id]
}
