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

// TestAddFresh checks that AddFresh leaves a table as AddTagged does, over
// inserts of every size class, evictions, wraps, capacity changes and
// entries larger than the table, with every third value written to Spare
// first.
func TestAddFresh(t *testing.T) {
	var a, b Table
	a.Init(300, false)
	b.Init(300, false)
	src := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz", 10)
	for i := range 3000 {
		name := []byte(src[i%7 : i%7+i%13])
		value := []byte(src[i%11 : i%11+(i*7919)%(len(src)-20)%290])
		if i%97 == 0 {
			a.SetCapacity(100 + i%400)
			b.SetCapacity(100 + i%400)
		}
		okB := b.AddTagged(name, value, uint8(i))
		if sp := a.Spare(); i%3 == 0 && len(sp) >= len(name)+len(value) {
			// The value written in place first, as a decoder does.
			value = append(sp[len(name):len(name)], value...)
		}
		okA := a.AddFresh(name, value, uint8(i))
		if okA != okB || a.Len() != b.Len() || a.Size() != b.Size() {
			t.Fatalf("insert %d: AddFresh %v (%d entries, size %d), AddTagged %v (%d, %d)", i, okA, a.Len(), a.Size(), okB, b.Len(), b.Size())
		}
		for rel := range uint64(a.Len()) {
			na, va, ta, _ := a.GetTagged(rel)
			nb, vb, tb, _ := b.GetTagged(rel)
			if string(na) != string(nb) || string(va) != string(vb) || ta != tb {
				t.Fatalf("insert %d, entry %d: %q %q %d, want %q %q %d", i, rel, na, va, ta, nb, vb, tb)
			}
		}
	}
}
