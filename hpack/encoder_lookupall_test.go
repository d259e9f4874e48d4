//go:build hqpack_lookupall

package hpack

// These tests compare the encoder with one that makes every lookup, which
// needs lookupAll settable (lookupall_tag.go; a constant otherwise): .ci/run
// runs them with go test -tags hqpack_lookupall ./hpack -run
// 'NamedSkipsOnlyMisses|RecallIsLookup'.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/hqpack/hqpack/fastpath"
)

// TestNamedSkipsOnlyMisses: the encoder skips the dynamic-table lookup of
// a field whose static name no entry has (Encoder.named); an encoder that
// looks everything up writes the same bytes.
func TestNamedSkipsOnlyMisses(t *testing.T) {
	properties := gopter.NewProperties(propParams(1000))
	properties.Property("skipped lookups find nothing", prop.ForAll(
		func(s scenario) string {
			e, ref := newEncoder(s.Config), newEncoder(s.Config)
			defer func() { lookupAll = false }()
			for i, fs := range s.Sections {
				for _, v := range s.Peer[i] {
					e.SetMaxTableSize(v)
					ref.SetMaxTableSize(v)
				}
				got := e.AppendSection(nil, fastList(fs))
				lookupAll = true
				want := ref.AppendSection(nil, fastList(fs))
				lookupAll = false
				if !bytes.Equal(got, want) {
					return fmt.Sprintf("section %d:\n% x\nwith every lookup:\n% x", i, got, want)
				}
			}
			return ""
		},
		gopter.Gen(genScenario),
	))
	properties.TestingRun(t)
}

// TestRecallIsLookup: sections that repeat the last ones with changes (a
// value, a flag, a name's case, fields moved, added or dropped) encode as
// an encoder that makes every lookup encodes them, so recent's hits give
// exactly the lookups' answers.
func TestRecallIsLookup(t *testing.T) {
	properties := gopter.NewProperties(propParams(1000))
	properties.Property("recalled entries are the ones the lookups find", prop.ForAll(
		func(s scenario) string {
			e, ref := newEncoder(s.Config), newEncoder(s.Config)
			defer func() { lookupAll = false }()
			base := s.Sections[0]
			for i := range 12 {
				fs := vary(base, i)
				if i < len(s.Peer) {
					for _, v := range s.Peer[i] {
						e.SetMaxTableSize(v)
						ref.SetMaxTableSize(v)
					}
				}
				got := e.AppendSection(nil, fastList(fs))
				lookupAll = true
				want := ref.AppendSection(nil, fastList(fs))
				lookupAll = false
				if !bytes.Equal(got, want) {
					return fmt.Sprintf("section %d %v:\n% x\nwith every lookup:\n% x", i, fs, got, want)
				}
			}
			return ""
		},
		gopter.Gen(genScenario),
	))
	properties.TestingRun(t)
}

// vary returns fs changed a little, differently for each i.
func vary(fs []tfield, i int) []tfield {
	out := append([]tfield(nil), fs...)
	if len(out) == 0 {
		return out
	}
	k := i % len(out)
	switch i % 6 {
	case 1:
		out[k].Value += "x"
	case 2:
		out[k].Flags ^= fastpath.NeverIndex
	case 3:
		out[k].Name = strings.ToUpper(out[k].Name)
	case 4:
		out = append(out[:k], out[k+1:]...)
	case 5:
		out = append([]tfield{out[len(out)-1]}, out...)
	}
	return out
}
