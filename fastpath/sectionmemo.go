package fastpath

import (
	"encoding/binary"
	"unsafe"

	"github.com/hqpack/hqpack/internal/wire"
	"github.com/hqpack/hqpack/static"
)

// SectionMemo remembers the fields of one FieldList section so that an
// encoder can tell, at the cost of a comparison, that a later section is
// the same one again: the same strings at the same addresses with the same
// bytes, the same flags, and a raw Content-Length at the same position
// (whose number may differ). A server sends such sections response after
// response; an encoder whose output depends only on the fields and on a
// state of its own that has not changed since can send what it sent then.
//
// Addresses alone prove nothing: a string's memory can be freed and
// reused for other bytes, or rewritten by a caller that builds strings
// with unsafe. So Match also compares every byte, against the static
// table's strings (a caller's constant is the same string, and the
// comparison stops at the address) or against copies the memo keeps. It
// keeps no caller memory alive: the addresses are kept as numbers.
//
// The zero SectionMemo remembers nothing. It is meant for encoders; a
// server does not need one.
type SectionMemo struct {
	// shape is the fields' headers as the list held them, byte for byte
	// (listField has no padding): addresses and lengths of names and
	// values, raw numbers, flags. It is compared in one go, with memequal.
	shape  []byte
	checks []memoCheck // the strings whose bytes Match compares
	own    []byte      // the copies the checks point into
	cl     int         // the raw Content-Length's position, or -1
	ok     bool
}

// memoCheck is a string of the section whose bytes Match compares with
// want: off is where its header lies in the fields' array.
type memoCheck struct {
	want string
	off  uintptr
}

// Memo bounds: a section with more fields or bytes is not remembered.
const (
	MemoFields = 64
	MemoBytes  = 8 << 10
)

// fieldSize is the size of a listField, whose bytes are its contents.
const fieldSize = int(unsafe.Sizeof(listField{}))

// listField has no padding, whose bytes would be anything: two strings and
// two 8-byte words, nothing between them (this fails to compile if not).
var _ [0]struct{} = [unsafe.Sizeof(listField{}) - 2*unsafe.Sizeof("") - 16]struct{}{}

// headers returns the bytes of fields' headers: no copy.
func headers(fields []listField) string {
	return unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(fields))), len(fields)*fieldSize)
}

// Save remembers the fields of l from position from (0 for the whole list)
// to its end, and reports whether Match may now find them. An encoder calls
// it after every section it could send again, but the copies are taken
// only for a section whose headers (addresses, lengths, flags) are those
// of the section saved before it: a section that does not repeat, such as
// a client's request for another :path, costs one copy of its headers.
// A section of more than MemoFields fields or MemoBytes bytes, or with more
// than one raw Content-Length, is not remembered.
func (m *SectionMemo) Save(l *FieldList, from int) bool {
	if from < 0 || from > len(l.fields) {
		m.Forget()
		return false
	}
	fs := l.fields[from:]
	total, cl := 0, -1
	for i := range fs {
		if fs[i].raw >= 0 {
			if cl >= 0 {
				m.Forget()
				return false
			}
			cl = i
		}
		total += len(fs[i].name) + len(fs[i].value)
	}
	if len(fs) > MemoFields || total > MemoBytes {
		m.Forget()
		return false
	}
	if _, again := m.sameShape(fs); !again {
		m.shape = append(m.shape[:0], headers(fs)...)
		m.cl, m.ok = cl, false
		return false
	}
	// Grown here, so the checks never point into an array that a later
	// append abandons.
	if cap(m.own) < total {
		m.own = make([]byte, 0, total)
	}
	m.own = m.own[:0]
	m.checks = m.checks[:0]
	for i := range fs {
		f := &fs[i]
		at := uintptr(i * fieldSize)
		m.check(f.name, staticName(f.name), at+unsafe.Offsetof(f.name))
		if f.raw < 0 {
			m.check(f.value, staticValue(f.name, f.value), at+unsafe.Offsetof(f.value))
		}
	}
	m.ok = true
	return true
}

// sameShape reports whether fs's headers are the ones m holds, but for the
// raw Content-Length's number, which it returns (-1 when there is none).
// That field must still be raw: one with the same name, flags and empty
// value that Add made has no number. The number is first copied into m's
// shape, so that one comparison covers the rest; the memo is the
// encoder's own, and nothing reads that word of it.
func (m *SectionMemo) sameShape(fs []listField) (cl int64, ok bool) {
	h := headers(fs)
	if len(h) != len(m.shape) {
		return -1, false
	}
	if c := m.cl; c >= 0 && c < len(fs) { // a raw Content-Length (not the zero memo)
		cl = fs[c].raw
		if cl < 0 {
			return -1, false
		}
		binary.NativeEndian.PutUint64(m.shape[c*fieldSize+int(unsafe.Offsetof(listField{}.raw)):], uint64(cl))
	} else {
		cl = -1
	}
	return cl, h == string(m.shape)
}

// check adds a check of s, whose header is at off, against st, the static
// string with s's bytes if there is one, or else a copy. s needs no check
// when it is st itself (Match then sees the same address, or no match) or
// empty.
func (m *SectionMemo) check(s, st string, off uintptr) {
	if s == "" || unsafe.StringData(s) == unsafe.StringData(st) {
		return
	}
	if st == "" {
		n := len(m.own)
		m.own = append(m.own, s...)
		st = unsafe.String(&m.own[n], len(s))
	}
	m.checks = append(m.checks, memoCheck{st, off})
}

// staticName returns the static tables' string with name's bytes, or "".
func staticName(name string) string {
	return static.Lookup(name).Name()
}

// staticValue returns a static table's value string with value's bytes for
// this name, or "".
func staticValue(name, value string) string {
	if exact, _ := static.LookupHPACK(name, value); exact != 0 {
		e, _ := static.HPACK(uint64(exact))
		return e.Value
	}
	if exact, _ := static.LookupQPACK(name, value); exact >= 0 {
		e, _ := static.QPACK(uint64(exact))
		return e.Value
	}
	return ""
}

// Forget makes m remember nothing.
func (m *SectionMemo) Forget() { m.shape, m.cl, m.ok = m.shape[:0], -1, false }

// Match reports whether l, from position from to its end, holds the
// section m remembers, and returns its raw Content-Length, or -1 when the
// section has none.
func (m *SectionMemo) Match(l *FieldList, from int) (cl int64, ok bool) {
	if !m.ok || from < 0 || from > len(l.fields) {
		return -1, false
	}
	fs := l.fields[from:]
	if cl, ok = m.sameShape(fs); !ok {
		return -1, false
	}
	// The headers matched: each checked string has its copy's length.
	base := unsafe.Pointer(unsafe.SliceData(fs))
	for _, c := range m.checks {
		if !wire.Equal(*(*string)(unsafe.Add(base, c.off)), c.want) {
			return -1, false
		}
	}
	return cl, true
}
