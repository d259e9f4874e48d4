package wire

import (
	"encoding/binary"
	"unsafe"
)

// Same reports whether a and b hold the same bytes, answering at once
// when they share their address (a caller's string constant and the static
// table's, which the linker keeps as one).
func Same(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) && len(a) == len(b) || a == b
}

// EqualWords reports whether a and b hold the same bytes; both must have
// the same length, at least 8. It compares 8 bytes at a time (the last
// word overlapping the one before) and is small enough to inline, so the
// encoders' memo checks, which compare a caller's string with a
// remembered copy on every field, need no call to the runtime's memequal,
// which would make the caller's loop spill and reload its registers.
func EqualWords(a, b string) bool {
	n := len(a)
	x, y := unsafe.Slice(unsafe.StringData(a), n), unsafe.Slice(unsafe.StringData(b), n)
	for i := 8; i < n; i += 8 {
		if binary.LittleEndian.Uint64(x[i-8:]) != binary.LittleEndian.Uint64(y[i-8:]) {
			return false
		}
	}
	return binary.LittleEndian.Uint64(x[n-8:]) == binary.LittleEndian.Uint64(y[n-8:])
}
