package table

import "unsafe"

// overlaps reports whether x and y share any byte, as crypto/internal/alias
// does: an insert's name or value may alias the arena it is copied into.
func overlaps(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	xs := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	ys := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return xs < ys+uintptr(len(y)) && ys < xs+uintptr(len(x))
}
