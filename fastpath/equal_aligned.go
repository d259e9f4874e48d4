//go:build !(amd64 || arm64 || 386 || ppc64le || ppc64 || s390x)

package fastpath

// equal reports whether a and b, of the same length, hold the same bytes.
func equal(a, b string) bool { return a == b }
