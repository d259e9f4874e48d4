package table

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// model is the reference: a plain slice of entries, oldest first.
type model struct {
	capacity int
	first    uint64 // absolute index of ents[0]
	ents     []modelEntry
}

type modelEntry struct {
	name, value string
	tag         uint8
}

func (m *model) size() int {
	s := 0
	for _, e := range m.ents {
		s += len(e.name) + len(e.value) + Overhead
	}
	return s
}

func (m *model) inserted() uint64 { return m.first + uint64(len(m.ents)) }

func (m *model) evict() {
	m.ents = m.ents[1:]
	m.first++
}

func (m *model) setCapacity(c int) {
	m.capacity = max(c, 0)
	for m.size() > m.capacity {
		m.evict()
	}
}

func (m *model) add(name, value string) bool { return m.addTagged(name, value, 0) }

func (m *model) addTagged(name, value string, tag uint8) bool {
	sz := len(name) + len(value) + Overhead
	if sz > m.capacity {
		m.first += uint64(len(m.ents))
		m.ents = nil
		return false
	}
	for m.size()+sz > m.capacity {
		m.evict()
	}
	m.ents = append(m.ents, modelEntry{name, value, tag})
	return true
}

func (m *model) evicting(size int) (int, bool) {
	if size > m.capacity {
		return len(m.ents), false
	}
	n, s := 0, m.size()
	for s+size > m.capacity {
		s -= len(m.ents[n].name) + len(m.ents[n].value) + Overhead
		n++
	}
	return n, true
}

func (m *model) lookup(name, value string, lo, hi uint64) (uint64, bool, bool) {
	var nameAbs uint64
	nameFound := false
	for i := len(m.ents) - 1; i >= 0; i-- {
		abs := m.first + uint64(i)
		if abs < lo || abs >= hi {
			continue
		}
		e := m.ents[i]
		if e.name == name && e.value == value {
			return abs, true, true
		}
		if e.name == name && !nameFound {
			nameAbs, nameFound = abs, true
		}
	}
	return nameAbs, false, nameFound
}

// check compares every observable of t with m.
func check(t *Table, m *model) string {
	if t.Capacity() != m.capacity || t.Size() != m.size() || t.Len() != len(m.ents) || t.Inserted() != m.inserted() {
		return fmt.Sprintf("cap %d/%d size %d/%d len %d/%d inserted %d/%d",
			t.Capacity(), m.capacity, t.Size(), m.size(), t.Len(), len(m.ents), t.Inserted(), m.inserted())
	}
	for i, e := range m.ents {
		abs := m.first + uint64(i)
		n, v, ok := t.Abs(abs)
		if !ok || string(n) != e.name || string(v) != e.value {
			return fmt.Sprintf("Abs(%d) = %q %q %v, want %q %q", abs, n, v, ok, e.name, e.value)
		}
		if gn, gv, ok := t.Get(uint64(len(m.ents) - 1 - i)); !ok || string(gn) != e.name || string(gv) != e.value {
			return fmt.Sprintf("Get(%d) = %q %q %v", len(m.ents)-1-i, gn, gv, ok)
		}
		n, v, tag, ok := t.GetTagged(uint64(len(m.ents) - 1 - i))
		if !ok || string(n) != e.name || string(v) != e.value || tag != e.tag || cap(n) != len(n) || cap(v) != len(v) {
			return fmt.Sprintf("Get(%d) = %q %q %d %v, want %q %q %d", len(m.ents)-1-i, n, v, tag, ok, e.name, e.value, e.tag)
		}
	}
	if _, _, _, ok := t.GetTagged(uint64(len(m.ents))); ok {
		return "Get past the end succeeded"
	}
	if _, _, ok := t.Abs(m.inserted()); ok {
		return "Abs(Inserted) succeeded"
	}
	if m.first > 0 {
		if _, _, ok := t.Abs(m.first - 1); ok {
			return "Abs of an evicted entry succeeded"
		}
	}
	return ""
}

var (
	names      = []string{"", "a", "b", "cc", "ddd", "content-type", "x-long-name-for-tests"}
	values     = []string{"", "1", "22", "text/html", "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"}
	capacities = []int{0, 31, 32, 33, 40, 64, 100, 150, 256, 300, 1000, 4096}
)

// pick returns a string derived from r: from a small pool (so lookups hit)
// or of a length near the capacity.
func pick(pool []string, r uint64, capacity int) string {
	if r%8 == 7 {
		n := int(r >> 3 % uint64(capacity+8)) // the remainder before int: ints may have 32 bits
		return strings.Repeat(string(rune('p'+r>>12%4)), n)
	}
	return pool[r%uint64(len(pool))]
}

// run applies the operations encoded in ops to a Table and to the model.
func run(ops []uint64, indexed bool) string {
	var t Table
	m := &model{capacity: 256}
	t.Init(256, indexed)
	for step, op := range ops {
		r := op >> 4
		switch op % 16 {
		case 0, 1, 2, 3, 4:
			n, v := pick(names, r, m.capacity), pick(values, r>>16, m.capacity)
			tag := uint8(r >> 40)
			if got, want := t.AddTagged([]byte(n), []byte(v), tag), m.addTagged(n, v, tag); got != want {
				return fmt.Sprintf("step %d: Add = %v, want %v", step, got, want)
			}
		case 5, 6:
			n, v := pick(names, r, m.capacity), pick(values, r>>16, m.capacity)
			if got, want := t.AddString(n, v), m.add(n, v); got != want {
				return fmt.Sprintf("step %d: AddString = %v, want %v", step, got, want)
			}
		case 7, 8, 9:
			// Add with name and value aliasing entries of t, often the
			// oldest, which this insert may evict.
			if t.Len() == 0 {
				continue
			}
			rel1 := uint64(t.Len() - 1)
			if r%2 == 0 {
				rel1 = r >> 1 % uint64(t.Len())
			}
			rel2 := r >> 8 % uint64(t.Len())
			n1, v1, _ := t.Get(rel1)
			_, v2, _ := t.Get(rel2)
			name := n1[r>>16%uint64(len(n1)+1):]
			value := v2
			if r>>24%2 == 0 {
				value = v1[:r>>25%uint64(len(v1)+1)]
			}
			ns, vs := string(name), string(value)
			if got, want := t.Add(name, value), m.add(ns, vs); got != want {
				return fmt.Sprintf("step %d: aliased Add = %v, want %v", step, got, want)
			}
		case 10:
			c := capacities[r%uint64(len(capacities))]
			t.SetCapacity(c)
			m.setCapacity(c)
		case 11:
			size := int(r % uint64(m.capacity+40))
			lim := t.Inserted() - uint64(t.Len()) + r>>32%8
			wn, wf := m.evicting(size)
			if got, want := t.EvictsBelow(size, lim), wf && (wn == 0 || t.Inserted()-uint64(t.Len())+uint64(wn)-1 < lim); got != want {
				return fmt.Sprintf("step %d: EvictsBelow(%d, %d) = %v, want %v (evicting %d, fits %v)", step, size, lim, got, want, wn, wf)
			}
		case 12, 13:
			n, v := names[r%uint64(len(names))], values[r>>8%uint64(len(values))]
			if r>>16%2 == 0 && t.Len() > 0 {
				bn, bv, _ := t.Get(r >> 17 % uint64(t.Len()))
				n, v = string(bn), string(bv)
			}
			lo, hi := uint64(0), t.Inserted()
			if r>>32%2 == 0 {
				span := m.inserted() + 2
				lo, hi = r>>33%span, r>>45%span
			}
			ga, ge, gf := t.Lookup(n, v, lo, hi)
			wa, we, wf := m.lookup(n, v, lo, hi)
			if !indexed {
				wa, we, wf = 0, false, false
			}
			if ga != wa || ge != we || gf != wf {
				return fmt.Sprintf("step %d: Lookup(%q, %q, %d, %d) = %d %v %v, want %d %v %v", step, n, v, lo, hi, ga, ge, gf, wa, we, wf)
			}
		case 14:
			c := capacities[r%uint64(len(capacities))]
			t.Init(c, indexed)
			*m = model{capacity: c}
		case 15:
			// An entry of exactly the capacity, or just over it.
			rest := max(m.capacity-Overhead, 0)
			if r%2 == 1 {
				rest++
			}
			n := min(int(r>>1%uint64(rest+1)), rest)
			name, value := strings.Repeat("e", n), strings.Repeat("f", rest-n)
			if got, want := t.AddString(name, value), m.add(name, value); got != want {
				return fmt.Sprintf("step %d: exact Add = %v, want %v", step, got, want)
			}
		}
		if msg := check(&t, m); msg != "" {
			return fmt.Sprintf("step %d (op %d): %s", step, op%16, msg)
		}
	}
	return ""
}

func TestModel(t *testing.T) {
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 400
	params.MaxSize = 300
	props := gopter.NewProperties(params)
	props.Property("indexed table matches the model", prop.ForAll(
		func(ops []uint64) string { return run(ops, true) },
		gen.SliceOf(gen.UInt64()),
	))
	props.Property("plain table matches the model", prop.ForAll(
		func(ops []uint64) string { return run(ops, false) },
		gen.SliceOf(gen.UInt64()),
	))
	props.Property("tight arenas match the model", prop.ForAll(runTight, gen.SliceOf(gen.UInt8())))
	props.Property("growing arenas match the model", prop.ForAll(runWide, gen.SliceOf(gen.UInt32())))
	props.TestingRun(t)
}

// runWide mixes capacity changes with entries of any size up to 140 bytes,
// many of them empty, so the arena often fills exactly while it grows.
func runWide(ops []uint32) string {
	var t Table
	m := &model{capacity: 64}
	t.Init(64, true)
	for step, op := range ops {
		if op%10 == 0 {
			c := int(op>>4) % 700
			t.SetCapacity(c)
			m.setCapacity(c)
		} else {
			d := int(op>>4) % 140
			if op%3 == 0 {
				d = 0
			}
			v := strings.Repeat(string(rune('a'+step%26)), d)
			t.AddString("", v)
			m.add("", v)
		}
		if msg := check(&t, m); msg != "" {
			return fmt.Sprintf("step %d: %s", step, msg)
		}
	}
	return ""
}

// runTight inserts entries whose sizes come from a small set into small
// tables, so that the arena often fills exactly, wraps, and holds empty
// entries at its edges.
func runTight(ops []uint8) string {
	sizes := []int{0, 0, 1, 4, 8, 16, 34, 36, 68}
	caps := []int{64, 100, 132, 200, 236, 300}
	var t Table
	m := &model{capacity: 200}
	t.Init(200, true)
	for step, op := range ops {
		if op%16 == 15 {
			c := caps[int(op>>4)%len(caps)]
			t.SetCapacity(c)
			m.setCapacity(c)
		} else {
			d := sizes[int(op)%len(sizes)]
			k := min(d, int(op>>4)%4)
			v := strings.Repeat(string(rune('a'+step%26)), d-k)
			t.AddString(v[:0]+strings.Repeat("n", k), v)
			m.add(strings.Repeat("n", k), v)
		}
		if msg := check(&t, m); msg != "" {
			return fmt.Sprintf("step %d: %s", step, msg)
		}
	}
	return ""
}

// TestWideRandom runs many short runWide sequences: the exact fills it
// looks for are rare, and many short runs find them faster than gopter's
// growing sizes.
func TestWideRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ops := make([]uint32, 60)
	for i := range 20000 {
		for j := range ops {
			ops[j] = r.Uint32()
		}
		if msg := runWide(ops); msg != "" {
			t.Fatalf("run %d: %s", i, msg)
		}
	}
}

func TestAliasEvicted(t *testing.T) {
	var tb Table
	tb.Init(100, true)
	for i := range 100 {
		if i%10 == 0 {
			// Start over at varied offsets, with an entry that fills the table.
			tb.AddString(strings.Repeat("x", i%7), "")
			tb.AddString(strings.Repeat("n", 30+i%3), strings.Repeat("v", 30-i%3))
		}
		// The new entry evicts the one its bytes come from, and the arena
		// space it goes to is that entry's.
		n, v, _ := tb.Get(0)
		name, value := n[1:], v[:len(v)-1]
		wantN, wantV := string(name), string(value)
		if !tb.Add(name, value) {
			t.Fatal("Add failed")
		}
		if gn, gv, _ := tb.Get(0); string(gn) != wantN || string(gv) != wantV || tb.Len() != 1 {
			t.Fatalf("step %d: got %q %q (len %d), want %q %q", i, gn, gv, tb.Len(), wantN, wantV)
		}
		if len(wantV) == 0 {
			tb.AddString(strings.Repeat("n", 31), strings.Repeat("v", 31))
		}
	}
}

func TestOverlaps(t *testing.T) {
	b := make([]byte, 10)
	cases := []struct {
		x, y []byte
		want bool
	}{
		{b[0:5], b[5:10], false},
		{b[0:6], b[5:10], true},
		{b[5:10], b[0:6], true},
		{b[2:3], b[0:10], true},
		{b[0:0], b[0:10], false},
		{b[0:5], []byte("hello"), false},
	}
	for i, c := range cases {
		if got := overlaps(c.x, c.y); got != c.want {
			t.Errorf("case %d: overlaps = %v", i, got)
		}
	}
}

func TestTooLarge(t *testing.T) {
	var tb Table
	tb.Init(64, false)
	tb.AddString("a", "b")
	tb.AddString("c", "d")
	if tb.AddString("name", strings.Repeat("x", 64-32-4+1)) {
		t.Fatal("oversized entry inserted")
	}
	if tb.Len() != 0 || tb.Size() != 0 || tb.Inserted() != 2 {
		t.Fatalf("after oversized Add: len %d size %d inserted %d", tb.Len(), tb.Size(), tb.Inserted())
	}
	if !tb.AddString("name", strings.Repeat("x", 64-32-4)) || tb.Size() != 64 {
		t.Fatalf("exact-capacity entry: size %d", tb.Size())
	}
	var zero Table
	if zero.AddString("", "") || zero.Capacity() != 0 {
		t.Fatal("zero table accepted an entry")
	}
	if _, _, ok := zero.Get(0); ok {
		t.Fatal("Get on an empty table")
	}
	if _, _, f := zero.Lookup("a", "b", 0, 1); f {
		t.Fatal("Lookup on an empty table")
	}
}

func TestGetIsolated(t *testing.T) {
	var tb Table
	tb.Init(4096, false)
	tb.AddString("aa", "bb")
	tb.AddString("cc", "dd")
	n, _, _ := tb.Abs(0)
	_ = append(n, 'X') // must not write over the value
	if _, v, _ := tb.Abs(0); string(v) != "bb" {
		t.Fatalf("append to a name changed the value: %q", v)
	}
}

func fill(tb *Table, i int) (name, value []byte) {
	name = fmt.Appendf(nil, "x-header-%d", i%50)
	value = bytes.Repeat([]byte{byte('a' + i%26)}, 10+i%40)
	return
}

func TestAllocs(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		var tb Table
		tb.Init(4096, indexed)
		var ns, vs [][]byte
		for i := range 1000 {
			n, v := fill(&tb, i)
			ns, vs = append(ns, n), append(vs, v)
		}
		for i := range 1000 { // warm up
			tb.Add(ns[i], vs[i])
		}
		i := 0
		allocs := testing.AllocsPerRun(1000, func() {
			tb.Add(ns[i%1000], vs[i%1000])
			tb.Get(uint64(i % tb.Len()))
			if indexed {
				tb.Lookup("x-header-7", "hhhhhhhhhhhhhhhhh", 0, tb.Inserted())
			}
			i++
		})
		if allocs != 0 {
			t.Errorf("indexed %v: %v allocs per insert", indexed, allocs)
		}
	}
}

// hugeCapacity is QPACK's largest capacity, 2^62-1, where int holds it
// (a quarter of the int range on 32-bit machines).
const hugeCapacity = int(^uint(0) >> 2)

// TestHugeCapacity: a capacity near the int limit (QPACK allows 2^62)
// costs nothing up front and still inserts in place, without regrowing
// the arena for every entry.
func TestHugeCapacity(t *testing.T) {
	var tb Table
	tb.Init(hugeCapacity, true)
	for i := range 1000 {
		tb.AddString(fmt.Sprint("name-", i), "value")
	}
	arena := len(tb.arena)
	if arena > 64<<10 {
		t.Fatalf("arena of %d bytes for 1000 small entries", arena)
	}
	if a := testing.AllocsPerRun(100, func() { tb.AddString("name-x", "value") }); a != 0 {
		t.Fatalf("%v allocs per insert", a)
	}
	tb.Init(hugeCapacity, false)
	if tb.arena == nil {
		t.Fatal("Init released an arena within the capacity")
	}
	n, v, ok := tb.Get(0)
	if ok || n != nil || v != nil || tb.Len() != 0 {
		t.Fatal("Init kept entries")
	}
}

// TestEmptyEntryAtArenaEnd puts an entry with an empty name and value at
// the very end of the arena, where Bytes makes its slices from the
// address one past the arena's length (run with -d=checkptr to have the
// runtime check that it still points into the array).
func TestEmptyEntryAtArenaEnd(t *testing.T) {
	var tab Table
	tab.Init(4096, false)
	for i := 0; ; i++ {
		if i == 1000 {
			t.Fatal("no empty entry landed at the end of the arena")
		}
		// An entry that ends where the arena does, when it can.
		vlen := 20
		if tab.Len() > 0 {
			if r := len(tab.arena) - tab.Ref(0).end(); r >= 1 && r <= 200 {
				vlen = r - 1
			}
		}
		tab.Add([]byte("x"), bytes.Repeat([]byte("v"), vlen))
		tab.Add(nil, nil)
		if tab.Ref(0).off() != len(tab.arena) {
			continue
		}
		n, v, _, ok := tab.GetTagged(0)
		if !ok || len(n) != 0 || len(v) != 0 || cap(n) != 0 || cap(v) != 0 {
			t.Fatalf("empty entry at the end: %q %q %v", n, v, ok)
		}
		if cap(tab.arena) <= len(tab.arena) {
			t.Fatalf("arena has no byte past its length: len %d cap %d", len(tab.arena), cap(tab.arena))
		}
		return
	}
}

// TestHolds checks Holds against a plain comparison: every length from 0
// to 70 (both sides of Equal's word loop), a byte changed at each place,
// lengths one off, and absolute indexes out of the live range.
func TestHolds(t *testing.T) {
	var tb Table
	tb.Init(1<<16, true)
	type ent struct{ name, value string }
	var ents []ent
	for n := range 71 {
		name := strings.Repeat("n", n%9) + strings.Repeat("x", n/9)
		value := make([]byte, n)
		for i := range value {
			value[i] = byte('a' + (i*7+n)%26)
		}
		if !tb.AddString(name, string(value)) {
			t.Fatalf("entry %d did not fit", n)
		}
		ents = append(ents, ent{name, string(value)})
	}
	for abs, e := range ents {
		a := uint64(abs)
		if !tb.Holds(a, e.name, e.value) {
			t.Fatalf("entry %d: Holds is false for its own bytes", abs)
		}
		for _, s := range []string{e.name, e.value} {
			for i := range len(s) {
				b := []byte(s)
				b[i] ^= 0x20
				n, v := e.name, e.value
				if s == e.name {
					n = string(b)
				} else {
					v = string(b)
				}
				if tb.Holds(a, n, v) {
					t.Fatalf("entry %d: Holds(%q, %q) is true, byte %d differs", abs, n, v, i)
				}
			}
		}
		if tb.Holds(a, e.name, e.value+"a") || tb.Holds(a, e.name+"a", e.value) {
			t.Fatalf("entry %d: Holds is true for a longer string", abs)
		}
		if len(e.value) > 0 && tb.Holds(a, e.name, e.value[1:]) {
			t.Fatalf("entry %d: Holds is true for a shorter value", abs)
		}
	}
	if tb.Holds(uint64(len(ents)), "", "") {
		t.Fatal("Holds is true past the newest entry")
	}
	tb.SetCapacity(0)
	if tb.Holds(0, ents[0].name, ents[0].value) {
		t.Fatal("Holds is true for an evicted entry")
	}
}
