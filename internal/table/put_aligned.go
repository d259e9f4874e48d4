//go:build !(amd64 || arm64 || 386 || ppc64le || ppc64 || s390x)

package table

import "unsafe"

// put copies s to d, which has room for it and does not overlap it.
func put(d unsafe.Pointer, s string) {
	copy(unsafe.Slice((*byte)(d), len(s)), s)
}

// move is put for d and s that may overlap.
func move(d unsafe.Pointer, s string) {
	copy(unsafe.Slice((*byte)(d), len(s)), s)
}
