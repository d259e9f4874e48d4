package trace

import (
	"testing"
	"unsafe"
)

// TestTraces checks the traces' sizes, which bench/README.md quotes.
func TestTraces(t *testing.T) {
	for _, c := range []struct {
		name         string
		l            *loader
		conns, lists int
	}{
		{"HPACK lists", &hpackLists, 32, 3384},
		{"HPACK blocks", &hpackBlocks, 6*32 - 1, 20187},
		{"QPACK lists", &qpackLists, 6, 1568},
	} {
		tr := c.l.get(t)
		if len(tr.Conns) != c.conns || tr.Lists() != c.lists {
			t.Errorf("%s: %d connections, %d lists; want %d, %d", c.name, len(tr.Conns), tr.Lists(), c.conns, c.lists)
		}
	}
}

// TestCopy checks that copies keep every string's contents: a Fresh copy
// at a place of its own for each, an Interned one at one place for equal
// contents.
func TestCopy(t *testing.T) {
	tr := qpackLists.get(t)
	for _, s := range []Strings{Fresh, Interned} {
		c := tr.Copy(s)
		at := map[string]*byte{}
		places, strs := 0, 0
		for ci, conn := range tr.Conns {
			for i, l := range conn.Lists {
				got := c.Conns[ci].Lists[i].Fields
				for j, h := range l.Fields {
					if got[j] != h {
						t.Fatalf("%v: %s list %d field %d: %q, want %q", s, conn.Name, i, j, got[j], h)
					}
					for _, v := range []string{got[j].Name, got[j].Value} {
						if v == "" {
							continue
						}
						strs++
						if p, ok := at[v]; !ok || p != unsafe.StringData(v) {
							places++
						}
						at[v] = unsafe.StringData(v)
					}
				}
			}
		}
		want := strs // Fresh: every string at a place of its own
		if s == Interned {
			want = len(at)
		}
		if places != want {
			t.Errorf("%v: %d strings at %d places, want %d", s, strs, places, want)
		}
	}
}
