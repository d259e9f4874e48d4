//go:build !(interop && cgo)

package interop

import "testing"

// TestInterop stands for the tests that need the C libraries.
func TestInterop(t *testing.T) {
	t.Skip("built without -tags interop (or without cgo): go test -tags interop ./interop runs nghttp2 and nghttp3 against hqpack; it needs libnghttp2-dev and libnghttp3-dev")
}
