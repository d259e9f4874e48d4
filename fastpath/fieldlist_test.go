package fastpath

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// entry is what an Enumerator reports for one field.
type entry struct {
	Name, Value string
	F           Flags
	N           int64
	Raw         bool
}

// drain enumerates e from its current position to the end.
func drain(e Enumerator) []entry {
	var out []entry
	for e.Next() {
		var x entry
		x.Name, x.Value, x.F = e.Field()
		x.N, x.Raw = e.ContentLength()
		out = append(out, x)
	}
	return out
}

// op is one field to add: a raw Content-Length when Raw is set.
type op struct {
	Name, Value string
	F           Flags
	N           int64
	Raw         bool
}

func genOps() gopter.Gen {
	field := gopter.CombineGens(
		gen.OneConstOf("content-type", "content-length", "x-custom", ":status", ""),
		gen.OneConstOf("", "200", "text/html", "0"), gen.UInt32Range(0, 7), gen.Int64Range(0, math.MaxInt64), gen.Bool(),
	).Map(func(v []any) op {
		return op{v[0].(string), v[1].(string), Flags(v[2].(uint32)), v[3].(int64), v[4].(bool)}
	})
	return gen.SliceOf(field)
}

func build(l *FieldList, ops []op) (want []entry) {
	for _, o := range ops {
		if o.Raw {
			l.AddContentLength(o.N)
			want = append(want, entry{"content-length", "", NoIndex.WithID(static.ContentLength), o.N, true})
		} else {
			l.Add(o.Name, o.Value, o.F)
			want = append(want, entry{o.Name, o.Value, o.F, 0, false})
		}
	}
	return want
}

func TestFieldListModel(t *testing.T) {
	p := properties(t, 500)
	var l FieldList // reused across runs: Reset must leave nothing behind
	p.Property("FieldList enumerates what was added", prop.ForAll(
		func(ops []op) string {
			l.Reset()
			want := build(&l, ops)
			if l.Len() != len(ops) || l.Pos() != -1 {
				return "Len or Pos wrong after building"
			}
			if d := cmp.Diff(want, drain(&l), cmpopts.EquateEmpty()); d != "" {
				return d
			}
			if l.Pos() != l.Len() || l.Next() || l.Pos() != l.Len() {
				return "not at the end after draining"
			}
			if n, v, f := l.Field(); n != "" || v != "" || f != 0 {
				return "Field past the end"
			}
			if _, ok := l.ContentLength(); ok {
				return "ContentLength past the end"
			}
			l.Rewind()
			return cmp.Diff(want, drain(&l), cmpopts.EquateEmpty())
		},
		genOps(),
	))
	p.TestingRun(t)
}

func TestFieldListAddID(t *testing.T) {
	var l FieldList
	l.AddID(static.ContentType, "text/html", NeverIndex)
	l.Next()
	name, value, f := l.Field()
	if name != "content-type" || value != "text/html" || f != NeverIndex.WithID(static.ContentType) {
		t.Errorf("AddID: %q %q %#x", name, value, f)
	}
	for _, id := range []static.FieldID{static.None, static.MaxFieldID + 1} {
		msg := panicMessage(func() { l.AddID(id, "x", 0) })
		if !strings.Contains(msg, "AddID") {
			t.Errorf("AddID(%v): panic %q", id, msg)
		}
	}
}

func TestFieldListNegativeContentLength(t *testing.T) {
	var l FieldList
	msg := panicMessage(func() { l.AddContentLength(-1) })
	if !strings.Contains(msg, "negative Content-Length -1") {
		t.Errorf("AddContentLength(-1): panic %q", msg)
	}
	if l.Len() != 0 {
		t.Errorf("AddContentLength(-1) added a field")
	}
}

func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func TestFieldListAllocs(t *testing.T) {
	var l FieldList
	fill := func() {
		l.Reset()
		l.Add(":status", "200", 0)
		l.Add("content-type", "text/html; charset=utf-8", 0)
		l.AddContentLength(1024)
		l.Add("set-cookie", "a=b", NeverIndex)
	}
	fill() // grow once
	var sink int64
	allocs := testing.AllocsPerRun(100, func() {
		fill()
		var e Enumerator = &l
		for e.Next() {
			name, value, _ := e.Field()
			n, _ := e.ContentLength()
			sink += int64(len(name)+len(value)) + n
		}
	})
	if allocs != 0 {
		t.Errorf("FieldList build and iteration: %v allocs per run", allocs)
	}
	_ = sink
}

func TestFieldListAtSeek(t *testing.T) {
	var l FieldList
	l.Add("a", "1", NoIndex)
	l.AddContentLength(42)
	l.Add("b", "2", 0)
	if n, v, f, raw := l.At(1); n != "content-length" || v != "" || f != contentLengthFlags || raw != 42 {
		t.Errorf("At(1) = %q %q %v %d", n, v, f, raw)
	}
	if _, _, _, raw := l.At(2); raw != -1 {
		t.Errorf("At(2) raw = %d, want -1", raw)
	}
	if l.Pos() != -1 {
		t.Errorf("At moved the position to %d", l.Pos())
	}
	for _, c := range []struct{ seek, pos int }{{1, 1}, {-1, -1}, {-5, -1}, {2, 2}, {7, 3}} {
		l.Seek(c.seek)
		if l.Pos() != c.pos {
			t.Errorf("Seek(%d): Pos %d, want %d", c.seek, l.Pos(), c.pos)
		}
	}
	l.Seek(0)
	if n, _, _ := l.Field(); n != "a" || !l.Next() {
		t.Errorf("after Seek(0): field %q", n)
	}
	if n, ok := l.ContentLength(); !ok || n != 42 {
		t.Errorf("after Seek(0), Next: ContentLength %d %v", n, ok)
	}
	l.Seek(2)
	if l.Next() {
		t.Error("Next after Seek to the last field: true")
	}
}

// Reset clears nothing while sections keep their length, but a longer
// section's extra fields are dropped by the Reset after a shorter one, so
// a list does not keep old strings alive for good.
func TestFieldListResetReleases(t *testing.T) {
	var l FieldList
	fill := func(n int, v string) {
		l.Reset()
		for range n {
			l.Add("x", v, 0)
		}
	}
	stale := func() (n int) {
		for _, f := range l.fields[len(l.fields):cap(l.fields)] {
			if f != (listField{}) {
				n++
			}
		}
		return n
	}
	fill(6, "long")
	fill(2, "short")
	if got := stale(); got != 4 {
		t.Fatalf("after a 6- then a 2-field section: %d slots past the list hold strings, want 4 (kept until the next Reset)", got)
	}
	l.Reset()
	if got := stale() - 2; got != 0 {
		t.Errorf("after the next Reset: %d slots past the short section still hold strings", got)
	}
	for i, f := range l.fields[:cap(l.fields)] {
		if i >= 2 && f != (listField{}) {
			t.Errorf("slot %d still holds %q", i, f.value)
		}
	}
}
