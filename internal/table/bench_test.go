package table

import (
	"fmt"
	"testing"
)

// benchFields are response-like fields, enough to cycle a 4 KiB table.
func benchFields() (names, values [][]byte) {
	for i := range 256 {
		names = append(names, fmt.Appendf(nil, "x-custom-header-%d", i%40))
		values = append(values, fmt.Appendf(nil, "value-%d-%0*d", i, i%50, 7))
	}
	return
}

func benchAdd(b *testing.B, indexed bool) {
	names, values := benchFields()
	var t Table
	t.Init(4096, indexed)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t.Add(names[i&255], values[i&255])
	}
}

func BenchmarkAdd(b *testing.B)        { benchAdd(b, false) }
func BenchmarkAddIndexed(b *testing.B) { benchAdd(b, true) }

func BenchmarkGet(b *testing.B) {
	names, values := benchFields()
	var t Table
	t.Init(4096, false)
	for i := range 256 {
		t.Add(names[i], values[i])
	}
	n := uint64(t.Len())
	b.ReportAllocs()
	for i := uint64(0); b.Loop(); i++ {
		t.Get(i % n)
	}
}

func BenchmarkLookup(b *testing.B) {
	names, values := benchFields()
	var t Table
	t.Init(4096, true)
	for i := range 256 {
		t.Add(names[i], values[i])
	}
	// Half hit exactly, a quarter by name only, a quarter miss.
	var qn, qv []string
	for i := range 256 {
		switch i % 4 {
		case 0, 1:
			qn, qv = append(qn, string(names[i])), append(qv, string(values[i]))
		case 2:
			qn, qv = append(qn, string(names[i])), append(qv, "other")
		case 3:
			qn, qv = append(qn, "x-missing"), append(qv, "v")
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t.Lookup(qn[i&255], qv[i&255], 0, t.Inserted())
	}
}
