package fastpath

import (
	"unsafe"

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
	slots []memoSlot
	own   []byte // the copies the slots' checks point into
	cl    int    // the raw Content-Length's position, or -1
	ok    bool
}

// memoSlot is one field as it was: its words as the list holds them
// (name and value addresses and lengths, raw number, flags), and the
// bytes its name and value must hold, when they are not the static
// strings themselves ("" when there is nothing to compare).
type memoSlot struct {
	w           fieldWords
	rawMask     uint64 // 0 for the raw Content-Length, whose number may change
	name, value string
}

// fieldWords is a listField as words: listField has no padding.
type fieldWords [6]uint64

const _ = uint(unsafe.Sizeof(fieldWords{}) - unsafe.Sizeof(listField{})) // the sizes agree

// Memo bounds: a section with more fields or bytes is not remembered.
const (
	MemoFields = 64
	MemoBytes  = 8 << 10
)

// Save remembers the fields of l from position from (0 for the whole list)
// to its end, and reports whether it did: a section of more than MemoFields
// fields or MemoBytes bytes, or with more than one raw Content-Length, is
// not remembered (and the memo then remembers nothing).
func (m *SectionMemo) Save(l *FieldList, from int) bool {
	m.ok = false
	if from < 0 || from > len(l.fields) {
		return false
	}
	fs := l.fields[from:]
	total, cl := 0, -1
	for i := range fs {
		if fs[i].raw >= 0 {
			if cl >= 0 {
				return false
			}
			cl = i
		}
		total += len(fs[i].name) + len(fs[i].value)
	}
	if len(fs) > MemoFields || total > MemoBytes {
		return false
	}
	// Grown here, so the checks never point into an array that a later
	// append abandons.
	if cap(m.own) < total {
		m.own = make([]byte, 0, total)
	}
	m.own = m.own[:0]
	m.slots = m.slots[:0]
	for i := range fs {
		f := &fs[i]
		s := memoSlot{w: *(*fieldWords)(unsafe.Pointer(f)), rawMask: ^uint64(0)}
		if i == cl {
			s.rawMask = 0
		}
		s.name = m.check(f.name, staticName(f.name))
		if f.raw < 0 {
			s.value = m.check(f.value, staticValue(f.name, f.value))
		}
		m.slots = append(m.slots, s)
	}
	m.cl, m.ok = cl, true
	return true
}

// check returns what s's bytes are to be compared with: st, the static
// string with s's bytes if there is one, or a copy; "" when s is st itself
// (Match sees the same address again, or no match) or empty.
func (m *SectionMemo) check(s string, st string) string {
	if s == "" || unsafe.StringData(s) == unsafe.StringData(st) {
		return ""
	}
	if st != "" {
		return st
	}
	n := len(m.own)
	m.own = append(m.own, s...)
	return unsafe.String(&m.own[n], len(s))
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
func (m *SectionMemo) Forget() { m.ok = false }

// Match reports whether l, from position from to its end, holds the
// section m remembers, and returns its raw Content-Length, or -1 when the
// section has none.
func (m *SectionMemo) Match(l *FieldList, from int) (cl int64, ok bool) {
	if !m.ok || from < 0 || from > len(l.fields) || len(l.fields)-from != len(m.slots) {
		return -1, false
	}
	fs, slots := l.fields[from:], m.slots
	fs = fs[:len(slots)]
	for i := range slots {
		s := &slots[i]
		w := (*fieldWords)(unsafe.Pointer(&fs[i]))
		// One branch for the words: they are the same nearly always. (In
		// Go, ^ and | bind alike: every difference needs its parentheses.)
		if (w[0]^s.w[0])|(w[1]^s.w[1])|(w[2]^s.w[2])|(w[3]^s.w[3])|((w[4]^s.w[4])&s.rawMask)|(w[5]^s.w[5]) != 0 {
			return -1, false
		}
		// The words matched: the strings have the checks' lengths.
		if s.name != "" && !equal(fs[i].name, s.name) {
			return -1, false
		}
		if s.value != "" && !equal(fs[i].value, s.value) {
			return -1, false
		}
	}
	cl = -1
	if c := m.cl; c >= 0 {
		// The same name, flags and empty value: an Add of them would pass
		// for it, and have no number.
		if cl = fs[c].raw; cl < 0 {
			return -1, false
		}
	}
	return cl, true
}
