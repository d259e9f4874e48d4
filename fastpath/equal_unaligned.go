//go:build amd64 || arm64 || 386 || ppc64le || ppc64 || s390x

package fastpath

import "unsafe"

// equal reports whether a and b, of the same length, hold the same bytes.
// On these architectures a load need not be aligned, so a string of 8 to
// 64 bytes (most field values) is compared in words, the last overlapping
// the one before, by code small enough to inline.
func equal(a, b string) bool {
	n := uintptr(len(a))
	if n < 8 || n > 64 {
		return a == b
	}
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
	d := *(*uint64)(unsafe.Add(p, n-8)) ^ *(*uint64)(unsafe.Add(q, n-8))
	for i := uintptr(0); i+8 < n; i += 8 {
		d |= *(*uint64)(unsafe.Add(p, i)) ^ *(*uint64)(unsafe.Add(q, i))
	}
	return d == 0
}
