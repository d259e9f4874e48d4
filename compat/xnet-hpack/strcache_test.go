package hpack

import (
	"strings"
	"testing"
)

// The cache keys strings by address: bytes that change in place, or
// another length at the same address, must never come back as the old
// string.
func TestStrCache(t *testing.T) {
	var c strCache
	buf := []byte("first value")
	s1 := c.get(buf)
	if s1 != "first value" {
		t.Fatalf("get %q", s1)
	}
	if s2 := c.get(buf); s2 != s1 {
		t.Fatalf("second get %q", s2)
	}
	copy(buf, "other")
	if s := c.get(buf); s != "other value" {
		t.Errorf("after the bytes changed in place: %q", s)
	}
	if s := c.get(buf[:5]); s != "other" {
		t.Errorf("a shorter slice at the same address: %q", s)
	}
	long := []byte(strings.Repeat("x", strCacheMax+1))
	if s := c.get(long); s != string(long) {
		t.Errorf("a long string: %d bytes", len(s))
	}
	if s1 != "first value" {
		t.Errorf("the first string changed: %q", s1)
	}
	// Warm, a cached string costs no allocation.
	if n := testing.AllocsPerRun(100, func() { c.get(buf) }); n != 0 {
		t.Errorf("%v allocations for a cached string", n)
	}
}
