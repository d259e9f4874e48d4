package table

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestLookupExactRecheck checks LookupExact against LookupHashed's exact
// answers, LookupExactAll against two LookupExacts, and Recheck against LookupExact, over random inserts (few
// distinct fields, so that copies of one field abound) and random ranges.
func TestLookupExactRecheck(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rechecked := 0
	for round := range 20 {
		var tb Table
		tb.Init(64+r.IntN(1024), true)
		type memo struct {
			name, value string
			abs, since  uint64
		}
		var memos []memo
		for range 2000 {
			name := "n" + strconv.Itoa(r.IntN(4))
			value := "v" + strconv.Itoa(r.IntN(6))
			if r.IntN(3) == 0 {
				tb.AddString(name, value)
			}
			lo := tb.Inserted() - uint64(r.IntN(tb.Len()+1))
			hi := tb.Inserted() - uint64(r.IntN(int(tb.Inserted()-lo)+1))
			h := tb.Hash(name, value)
			abs, ok := tb.LookupExact(h, name, value, lo, hi)
			wabs, exact, _ := tb.LookupHashed(h, name, value, lo, hi)
			if ok != exact || ok && abs != wabs {
				t.Fatalf("round %d: LookupExact %q %q [%d,%d) = %d %v, LookupHashed %d %v", round, name, value, lo, hi, abs, ok, wabs, exact)
			}
			aabs, aok, newest, held := tb.LookupExactAll(h, name, value, lo, hi)
			nabs, nok := tb.LookupExact(h, name, value, 0, tb.Inserted())
			if aok != ok || ok && aabs != abs || held != nok || held && newest != nabs {
				t.Fatalf("round %d: LookupExactAll %q %q [%d,%d) = %d %v %d %v, want %d %v %d %v", round, name, value, lo, hi, aabs, aok, newest, held, abs, ok, nabs, nok)
			}
			for _, m := range memos {
				if m.name != name || m.value != value {
					continue
				}
				if tb.Recheck(h, name, value, m.abs, m.since, lo, hi) {
					if !ok || abs != m.abs {
						t.Fatalf("round %d: Recheck says %d for %q %q [%d,%d), LookupExact %d %v", round, m.abs, name, value, lo, hi, abs, ok)
					}
					rechecked++
				}
			}
			if ok {
				memos = append(memos, memo{name, value, abs, min(hi, tb.Inserted())})
				if len(memos) > 16 {
					memos = memos[1:]
				}
			}
		}
	}
	if rechecked < 1000 {
		t.Errorf("Recheck confirmed %d lookups: too few to tell", rechecked)
	}
}
