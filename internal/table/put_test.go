package table

import (
	"strings"
	"testing"
	"unsafe"
)

func TestPut(t *testing.T) {
	src := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 3)
	for n := range 80 {
		buf := make([]byte, n+2)
		for i := range buf {
			buf[i] = '.'
		}
		put(unsafe.Pointer(&buf[1]), src[:n])
		if got, want := string(buf), "."+src[:n]+"."; got != want {
			t.Fatalf("put of %d bytes: %q, want %q", n, got, want)
		}
	}
}
