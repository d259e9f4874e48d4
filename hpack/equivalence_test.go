package hpack

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// TestEquivalence is the property of DESIGN.md: for every field list, every
// Content-Length, every encoder setting and every buffer size from 1 to
// past the whole section, the raw Content-Length fast path and the string
// path give, call by call, the same result codes, bytes, enumerator
// positions and encoder state (codectest.Equivalent, as for QPACK).
func TestEquivalence(t *testing.T) {
	forScenarios(t, 150, "fast path == string path", func(s scenario) string {
		return codectest.Equivalent(&eqCodec{s: s, passes: 1, list: stringPath}, eqDiff)
	})
}

// stringPath gives side 0 the list with raw Content-Lengths, side 1 its
// string path.
func stringPath(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator) {
	l := fastList(fs)
	if side == 1 {
		l = codectest.StringPath(l)
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
	lists  [2][]eqList // built once, rewound for each run
}

type eqList struct {
	l  *fastpath.FieldList
	en fastpath.Enumerator
}

func (c *eqCodec) Sections() int { return c.passes * len(c.s.Sections) }

func (c *eqCodec) New(side int) codectest.Encoder {
	if c.lists[side] == nil {
		for _, fs := range c.s.Sections {
			l, en := c.list(side, fs)
			c.lists[side] = append(c.lists[side], eqList{l, en})
		}
	}
	return &eqEncoder{c: c, side: side, e: newEncoder(c.s.Config)}
}

type eqEncoder struct {
	c    *eqCodec
	side int
	e    *Encoder
	l    *fastpath.FieldList
}

func (x *eqEncoder) Begin(i int, buf []byte) (int, fastpath.Result) {
	i %= len(x.c.s.Sections)
	for _, v := range x.c.s.Peer[i] {
		x.e.SetMaxTableSize(v)
	}
	sec := x.c.lists[x.side][i]
	x.l = sec.l
	x.l.Rewind()
	return x.e.Begin(buf, sec.en)
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
	if msg := codectest.Equivalent(&eqCodec{s: s, passes: 1, list: stringPath}, eqDiff); msg != "" {
		t.Fatalf("agreeing paths reported: %s", msg)
	}
	other := func(side int, fs []tfield) (*fastpath.FieldList, fastpath.Enumerator) {
		if side == 1 {
			fs = []tfield{str(":status", "200"), {"content-length", "1025", fastpath.NoIndex, -1}}
		}
		return stringPath(side, fs)
	}
	if codectest.Equivalent(&eqCodec{s: s, passes: 1, list: other}, eqDiff) == "" {
		t.Fatal("different values not detected")
	}
}
