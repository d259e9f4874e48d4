package hpack

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/hqpack/hqpack/fastpath"
)

// cloned returns fs with every string copied, so that no memo entry can
// match them: the encoder has to look each one up.
func cloned(fs []tfield) []tfield {
	out := make([]tfield, len(fs))
	for i, f := range fs {
		f.Name, f.Value = strings.Clone(f.Name), strings.Clone(f.Value)
		out[i] = f
	}
	return out
}

// TestNamedSkipsOnlyMisses: the encoder skips the dynamic-table lookup of
// a field whose static name no entry has (Encoder.named); an encoder that
// looks everything up writes the same bytes. Strings are copied per
// section, so the memo does not hide the lookups.
func TestNamedSkipsOnlyMisses(t *testing.T) {
	properties := gopter.NewProperties(propParams(1000))
	properties.Property("skipped lookups find nothing", prop.ForAll(
		func(s scenario) string {
			e, ref := New(s.Config), New(s.Config)
			ref.lookupAll = true
			for i, fs := range s.Sections {
				for _, v := range s.Peer[i] {
					e.SetMaxTableSize(v)
					ref.SetMaxTableSize(v)
				}
				got := e.AppendSection(nil, fastList(cloned(fs)))
				want := ref.AppendSection(nil, fastList(cloned(fs)))
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

// A static name inserted on request (fastpath.Index) is found again as an
// exact match, by value, however its strings are made.
func TestNamedFindsInserted(t *testing.T) {
	e := New(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add(":path", "/a", fastpath.Index)
	first := hex.EncodeToString(e.AppendSection(nil, &l))
	l.Reset()
	l.Add(strings.Clone(":path"), strings.Clone("/a"), 0)
	second := hex.EncodeToString(e.AppendSection(nil, &l))
	// Literal with incremental indexing, name index 4; then index 62.
	if first != "4402"+hex.EncodeToString([]byte("/a")) || second != "be" {
		t.Errorf("got %s then %s; want 44022f61 then be", first, second)
	}
}
