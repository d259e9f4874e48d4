package fastpath

import (
	"strconv"
	"unsafe"

	"github.com/hqpack/hqpack/internal/static"
)

// contentLengthFlags are the flags of a raw Content-Length: its static
// name, and never a dynamic-table entry (the value changes with every
// response, so an entry would only evict useful ones).
var contentLengthFlags = NoIndex.WithID(static.ContentLength)

// FieldList is a reusable field section for an encoder: a slice of fields
// that implements Enumerator, with a raw numeric Content-Length slot. The
// zero FieldList is empty and ready to use. Reset empties it and keeps its
// capacity, so a server can build one section per response without
// allocating once the list has grown.
//
// Add stores the flags it is given. It does not look the name up in the
// static table: the encoders do that themselves (their lookups match name
// and value together), so a lookup here would be paid twice. A caller that
// knows the static name can use AddID, which costs nothing extra.
type FieldList struct {
	fields []listField
	next   int // index of the field the next call to Next makes current
	used   int // fields[:used] may hold strings of earlier sections
}

// listField is one field of a FieldList.
type listField struct {
	name, value string
	raw         int64 // a raw Content-Length, or -1
	flags       Flags
}

// Add appends a field with flags f.
func (l *FieldList) Add(name, value string, f Flags) { l.push(name, value, f, -1) }

// AddID appends a field whose name is the static-table name id, carrying id
// in its flags. id must be a valid FieldID other than NoField (see
// LookupField).
func (l *FieldList) AddID(id FieldID, value string, f Flags) {
	name := id.Name()
	if name == "" {
		panic("fastpath: AddID with a FieldID that has no name: " + id.String())
	}
	l.push(name, value, f.WithID(id), -1)
}

// AddContentLength appends a raw Content-Length of n at this position of
// the list. No string is made for it: encoders format the digits straight
// into their output. n must not be negative: AddContentLength panics if it is.
func (l *FieldList) AddContentLength(n int64) {
	if n < 0 {
		panic(negativeLength(n))
	}
	l.push("content-length", "", contentLengthFlags, n)
}

// negativeLength is AddContentLength's panic value: a conversion, not a
// call, so that the method is small enough to inline.
type negativeLength int64

func (n negativeLength) Error() string {
	return "fastpath: negative Content-Length " + strconv.FormatInt(int64(n), 10)
}

// push appends a field. Within the capacity it stores the length alone
// and fills the element in place (through s: no reload, no bounds check):
// appending a composite literal builds it on the stack and copies it. The
// growth has its own append, not a join before one store: the usual path
// then runs straight on, with no jump (35 -> 31 instructions a field).
func (l *FieldList) push(name, value string, f Flags, raw int64) {
	if s, n := l.fields, len(l.fields); n < cap(s) {
		l.fields = l.fields[:n+1]
		p := (*listField)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(n)*unsafe.Sizeof(listField{})))
		p.name, p.value, p.flags, p.raw = name, value, f, raw
		return
	}
	l.fields = append(l.fields, listField{name, value, raw, f})
}

// Len returns the number of fields in the list.
func (l *FieldList) Len() int { return len(l.fields) }

// Pos returns the index of the current field: -1 before the first call to
// Next, Len() once Next has returned false.
func (l *FieldList) Pos() int { return l.next - 1 }

// Next advances to the next field; false at the end.
func (l *FieldList) Next() bool {
	if l.next < len(l.fields) {
		l.next++
		return true
	}
	l.next = len(l.fields) + 1
	return false
}

// Field returns the current field. For a raw Content-Length the name is
// "content-length", the value is empty and f carries NoIndex and
// the FieldID of content-length. Outside the list it returns zero values.
func (l *FieldList) Field() (name, value string, f Flags) {
	if i := l.next - 1; uint(i) < uint(len(l.fields)) {
		p := &l.fields[i]
		return p.name, p.value, p.flags
	}
	return "", "", 0
}

// ContentLength reports whether the current field is a raw Content-Length
// and its value.
func (l *FieldList) ContentLength() (n int64, ok bool) {
	if i := l.next - 1; uint(i) < uint(len(l.fields)) {
		if n := l.fields[i].raw; n >= 0 {
			return n, true
		}
	}
	return 0, false
}

// At returns field i (0 ≤ i < Len()) as Field returns it when it is
// current, and its raw Content-Length, or -1. Encoders use it to run over
// fields without moving the position.
func (l *FieldList) At(i int) (name, value string, f Flags, raw int64) {
	p := &l.fields[i]
	return p.name, p.value, p.flags, p.raw
}

// Seek makes field i current, as i+1 calls of Next after Rewind do; -1 is
// before the first field.
func (l *FieldList) Seek(i int) { l.next = min(max(i, -1), len(l.fields)) + 1 }

// Rewind moves back before the first field, to enumerate the list again.
func (l *FieldList) Rewind() { l.next = 0 }

// Reset empties the list and rewinds it, keeping its capacity. The
// strings of the last section stay referenced until the next fields
// overwrite them; those of a longer section's extra fields are dropped by
// the Reset after the next section. So a list keeps at most two sections'
// strings alive, and clears nothing while its sections keep their length.
func (l *FieldList) Reset() {
	// A loop, not clear (nor the range loop the compiler turns into one):
	// the runtime's clear of memory with pointers costs some 50
	// instructions a call, more than storing the few fields a section is
	// shorter by.
	for i := len(l.fields); i < l.used; i++ {
		l.fields[:l.used][i] = listField{}
	}
	l.used = len(l.fields)
	l.fields = l.fields[:0]
	l.next = 0
}

var _ Enumerator = (*FieldList)(nil)
