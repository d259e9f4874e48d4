package qpack

import (
	"math/rand/v2"
	"testing"
)

// TestHistorySeen checks the history's counts against a scan of its ring.
func TestHistorySeen(t *testing.T) {
	var h fieldHistory
	var ring [historyLen]uint32
	pos := 0
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 200000; it++ {
		h.name = uint64(r.IntN(40))
		v := string(rune('a' + r.IntN(3)))
		got := h.seen(v)
		x := h.values[(h.pos+historyLen-1)%historyLen]
		want := 0
		for _, y := range ring {
			if y == x {
				want++
			}
		}
		ring[pos] = x
		pos = (pos + 1) % historyLen
		if got != want {
			t.Fatalf("it %d: got %d want %d", it, got, want)
		}
	}
}
