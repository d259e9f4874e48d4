package hpack

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// TestEquivalence is the property of DESIGN.md: for every field list, every
// Content-Length, every encoder setting and every buffer size from 1 to
// past the whole section, the raw Content-Length fast path and the string
// path give, call by call, the same result codes, bytes, enumerator
// positions and encoder state (codectest.Equivalent, as for QPACK).
func TestEquivalence(t *testing.T) {
	properties := gopter.NewProperties(propParams(150))
	properties.Property("fast path == string path", prop.ForAll(
		func(s scenario) string { return codectest.Equivalent(eqCodec{s, 1, stringPath}, eqDiff) },
		gopter.Gen(genScenario),
	))
	properties.TestingRun(t)
}

// stringPath gives side 0 the list with raw Content-Lengths, side 1 its
// string path.
func stringPath(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator) {
	l := fastList(fs)
	if side == 1 {
		l = l.StringPath()
	}
	return l, l
}

// eqCodec runs a scenario, passes times over on the same encoders, for
// codectest.Equivalent; list gives each side's enumerator of a section and
// the FieldList whose position it reports.
type eqCodec struct {
	s      scenario
	passes int
	list   func(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator)
}

func (c eqCodec) Sections() int { return c.passes * len(c.s.Sections) }

func (c eqCodec) New(side int) codectest.Encoder {
	return &eqEncoder{eqCodec: c, side: side, e: New(c.s.Config)}
}

type eqEncoder struct {
	eqCodec
	side int
	e    *Encoder
	l    *fastpath.FieldList
}

func (x *eqEncoder) Begin(i int, buf []byte) (int, fastpath.Result) {
	i %= len(x.s.Sections)
	for _, v := range x.s.Peer[i] {
		x.e.SetMaxTableSize(v)
	}
	var en fastpath.Enumerator
	x.l, en = x.list(x.side, x.s.Sections[i])
	return x.e.Begin(buf, en)
}

func (x *eqEncoder) Continue(buf []byte) (int, fastpath.Result) { return x.e.Continue(buf) }
func (x *eqEncoder) After(int)                                  {}
func (x *eqEncoder) Pos() int                                   { return x.l.Pos() }
func (x *eqEncoder) State() any                                 { return stateOf(x.e) }

func eqDiff(x, y any) string { return cmp.Diff(x, y) }

// The property must be able to fail: a string path given another value
// than the fast path's Content-Length is caught.
func TestEquivalenceDetects(t *testing.T) {
	s := scenario{
		Config:   Config{Huffman: fastpath.HuffmanAuto},
		Peer:     [][]uint32{nil},
		Sections: [][]tfield{{str(":status", "200"), {"content-length", "", 0, 1024}}},
	}
	if msg := codectest.Equivalent(eqCodec{s, 1, stringPath}, eqDiff); msg != "" {
		t.Fatalf("agreeing paths reported: %s", msg)
	}
	other := func(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator) {
		if side == 1 {
			fs = []tfield{str(":status", "200"), {"content-length", "1025", fastpath.NoIndex, -1}}
		}
		return stringPath(side, fs)
	}
	if codectest.Equivalent(eqCodec{s, 1, other}, eqDiff) == "" {
		t.Fatal("different values not detected")
	}
}
