package fastpath

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// sunk is one field as a SinkList holds it, for cmp.Diff.
type sunk struct {
	Name, Value string
	F           Flags
}

func contents(s *SinkList) []sunk {
	var out []sunk
	for i := range s.Len() {
		n, v, f := s.At(i)
		out = append(out, sunk{string(n), string(v), f})
	}
	return out
}

func genSection() gopter.Gen {
	return gen.SliceOf(gopter.CombineGens(
		gen.OneConstOf("", ":status", "content-type", "x-a", "set-cookie"),
		gen.AlphaString(), gen.UInt32(),
	).Map(func(v []any) sunk { return sunk{v[0].(string), v[1].(string), Flags(v[2].(uint32))} }))
}

func TestSinkListModel(t *testing.T) {
	p := propertiesSized(t, 500, 24) // sections of sections: keep it quick
	s := NewSinkList(8, 256)         // small bounds, so sections cross them
	p.Property("SinkList holds what it was given, section after section", prop.ForAll(
		func(sections [][]sunk) string {
			for _, sec := range sections {
				s.Reset()
				total := 0
				for _, f := range sec {
					// The caller's buffers are reused: the list must copy.
					name, value := []byte(f.Name), []byte(f.Value)
					if err := s.Field(name, value, f.F); err != nil {
						return err.Error()
					}
					copy(name, bytes.Repeat([]byte{'#'}, len(name)))
					copy(value, bytes.Repeat([]byte{'#'}, len(value)))
					total += len(f.Name) + len(f.Value)
				}
				if d := cmp.Diff(sec, contents(s), cmpopts.EquateEmpty()); d != "" {
					return d
				}
				if s.Bytes() != total {
					return fmt.Sprintf("Bytes %d, want %d", s.Bytes(), total)
				}
				for _, name := range []string{":status", "x-a", "missing"} {
					var want []byte
					found := false
					for _, f := range sec {
						if f.Name == name {
							want, found = []byte(f.Value), true
							break
						}
					}
					got, ok := s.Get(name)
					if ok != found || !bytes.Equal(got, want) {
						return fmt.Sprintf("Get(%q) = %q, %v", name, got, ok)
					}
				}
			}
			return ""
		},
		gen.SliceOf(genSection()),
	))
	p.TestingRun(t)
}

func TestSinkListStable(t *testing.T) {
	// Slices from At stay valid while the list grows.
	var s SinkList
	s.Field([]byte("first"), []byte("value"), 0)
	n0, v0, _ := s.At(0)
	for i := range 1000 {
		s.Field([]byte(fmt.Sprint("name", i)), []byte(strings.Repeat("v", i)), 0)
	}
	if string(n0) != "first" || string(v0) != "value" {
		t.Errorf("At(0) changed while growing: %q %q", n0, v0)
	}
	// Appending to a returned slice does not overwrite the next field.
	_ = append(n0, 'X')
	if n, _, _ := s.At(0); string(n) != "first" {
		t.Errorf("append to name overwrote the arena: %q", n)
	}
	if _, v, _ := s.At(1); string(v) != "" {
		t.Errorf("field 1 value %q", v)
	}
}

var fillName, fillValue = []byte("x-field"), bytes.Repeat([]byte("v"), 100)

// fill adds fields fields named x-field, with values of valueLen bytes.
func fill(s *SinkList, fields, valueLen int) {
	for range fields {
		s.Field(fillName, fillValue[:valueLen], 0)
	}
}

func TestSinkListRelease(t *testing.T) {
	type caps struct{ Fields, Bytes int }
	get := func(s *SinkList) caps { f, b := s.capacity(); return caps{f, b} }
	for _, c := range []struct {
		name       string
		s          *SinkList
		keep       caps
		big, small [2]int // fields, value length
	}{
		{"zero value", &SinkList{}, caps{defaultKeepFields, defaultKeepBytes}, [2]int{1000, 100}, [2]int{20, 100}},
		{"NewSinkList(0, 0)", NewSinkList(0, 0), caps{defaultKeepFields, defaultKeepBytes}, [2]int{1000, 100}, [2]int{20, 100}},
		{"NewSinkList(0, -1)", NewSinkList(0, -1), caps{defaultKeepFields, 0}, [2]int{1000, 1}, [2]int{0, 0}},
		{"NewSinkList(4, 64)", NewSinkList(4, 64), caps{4, 64}, [2]int{10, 10}, [2]int{3, 5}},
		{"NewSinkList(-1, -1)", NewSinkList(-1, -1), caps{0, 0}, [2]int{2, 1}, [2]int{0, 0}},
	} {
		s := c.s
		// Within the bounds, the capacity is kept as it is.
		fill(s, c.small[0], c.small[1])
		before := get(s)
		s.Reset()
		if got := get(s); got != before {
			t.Errorf("%s: small section: Reset changed capacity %+v to %+v", c.name, before, got)
		}
		// Past them, it is cut back to the bound.
		fill(s, c.big[0], c.big[1])
		if got := get(s); got.Fields <= c.keep.Fields || got.Bytes <= c.keep.Bytes {
			t.Fatalf("%s: big section did not grow past the bounds: %+v", c.name, got)
		}
		s.Reset()
		if got := get(s); got != c.keep {
			t.Errorf("%s: after a big section Reset kept %+v, want %+v", c.name, got, c.keep)
		}
		if s.Len() != 0 || s.Bytes() != 0 {
			t.Errorf("%s: Reset left %d fields, %d bytes", c.name, s.Len(), s.Bytes())
		}
		// A section within the bounds then needs no allocation.
		allocs := testing.AllocsPerRun(20, func() {
			s.Reset()
			fill(s, c.small[0], c.small[1])
		})
		if allocs != 0 {
			t.Errorf("%s: section within bounds after release: %v allocs", c.name, allocs)
		}
	}
}

func TestSinkListAllocs(t *testing.T) {
	var s SinkList
	var sink Sink = &s
	name, value := []byte("content-type"), []byte("text/html; charset=utf-8")
	section := func() {
		s.Reset()
		for range 30 {
			if err := sink.Field(name, value, NeverIndex); err != nil {
				t.Fatal(err)
			}
		}
		for i := range s.Len() {
			if n, _, _ := s.At(i); len(n) == 0 {
				t.Fatal("empty name")
			}
		}
		if _, ok := s.Get("content-type"); !ok {
			t.Fatal("Get")
		}
	}
	section() // warm
	if allocs := testing.AllocsPerRun(100, section); allocs != 0 {
		t.Errorf("warm SinkList section: %v allocs per run", allocs)
	}
}
