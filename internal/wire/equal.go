package wire

import "unsafe"

// Same reports whether a and b hold the same bytes, answering at once
// when they share their address (a caller's string constant and the static
// table's, which the linker keeps as one).
func Same(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) && len(a) == len(b) || a == b
}
