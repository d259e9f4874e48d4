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

// opaque hides a FieldList's type, so the encoder takes its path for any
// Enumerator instead of its *fastpath.FieldList fast path.
type opaque struct{ fastpath.Enumerator }

// TestListPathMatchesEnumerator: the encoder's fast path for
// *fastpath.FieldList and its path for any Enumerator give, call by call,
// the same results, bytes, positions and encoder state, at every buffer
// size. Each scenario runs twice on the same encoders, so the second pass
// meets its own strings again (memo hits).
func TestListPathMatchesEnumerator(t *testing.T) {
	properties := gopter.NewProperties(propParams(60))
	properties.Property("FieldList path == Enumerator path", prop.ForAll(
		func(s scenario) string { return checkListPath(s) },
		gopter.Gen(genScenario),
	))
	properties.TestingRun(t)
}

func checkListPath(s scenario) string {
	ref := New(s.Config)
	longest := 0
	for i, fs := range s.Sections {
		for _, v := range s.Peer[i] {
			ref.SetMaxTableSize(v)
		}
		longest = max(longest, len(ref.AppendSection(nil, fastList(fs))))
	}
	for size := 1; size <= longest+8; size++ {
		if msg := listPathAt(s, size); msg != "" {
			return fmt.Sprintf("buffer %d: %s", size, msg)
		}
	}
	return ""
}

func listPathAt(s scenario, size int) string {
	fast, slow := New(s.Config), New(s.Config)
	for pass := range 2 {
		bf, bs := make([]byte, size), make([]byte, size)
		for i, fs := range s.Sections {
			for _, v := range s.Peer[i] {
				fast.SetMaxTableSize(v)
				slow.SetMaxTableSize(v)
			}
			lf, ls := fastList(fs), fastList(fs)
			nf, rf := fast.Begin(bf, lf)
			ns, rs := slow.Begin(bs, opaque{ls})
			for call := 0; ; call++ {
				if msg := same(fast, slow, lf, ls, bf[:nf], bs[:ns], rf, rs); msg != "" {
					return fmt.Sprintf("pass %d section %d call %d: %s", pass, i, call, msg)
				}
				if rf == fastpath.Done {
					break
				}
				if rf != fastpath.MoreFields || nf == 0 {
					return fmt.Sprintf("pass %d section %d call %d: %v with %d bytes", pass, i, call, rf, nf)
				}
				nf, rf = fast.Continue(bf)
				ns, rs = slow.Continue(bs)
			}
			bf, bs = bf[:size], bs[:size]
		}
	}
	return ""
}

// TestListPathAppendSection: the same for AppendSection, with the state
// after each section.
func TestListPathAppendSection(t *testing.T) {
	properties := gopter.NewProperties(propParams(300))
	properties.Property("AppendSection: FieldList path == Enumerator path", prop.ForAll(
		func(s scenario) string {
			fast, slow := New(s.Config), New(s.Config)
			for pass := range 2 {
				for i, fs := range s.Sections {
					for _, v := range s.Peer[i] {
						fast.SetMaxTableSize(v)
						slow.SetMaxTableSize(v)
					}
					lf, ls := fastList(fs), fastList(fs)
					of := fast.AppendSection(nil, lf)
					os := slow.AppendSection(nil, opaque{ls})
					if !bytes.Equal(of, os) {
						return fmt.Sprintf("pass %d section %d: bytes\n% x (list)\n% x (enumerator)", pass, i, of, os)
					}
					if a, b := stateOf(fast), stateOf(slow); !reflect.DeepEqual(a, b) {
						return fmt.Sprintf("pass %d section %d: state (-list +enumerator):\n%s", pass, i, cmp.Diff(a, b))
					}
				}
			}
			return ""
		},
		gopter.Gen(genScenario),
	))
	properties.TestingRun(t)
}

// The check must be able to fail: lists that differ are caught.
func TestListPathDetects(t *testing.T) {
	fast, slow := New(Config{}), New(Config{})
	lf := fastList([]tfield{str(":status", "200")})
	ls := fastList([]tfield{str(":status", "204")})
	bf, bs := make([]byte, 64), make([]byte, 64)
	nf, rf := fast.Begin(bf, lf)
	ns, rs := slow.Begin(bs, opaque{ls})
	if same(fast, slow, lf, ls, bf[:nf], bs[:ns], rf, rs) == "" {
		t.Fatal("different sections not detected")
	}
}
