package table

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestLookupExactRecheck checks LookupExact against LookupHashed's exact
// answers, LookupExactAllID against two LookupExacts, and Recall against LookupExact, over random inserts (few
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
			ah, _, aabs, aok, newest, held := tb.LookupExactAllID(0, name, value, lo, hi)
			if ah != h {
				t.Fatalf("round %d: LookupExactAllID's Hash %v, Hash's %v", round, ah, h)
			}
			nabs, nok := tb.LookupExact(h, name, value, 0, tb.Inserted())
			if aok != ok || ok && aabs != abs || held != nok || held && newest != nabs {
				t.Fatalf("round %d: LookupExactAllID %q %q [%d,%d) = %d %v %d %v, want %d %v %d %v", round, name, value, lo, hi, aabs, aok, newest, held, abs, ok, nabs, nok)
			}
			for _, m := range memos {
				if m.name != name || m.value != value {
					continue
				}
				e := tb.Recall(m.abs, hi)
				if e == nil || m.abs < lo || m.since < hi && tb.HashedSince(&h, m.since, hi) {
					continue
				}
				if n, v := tb.Strings(e); n == name && v == value {
					if !ok || abs != m.abs {
						t.Fatalf("round %d: Recall says %d for %q %q [%d,%d), LookupExact %d %v", round, m.abs, name, value, lo, hi, abs, ok)
					}
					rechecked++
				}
			}
			if ok {
				memos = append(memos, memo{name, value, abs, hi})
				if len(memos) > 16 {
					memos = memos[1:]
				}
			}
		}
	}
	if rechecked < 1000 {
		t.Errorf("Recall confirmed %d lookups: too few to tell", rechecked)
	}
}

// TestDuplicateAndHashOf checks that Duplicate inserts what Add of the
// entry's strings would, found by lookups, and that HashOf gives Hash and
// a value hash that depends on the seed and the value only.
func TestDuplicateAndHashOf(t *testing.T) {
	var a, b Table
	a.InitSeeded(200, 42)
	b.InitSeeded(200, 42)
	h, vh := a.HashOf("name", "value")
	if h != a.Hash("name", "value") {
		t.Fatalf("HashOf's Hash %v, Hash %v", h, a.Hash("name", "value"))
	}
	if _, vh2 := b.HashOf("other", "value"); vh2 != vh {
		t.Fatalf("value hash %x, with another name and table %x", vh2, vh)
	}
	for i := range 20 {
		a.AddString("name", "v"+strconv.Itoa(i))
		b.AddString("name", "v"+strconv.Itoa(i))
		abs := a.Inserted() - 1 - uint64(i%3)
		if !a.Duplicate(abs) {
			t.Fatalf("Duplicate(%d) failed", abs)
		}
		n, v, _ := b.Abs(abs)
		b.Add(n, v)
		if a.Inserted() != b.Inserted() || a.Size() != b.Size() {
			t.Fatalf("after Duplicate: %d entries, size %d; with Add %d, %d", a.Inserted(), a.Size(), b.Inserted(), b.Size())
		}
		for x := a.Inserted() - uint64(a.Len()); x < a.Inserted(); x++ {
			n1, v1, _ := a.Abs(x)
			n2, v2, _ := b.Abs(x)
			if string(n1) != string(n2) || string(v1) != string(v2) {
				t.Fatalf("entry %d: %q %q, with Add %q %q", x, n1, v1, n2, v2)
			}
			got, exact, _ := a.Lookup(string(n1), string(v1), 0, a.Inserted())
			want, _, _ := b.Lookup(string(n1), string(v1), 0, b.Inserted())
			if !exact || got != want {
				t.Fatalf("lookup of entry %d: %d %v, with Add %d", x, got, exact, want)
			}
		}
	}
	if a.Duplicate(a.Inserted()) {
		t.Fatal("Duplicate of an entry not inserted yet succeeded")
	}
}

// TestLookupExactID checks LookupExactID against HashID and LookupExact,
// over random inserts keyed by ID and random ranges.
func TestLookupExactID(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var tb Table
	tb.Init(512, true)
	for range 5000 {
		id := 1 + r.IntN(3)
		name, value := "n"+strconv.Itoa(id), "v"+strconv.Itoa(r.IntN(8))
		if r.IntN(3) == 0 {
			tb.AddHashed(tb.HashID(id, name, value), name, value)
		}
		lo := tb.Inserted() - uint64(r.IntN(tb.Len()+1))
		hi := tb.Inserted() - uint64(r.IntN(int(tb.Inserted()-lo)+1))
		want := tb.HashID(id, name, value)
		wabs, wok := tb.LookupExact(want, name, value, lo, hi)
		h, abs, ok := tb.LookupExactID(id, name, value, lo, hi)
		if h != want || ok != wok || ok && abs != wabs {
			t.Fatalf("LookupExactID %d %q [%d,%d) = %v %d %v, want %v %d %v", id, value, lo, hi, h, abs, ok, want, wabs, wok)
		}
	}
}

// TestDuplicateRandom checks Duplicate against Add of a copy of the
// entry's strings, duplicating any live entry, the oldest too (whose bytes
// the copy may overwrite or a grown arena may leave behind), in tables
// small enough to wrap and grow.
// TestDuplicateEmpty duplicates entries with no bytes (an empty name and
// value: 32 bytes of overhead alone), in a table whose arena was never
// needed and at the end of a full one: fuzzing found the first panicking.
func TestDuplicateEmpty(t *testing.T) {
	var a Table
	a.Init(100, true)
	a.AddString("", "")
	if !a.Duplicate(0) || a.Len() != 2 {
		t.Fatalf("Duplicate of an empty entry in an empty arena: %d entries", a.Len())
	}
	var b Table
	b.Init(96, true)
	b.AddString("abcd", "efghijklmnopqrstuvwxyz0123456789")
	b.AddString("", "")
	if !b.Duplicate(1) || b.Len() != 2 {
		t.Fatalf("Duplicate of an empty entry after a full arena: %d entries", b.Len())
	}
	if n, v, ok := b.Abs(2); !ok || len(n)+len(v) != 0 {
		t.Fatalf("the copy: %q %q %v", n, v, ok)
	}
}

func TestDuplicateRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 50 {
		var a, b Table
		capacity := 64 + r.IntN(400)
		a.Init(capacity, true)
		b.Init(capacity, true)
		for op := range 400 {
			if a.Len() > 0 && r.IntN(2) == 0 {
				abs := a.Inserted() - 1 - uint64(r.IntN(a.Len()))
				if r.IntN(3) == 0 {
					abs = a.Inserted() - uint64(a.Len()) // the oldest
				}
				n, v, _ := a.Abs(abs)
				n, v = append([]byte(nil), n...), append([]byte(nil), v...)
				if a.Duplicate(abs) != b.Add(n, v) {
					t.Fatalf("round %d op %d: Duplicate(%d) and Add disagree", round, op, abs)
				}
			} else {
				name := strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(12))
				value := strconv.Itoa(r.IntN(1000)) + strings.Repeat("x", r.IntN(80))
				if r.IntN(8) == 0 {
					value = "" // and, with an empty name, an entry with no bytes
				}
				a.AddString(name, value)
				b.AddString(name, value)
			}
			if a.Inserted() != b.Inserted() || a.Len() != b.Len() || a.Size() != b.Size() {
				t.Fatalf("round %d op %d: %d/%d entries, size %d; with Add %d/%d, %d", round, op, a.Inserted(), a.Len(), a.Size(), b.Inserted(), b.Len(), b.Size())
			}
			for x := a.Inserted() - uint64(a.Len()); x < a.Inserted(); x++ {
				n1, v1, _ := a.Abs(x)
				n2, v2, _ := b.Abs(x)
				if string(n1) != string(n2) || string(v1) != string(v2) {
					t.Fatalf("round %d op %d: entry %d %q %q, with Add %q %q", round, op, x, n1, v1, n2, v2)
				}
				if got, exact, _ := a.Lookup(string(n1), string(v1), 0, a.Inserted()); !exact || !bytesEqualAt(&a, got, n1, v1) {
					t.Fatalf("round %d op %d: lookup of entry %d: %d %v", round, op, x, got, exact)
				}
			}
		}
	}
}

func bytesEqualAt(t *Table, abs uint64, name, value []byte) bool {
	n, v, ok := t.Abs(abs)
	return ok && string(n) == string(name) && string(v) == string(value)
}
