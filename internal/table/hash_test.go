package table

import (
	"strings"
	"testing"
)

// The same contents hash alike as strings and as bytes, at every length
// (the index inserts from either and looks up with strings), and a change
// of any byte or of the length changes the hash.
func TestHashContents(t *testing.T) {
	s := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 3)
	seen := map[uint64]int{}
	for n := 0; n <= len(s); n++ {
		h := strHash(s[:n], 42)
		if b := bytesHash([]byte(s[:n]), 42); b != h {
			t.Fatalf("length %d: string %x, bytes %x", n, h, b)
		}
		if m, ok := seen[h]; ok {
			t.Fatalf("lengths %d and %d hash alike", m, n)
		}
		seen[h] = n
		for i := range n {
			c := []byte(s[:n])
			c[i] ^= 1
			if bytesHash(c, 42) == h {
				t.Fatalf("length %d: a change at %d keeps the hash", n, i)
			}
		}
	}
}
