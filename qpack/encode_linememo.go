package qpack

import (
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
)

// lineMemo remembers, for a static-only encoder, the whole field line of
// recent fields, by the address and length of the caller's name and value
// and the field's flags. Without a dynamic table a field's line depends on
// nothing but its name, value and flags (and the encoder's policies, fixed
// until Init), and a server sends the same strings (constants, a cached
// Date) section after section: a hit replaces the static lookup, the policy
// and the Huffman coding with a comparison and a copy.
//
// Each hit is verified byte for byte: the name and value are compared with
// the memo's own copies, or, when the line comes from the static table,
// with the static table's strings, which the caller's constants usually
// share (the linker keeps one copy of equal string constants, and the
// comparison of a string with itself stops at the address). A string that
// changed in place (built with unsafe from a reused buffer) only misses.
//
// Entries hold the caller's addresses as integers, not pointers, so the
// memo keeps no caller memory alive. It is four-way set-associative, 16
// sets, as the hpack package's memo (a section of a dozen fields has five
// in one set about one time in a hundred). Entry buffers are allocated on
// first use and reused; lines of long strings are not kept, and all of them
// together stay under lineMemoBudget bytes.
type lineMemo struct {
	ents  [lineWays << lineBits]lineEntry
	bytes int // total capacity of the entries' buffers
	// first is the entry of the first field of the last section, where the
	// next section looks first; each entry's next is the entry of the
	// field that followed it. Sections repeat their fields in order, so
	// most fields are found without hashing.
	first uint8
	rep   staticReplay // positions of a FieldList's fields
}

const (
	lineBits = 4
	lineWays = 4
	// lineMemoMax bounds one entry's buffer (copies and line).
	lineMemoMax = 768
	// lineMemoBudget bounds the buffers of all entries.
	lineMemoBudget = 8 << 10
)

type lineEntry struct {
	name, value uintptr // the caller's strings
	lens        uint64  // len(name)+1 << 32 | len(value); 0 in an empty entry
	f           fastpath.Flags
	// check has checkName and checkValue set when that string must be
	// compared: not when it is the very static-table string (same address
	// and length) it is verified against, which is read-only.
	check   uint8
	next    uint8  // where the field after this one was, last time
	lineOff uint16 // the line is buf[lineOff:]
	// cname and cvalue are what the caller's strings are verified against:
	// static-table strings, or copies in buf.
	cname, cvalue string
	buf           []byte
}

// line returns the entry's field line.
func (en *lineEntry) line() []byte { return en.buf[en.lineOff:] }

const (
	checkName  = 1
	checkValue = 2
)

// addr returns the address of s's bytes.
func addr(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// setIndex returns the index of the first entry of the set where the field
// (name, value) may be.
func (m *lineMemo) setIndex(name, value string) int {
	h := uint64(addr(name))*0x9e3779b97f4a7c15 ^ uint64(addr(value))*0xc2b2ae3d27d4eb4f ^ uint64(len(value))
	return int(h>>(64-lineBits)) * lineWays
}

// lineKey returns the lengths part of an entry's key.
func lineKey(name, value string) uint64 { return uint64(len(name)+1)<<32 | uint64(uint32(len(value))) }

// keyIs reports whether name and value have the addresses and lengths of
// en's key, and f its flags.
func (en *lineEntry) keyIs(name, value string, f fastpath.Flags) bool {
	return en.name == addr(name) && en.value == addr(value) && en.lens == lineKey(name, value) && en.f == f
}

// verified reports whether name and value, which match en's key, hold the
// bytes en was made from.
func (en *lineEntry) verified(name, value string) bool {
	return (en.check&checkName == 0 || en.cname == name) && (en.check&checkValue == 0 || en.cvalue == value)
}

// find returns the index of the entry holding the field (name, value, f),
// or -1.
func (m *lineMemo) find(name, value string, f fastpath.Flags) int {
	i := m.setIndex(name, value)
	for j := i; j < i+lineWays; j++ {
		if en := &m.ents[j]; en.keyIs(name, value, f) && en.verified(name, value) {
			return j
		}
	}
	return -1
}

// store remembers line for the field (name, value, f) and returns the index
// of its entry, or -1 when it is not kept. cname and cvalue are
// static-table strings equal to name and value, or "" for a copy.
func (m *lineMemo) store(name, value string, f fastpath.Flags, cname, cvalue string, line []byte) int {
	copyName, copyValue := cname == "" && name != "", cvalue == "" && value != ""
	need := len(line)
	if copyName {
		need += len(name)
	}
	if copyValue {
		need += len(value)
	}
	if need > lineMemoMax {
		return -1
	}
	// The newest goes first, the others move down a way: the oldest
	// leaves (its buffer is reused), or this same key's older entry.
	i := m.setIndex(name, value)
	set := (*[lineWays]lineEntry)(m.ents[i : i+lineWays])
	np, vp, lens := addr(name), addr(value), lineKey(name, value)
	j := lineWays - 1
	for k := range set {
		if set[k].name == np && set[k].value == vp && set[k].lens == lens {
			j = k
			break
		}
	}
	buf := set[j].buf[:0]
	if cap(buf) < need {
		if m.bytes-cap(buf)+need > lineMemoBudget {
			return -1
		}
		m.bytes += need - cap(buf)
		buf = make([]byte, 0, need)
	}
	copy(set[1:j+1], set[:j])
	var check uint8
	if addr(cname) != np || len(cname) != len(name) {
		check |= checkName
	}
	if addr(cvalue) != vp || len(cvalue) != len(value) {
		check |= checkValue
	}
	if copyName {
		buf = append(buf, name...)
		cname = unsafe.String(unsafe.SliceData(buf), len(name))
	}
	if copyValue {
		k := len(buf)
		buf = append(buf, value...)
		cvalue = unsafe.String(&buf[k], len(value))
	}
	off := len(buf)
	buf = append(buf, line...)
	set[0] = lineEntry{
		name: np, value: vp, lens: lens, f: f, check: check,
		lineOff: uint16(off), cname: cname, cvalue: cvalue, buf: buf,
	}
	return i
}
