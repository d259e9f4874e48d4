//go:build amd64 || arm64 || 386 || ppc64le || ppc64 || s390x

package wire

import "unsafe"

// Equal reports whether a and b, of the same length, hold the same bytes.
// It compares a string of 8 to 64 bytes (most field values) a word at a
// time, the last word overlapping the one before: these architectures
// load words at any address. It is small enough to inline, so the
// encoders' memo checks, which compare a caller's string with a
// remembered copy on every field, need no call to the runtime's memequal,
// which would make the caller's loop spill and reload its registers. (No
// test of a shared address: a copy in a table never shares the caller's.)
func Equal(a, b string) bool {
	n := uintptr(len(a))
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	if n-8 > 64-8 { // n < 8 (wraps around) or n > 64
		return a == b
	}
	n -= 8 // the last word's offset
	d := *(*uint64)(unsafe.Add(p, n)) ^ *(*uint64)(unsafe.Add(q, n))
	for i := uintptr(0); i < n; i += 8 {
		d |= *(*uint64)(unsafe.Add(p, i)) ^ *(*uint64)(unsafe.Add(q, i))
	}
	return d == 0
}

// EqualShort is Equal for strings shorter than 8 bytes (of the same
// length), which Equal leaves to the runtime's memequal: two overlapping
// 4-byte words, or the first, middle and last byte. It inlines, so a
// caller that branches on the length compares a short name or value with
// no call at all.
func EqualShort(a, b string) bool {
	n := uintptr(len(a))
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	if n >= 4 {
		return (*(*uint32)(p)^*(*uint32)(q))|(*(*uint32)(unsafe.Add(p, n-4))^*(*uint32)(unsafe.Add(q, n-4))) == 0
	}
	return n == 0 || a[0] == b[0] && a[n/2] == b[n/2] && a[n-1] == b[n-1]
}

// EqualLoop is Equal for strings of 8 bytes or more (of the same length),
// every length in its loop, without memequal: a caller that calls nothing
// else needs no frame set up, which saves more than memequal's wider loads
// gain on the few strings over 64 bytes.
func EqualLoop(a, b string) bool {
	n := uintptr(len(a))
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	d := *(*uint64)(unsafe.Add(p, n-8)) ^ *(*uint64)(unsafe.Add(q, n-8))
	for i := uintptr(0); i+8 < n && d == 0; i += 8 {
		d |= *(*uint64)(unsafe.Add(p, i)) ^ *(*uint64)(unsafe.Add(q, i))
	}
	return d == 0
}
