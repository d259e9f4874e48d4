//go:build !(amd64 || arm64 || 386 || ppc64le || ppc64 || s390x)

package wire

// Equal reports whether a and b, of the same length, hold the same bytes.
func Equal(a, b string) bool { return a == b }

// EqualShort is Equal for strings shorter than 8 bytes (of the same
// length).
func EqualShort(a, b string) bool { return a == b }

// EqualLoop is Equal for strings of 8 bytes or more (of the same length).
func EqualLoop(a, b string) bool { return a == b }
