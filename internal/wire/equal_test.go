package wire

import (
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	for n := range 81 {
		a := strings.Repeat("abcdefghij", 9)[:n]
		if !Equal(a, strings.Clone(a)) || !Equal(a, a) {
			t.Fatalf("len %d: equal strings differ", n)
		}
		for i := range n {
			b := []byte(a)
			b[i] ^= 0x80
			if Equal(a, string(b)) {
				t.Fatalf("len %d: a change at %d is not seen", n, i)
			}
		}
	}
}

func TestEqualShort(t *testing.T) {
	for n := range 8 {
		a := "abcdefgh"[:n]
		if !EqualShort(a, strings.Clone(a)) || !EqualShort(a, a) {
			t.Fatalf("len %d: equal strings differ", n)
		}
		for i := range n {
			b := []byte(a)
			b[i] ^= 0x80
			if EqualShort(a, string(b)) {
				t.Fatalf("len %d: a change at %d is not seen", n, i)
			}
		}
	}
}

func TestEqualLoop(t *testing.T) {
	for n := 8; n <= 300; n++ {
		a := strings.Repeat("abcdefghij", 31)[:n]
		if !EqualLoop(a, strings.Clone(a)) || !EqualLoop(a, a) {
			t.Fatalf("len %d: equal strings differ", n)
		}
		for i := range n {
			b := []byte(a)
			b[i] ^= 0x80
			if EqualLoop(a, string(b)) {
				t.Fatalf("len %d: a change at %d is not seen", n, i)
			}
		}
	}
}

func BenchmarkEqual(b *testing.B) {
	x := "private, max-age=0, must-revalidate"
	y := strings.Clone(x)
	for b.Loop() {
		if !Equal(x, y) {
			b.Fatal("differ")
		}
	}
}

func TestSame(t *testing.T) {
	s := "content-type"
	for _, c := range []struct {
		a, b string
		want bool
	}{{s, s, true}, {s, strings.Clone(s), true}, {s, s[:7], false}, {s, "content-typf", false}, {"", "", true}} {
		if got := Same(c.a, c.b); got != c.want {
			t.Errorf("Same(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
