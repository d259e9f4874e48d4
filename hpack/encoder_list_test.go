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
	"github.com/hqpack/hqpack/internal/codectest"
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
	forScenarios(t, 60, "FieldList path == Enumerator path", func(s scenario) string {
		return codectest.Equivalent(&eqCodec{s: s, passes: 2, list: enumeratorPath}, eqDiff)
	})
}

// enumeratorPath gives side 1 the list behind opaque.
func enumeratorPath(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator) {
	l := fastList(fs)
	if side == 1 {
		return l, opaque{l}
	}
	return l, l
}

// TestListPathAppendSection: the same for AppendSection, with the state
// after each section.
func TestListPathAppendSection(t *testing.T) {
	properties := gopter.NewProperties(propParams(300))
	properties.Property("AppendSection: FieldList path == Enumerator path", prop.ForAll(
		func(s scenario) string {
			fast, slow := newEncoder(s.Config), newEncoder(s.Config)
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
	s := scenario{Peer: [][]uint32{nil}, Sections: [][]tfield{{str(":status", "200")}}}
	other := func(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator) {
		if side == 1 {
			fs = []tfield{str(":status", "204")}
		}
		return enumeratorPath(side, fs)
	}
	if codectest.Equivalent(&eqCodec{s: s, passes: 1, list: other}, eqDiff) == "" {
		t.Fatal("different sections not detected")
	}
}
