//go:build amd64 || arm64 || 386 || ppc64le || ppc64 || s390x

package table

import "unsafe"

// put copies s to d, which has room for it and does not overlap it: up to
// 32 bytes (most names and values) by words in putShort, longer strings by
// memmove. It inlines into the insert, so that putShort, which calls
// nothing, is a leaf without a frame to set up, and only long strings pay
// memmove's call and size dispatch.
func put(d unsafe.Pointer, s string) {
	if len(s) > 32 {
		copy(unsafe.Slice((*byte)(d), len(s)), s)
		return
	}
	putShort(d, s)
}

// putShort is put for at most 32 bytes: the first and last words
// overlapping the others, as these architectures load and store words at
// any address. It loads every word before it stores (see move).
func putShort(d unsafe.Pointer, s string) {
	n := uintptr(len(s))
	p := unsafe.Pointer(unsafe.StringData(s))
	switch {
	case n >= 8 && n <= 16:
		a, b := *(*uint64)(p), *(*uint64)(unsafe.Add(p, n-8))
		*(*uint64)(d), *(*uint64)(unsafe.Add(d, n-8)) = a, b
	case n > 16:
		a, b := *(*uint64)(p), *(*uint64)(unsafe.Add(p, 8))
		c, e := *(*uint64)(unsafe.Add(p, n-16)), *(*uint64)(unsafe.Add(p, n-8))
		*(*uint64)(d), *(*uint64)(unsafe.Add(d, 8)) = a, b
		*(*uint64)(unsafe.Add(d, n-16)), *(*uint64)(unsafe.Add(d, n-8)) = c, e
	case n >= 4:
		a, b := *(*uint32)(p), *(*uint32)(unsafe.Add(p, n-4))
		*(*uint32)(d), *(*uint32)(unsafe.Add(d, n-4)) = a, b
	case n > 0:
		a, b, c := *(*byte)(p), *(*byte)(unsafe.Add(p, n/2)), *(*byte)(unsafe.Add(p, n-1))
		*(*byte)(d), *(*byte)(unsafe.Add(d, n/2)), *(*byte)(unsafe.Add(d, n-1)) = a, b, c
	}
}

// move is put for d and s that may overlap (an entry copied over bytes
// that its insert evicted): putShort loads every word before it stores.
func move(d unsafe.Pointer, s string) {
	if len(s) > 32 {
		copy(unsafe.Slice((*byte)(d), len(s)), s) // memmove
		return
	}
	putShort(d, s)
}
