package hpack

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/hqpack/hqpack/fastpath"
)

// TestEquivalence is the property of DESIGN.md: for every field list, every
// Content-Length, every encoder setting and every buffer size from 1 to
// past the whole section, the raw Content-Length fast path and the string
// path give, call by call, the same result codes, bytes, enumerator
// positions and encoder state.
func TestEquivalence(t *testing.T) {
	properties := gopter.NewProperties(propParams(150))
	properties.Property("fast path == string path", prop.ForAll(
		func(s scenario) string { return checkEquivalence(s) },
		gopter.Gen(genScenario),
	))
	properties.TestingRun(t)
}

// checkEquivalence runs s on two encoders, one fed raw Content-Lengths and
// one fed their strings, at every buffer size; "" when they agree.
func checkEquivalence(s scenario) string {
	longest := 0
	ref := New(s.Config)
	for i, fs := range s.Sections {
		for _, v := range s.Peer[i] {
			ref.SetMaxTableSize(v)
		}
		longest = max(longest, len(ref.AppendSection(nil, fastList(fs))))
	}
	for size := 1; size <= longest+8; size++ {
		if msg := equivalentAt(s, size); msg != "" {
			return fmt.Sprintf("buffer %d: %s", size, msg)
		}
	}
	return ""
}

func equivalentAt(s scenario, size int) string {
	fast, slow := New(s.Config), New(s.Config)
	bf, bs := make([]byte, size), make([]byte, size)
	for i, fs := range s.Sections {
		for _, v := range s.Peer[i] {
			fast.SetMaxTableSize(v)
			slow.SetMaxTableSize(v)
		}
		lf := fastList(fs)
		ls := lf.StringPath()
		nf, rf := fast.Begin(bf, lf)
		ns, rs := slow.Begin(bs, ls)
		for call := 0; ; call++ {
			if msg := same(fast, slow, lf, ls, bf[:nf], bs[:ns], rf, rs); msg != "" {
				return fmt.Sprintf("section %d call %d: %s", i, call, msg)
			}
			if rf == fastpath.Done {
				break
			}
			if rf != fastpath.MoreFields || nf == 0 {
				return fmt.Sprintf("section %d call %d: %v with %d bytes", i, call, rf, nf)
			}
			nf, rf = fast.Continue(bf)
			ns, rs = slow.Continue(bs)
		}
		bf, bs = bf[:size], bs[:size]
	}
	return ""
}

func same(fast, slow *Encoder, lf, ls *fastpath.FieldList, of, os []byte, rf, rs fastpath.Result) string {
	switch {
	case rf != rs:
		return fmt.Sprintf("results %v (fast) vs %v (string)", rf, rs)
	case !bytes.Equal(of, os):
		return fmt.Sprintf("bytes\n% x (fast)\n% x (string)", of, os)
	case lf.Pos() != ls.Pos():
		return fmt.Sprintf("positions %d (fast) vs %d (string)", lf.Pos(), ls.Pos())
	}
	if a, b := stateOf(fast), stateOf(slow); !reflect.DeepEqual(a, b) {
		return "state (-fast +string):\n" + cmp.Diff(a, b)
	}
	return ""
}

// The property must be able to fail: a fast path that wrote the digits as
// the string path does not (here, with Huffman forced) is caught.
func TestEquivalenceDetects(t *testing.T) {
	s := scenario{
		Config:   Config{Huffman: fastpath.HuffmanAuto},
		Peer:     [][]uint32{nil},
		Sections: [][]tfield{{str(":status", "200"), {"content-length", "", 0, 1024}}},
	}
	if msg := checkEquivalence(s); msg != "" {
		t.Fatalf("agreeing paths reported: %s", msg)
	}
	// The same list, but the string path given "1025": the check must see it.
	fast, slow := New(s.Config), New(s.Config)
	lf := fastList(s.Sections[0])
	ls := fastList([]tfield{str(":status", "200"), {"content-length", "1025", fastpath.NoIndex, -1}})
	bf, bs := make([]byte, 64), make([]byte, 64)
	nf, rf := fast.Begin(bf, lf)
	ns, rs := slow.Begin(bs, ls)
	if same(fast, slow, lf, ls, bf[:nf], bs[:ns], rf, rs) == "" {
		t.Fatal("different values not detected")
	}
}
