package policy

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
)

// TestTable guards the policy's one table: the names it knows and their
// classes, and the per-index tables the encoders use, at every index (an
// encoder looks up the lowest index of a name, but every index of a name
// must give its class).
func TestTable(t *testing.T) {
	want := map[string]Class{
		":path": NoIndex, "age": NoIndex, "authorization": Never, "cookie": Cookie,
		"etag": NoIndex, "if-modified-since": NoIndex, "if-none-match": NoIndex,
		"location": NoIndex, "set-cookie": NoIndex,
	}
	for id := static.FieldID(0); id <= static.MaxFieldID; id++ {
		if got := Of(id); got != want[id.Name()] {
			t.Errorf("%v: class %d, want %d", id, got, want[id.Name()])
		}
	}
	if Of(static.MaxFieldID+1) != Plain {
		t.Error("an unknown FieldID is not Plain")
	}
	h := ByHPACKIndex()
	for i := 1; i <= static.HPACKLen; i++ {
		e, _ := static.HPACK(uint64(i))
		if h[i] != want[e.Name] {
			t.Errorf("HPACK %d %s: class %d, want %d", i, e.Name, h[i], want[e.Name])
		}
	}
	q := ByQPACKIndex()
	for i := range static.QPACKLen {
		e, _ := static.QPACK(uint64(i))
		if q[i] != want[e.Name] {
			t.Errorf("QPACK %d %s: class %d, want %d", i, e.Name, q[i], want[e.Name])
		}
	}
}

func TestDecide(t *testing.T) {
	cases := []struct {
		x    fastpath.Indexing
		f    fastpath.Flags
		c    Class
		vlen int
		want fastpath.Flags
	}{
		{fastpath.IndexDefault, 0, Plain, 5, 0},
		{fastpath.IndexDefault, fastpath.NeverIndex, Plain, 5, fastpath.NeverIndex},
		{fastpath.IndexAll, fastpath.NeverIndex, Plain, 5, fastpath.NeverIndex},
		{fastpath.IndexAll, fastpath.NoIndex, Plain, 5, fastpath.NoIndex},
		{fastpath.IndexAll, 0, Never, 5, fastpath.Index},
		{fastpath.IndexNone, 0, Plain, 5, fastpath.NoIndex},
		{fastpath.IndexNone, fastpath.Index, Plain, 5, fastpath.Index},
		{fastpath.IndexDefault, 0, NoIndex, 5, fastpath.NoIndex},
		{fastpath.IndexDefault, 0, Never, 5, fastpath.NeverIndex},
		{fastpath.IndexDefault, 0, Cookie, CookieNeverBelow - 1, fastpath.NeverIndex},
		{fastpath.IndexDefault, 0, Cookie, CookieNeverBelow, 0},
		{fastpath.IndexDefault, fastpath.Index, Cookie, 1, fastpath.Index},
	}
	for _, c := range cases {
		if got := Decide(c.x, c.f, c.c, c.vlen); got != c.want {
			t.Errorf("Decide(%v, %v, %d, %d) = %v, want %v", c.x, c.f, c.c, c.vlen, got, c.want)
		}
	}
}
