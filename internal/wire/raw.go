package wire

import "unsafe"

// RawBytes is the slice of n bytes at p with capacity c, and RawString the
// string of n bytes at p, made without the checks of unsafe.Slice and
// unsafe.String (length in range, no wrap around the address space), which
// cost a hot loop instructions and registers. The caller must know the
// bytes are there: a string's or slice's own bytes, or a range it has
// checked. One helper for the fast paths of this module that need it.
func RawBytes(p *byte, n, c int) []byte {
	type header struct {
		p    *byte
		n, c int
	}
	return *(*[]byte)(unsafe.Pointer(&header{p, n, c}))
}

// RawString: see RawBytes.
func RawString(p *byte, n int) string {
	type header struct {
		p *byte
		n int
	}
	return *(*string)(unsafe.Pointer(&header{p, n}))
}
