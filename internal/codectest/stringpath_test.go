package codectest

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// TestStringPath: the copy holds the same fields in the same order, each
// raw Content-Length as its decimal string with the same flags, and stands
// where the original stands, wherever that is.
func TestStringPath(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	type field struct {
		name, value string
		f           fastpath.Flags
	}
	var l fastpath.FieldList
	for range 500 {
		l.Reset()
		var want []field
		for range r.Intn(8) {
			if r.Intn(3) == 0 {
				n := r.Int63n(1 << 40)
				l.AddContentLength(n)
				_, _, f, _ := l.At(l.Len() - 1)
				want = append(want, field{"content-length", strconv.FormatInt(n, 10), f})
				continue
			}
			fl := RandFlags(r, 4)
			name, value := "x-"+strconv.Itoa(r.Intn(5)), strconv.Itoa(r.Intn(1000))
			l.Add(name, value, fl)
			want = append(want, field{name, value, fl})
		}
		skip := r.Intn(len(want) + 2)
		for range skip {
			l.Next()
		}
		s := StringPath(&l)
		if s.Pos() != l.Pos() || s.Len() != len(want) {
			t.Fatalf("copy at %d of %d fields, original at %d of %d", s.Pos(), s.Len(), l.Pos(), len(want))
		}
		s.Rewind()
		for i := 0; s.Next(); i++ {
			name, value, f := s.Field()
			if _, _, _, raw := s.At(i); raw >= 0 || (field{name, value, f}) != want[i] {
				t.Fatalf("field %d: %q %q %v (raw %d), want %+v", i, name, value, f, raw, want[i])
			}
		}
	}
}
