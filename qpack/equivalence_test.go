package qpack

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// etGenEqField generates a field, three times in ten a raw Content-Length.
func etGenEqField() gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, 9),
		gen.OneConstOf("content-type", ":status", "x-a", "cache-control", "cookie", "vary", "x-request-id"),
		gen.OneConstOf("", "0", "200", "text/plain", "no-cache", "abcdefghijklmnop", "short"),
		gen.OneGenOf(
			gen.OneConstOf(int64(0), int64(9), int64(299), int64(300), int64(1024), int64(math.MaxInt64)),
			gen.Int64Range(0, math.MaxInt64),
		),
		gen.OneConstOf(fastpath.Flags(0), fastpath.Flags(0), fastpath.NeverIndex, fastpath.NoIndex, fastpath.Index),
	).Map(func(v []any) etField {
		f := etField{Name: v[1].(string), Value: v[2].(string), Flags: v[4].(fastpath.Flags)}
		if v[0].(int) < 3 {
			f = etField{Raw: true, CL: v[3].(int64)}
		}
		return f
	})
}

// etEqCase is one connection: settings and a few sections.
type etEqCase struct {
	Capacity uint64
	Huffman  fastpath.HuffmanPolicy
	Lists    [][]etField
}

// etFieldLists builds the fast path (raw Content-Lengths) and the string
// path of a section.
func etFieldLists(sec []etField) (fast, str *fastpath.FieldList) {
	fast = new(fastpath.FieldList)
	for _, f := range sec {
		if f.Raw {
			fast.AddContentLength(f.CL)
		} else {
			fast.Add(f.Name, f.Value, f.Flags)
		}
	}
	return fast, codectest.StringPath(fast)
}

// etState is an Encoder's observable state.
type etState struct {
	Inserted, Known        uint64
	Size, Remaining        int
	Entries                []string
	Outstanding            []outSection
	Stream                 []byte
	Blocked                int
	HistValues             [historyLen]uint32
	HistNames              [nameSlots]nameStat
	Hits                   []uint32
	GainSum, GainN, Pinned uint64
}

func etSnapshot(e *Encoder) etState {
	s := etState{Inserted: e.InsertCount(), Known: e.KnownReceivedCount(), Remaining: e.Remaining(),
		Outstanding: append([]outSection(nil), e.out...), Stream: append([]byte(nil), e.stream...),
		Blocked: e.BlockedStreams(), GainSum: e.gainSum, GainN: e.gainN, Pinned: e.pinnedFloor()}
	if e.hist != nil {
		s.HistValues, s.HistNames = e.hist.values, e.hist.names
	}
	s.Size, _ = e.TableSize()
	for abs := e.oldest(); abs < e.InsertCount(); abs++ {
		n, v, _ := e.TableEntry(abs)
		s.Entries = append(s.Entries, string(n)+": "+string(v))
		s.Hits = append(s.Hits, e.hist.metaAt(abs).hits)
	}
	return s
}

// etEqCodec runs a connection on two encoders for codectest.Equivalent:
// side 0 is given raw Content-Lengths, side 1 their strings.
type etEqCodec struct {
	etEqCase
	lists [2][]*fastpath.FieldList // built once, rewound for each run
}

func (c *etEqCodec) Sections() int { return len(c.Lists) }

func (c *etEqCodec) New(side int) codectest.Encoder {
	if c.lists[side] == nil {
		for _, sec := range c.Lists {
			l, str := etFieldLists(sec)
			if side == 1 {
				l = str
			}
			c.lists[side] = append(c.lists[side], l)
		}
	}
	cfg := etDynamic(c.Capacity, 2)
	cfg.Huffman = c.Huffman
	return &etEqEncoder{lists: c.lists[side], e: etEncoder(cfg)}
}

type etEqEncoder struct {
	lists []*fastpath.FieldList
	e     *Encoder
	l     *fastpath.FieldList
}

func (x *etEqEncoder) Begin(i int, buf []byte) (int, fastpath.Result) {
	x.l = x.lists[i]
	x.l.Rewind()
	return x.e.Begin(uint64(4*(i%3)), buf, x.l)
}

func (x *etEqEncoder) Continue(buf []byte) (int, fastpath.Result) { return x.e.Continue(buf) }
func (x *etEqEncoder) Pos() int                                   { return x.l.Pos() }
func (x *etEqEncoder) State() any                                 { return etSnapshot(x.e) }

// After acknowledges the outstanding sections now and then.
func (x *etEqEncoder) After(i int) {
	for i%2 == 1 && x.e.Outstanding() > 0 {
		if err := x.e.ReadDecoderStream(wire.AppendInt(nil, 0x80, 7, x.e.out[0].stream)); err != nil {
			panic(err)
		}
	}
}

func etEqDiff(x, y any) string { return cmp.Diff(x, y, cmp.AllowUnexported(outSection{}, nameStat{})) }

// TestEquivalenceFastPath: raw Content-Lengths and their strings encode the
// same, call by call, at every buffer size (codectest.Equivalent, as for
// HPACK).
func TestEquivalenceFastPath(t *testing.T) {
	props := etProperties(100, 25)
	props.Property("raw Content-Length and its string encode the same, call by call", prop.ForAll(
		func(c etEqCase) string { return codectest.Equivalent(&etEqCodec{etEqCase: c}, etEqDiff) },
		gopter.CombineGens(
			gen.OneConstOf(uint64(0), uint64(100), uint64(256), uint64(4096)),
			gen.OneConstOf(fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever),
			gen.SliceOfN(3, gen.SliceOf(etGenEqField()).Map(func(s []etField) []etField { return s[:min(len(s), 8)] })),
		).Map(func(v []any) etEqCase {
			return etEqCase{v[0].(uint64), v[1].(fastpath.HuffmanPolicy), v[2].([][]etField)}
		}),
	))
	props.TestingRun(t)
}

// The property must be able to fail: a section whose string path says
// another Content-Length is caught.
func TestEquivalenceDetects(t *testing.T) {
	c := etEqCase{Capacity: 4096, Lists: [][]etField{{{Name: ":status", Value: "200"}, {Raw: true, CL: 1024}}}}
	if msg := codectest.Equivalent(&etEqCodec{etEqCase: c}, etEqDiff); msg != "" {
		t.Fatalf("agreeing paths reported: %s", msg)
	}
	// etFieldLists makes the string path from side 0's list, so side 1
	// here is another connection whose section says 1025.
	other := etEqCase{Capacity: 4096, Lists: [][]etField{{{Name: ":status", Value: "200"}, {Name: "content-length", Value: "1025"}}}}
	if codectest.Equivalent(&etEqPair{{etEqCase: c}, {etEqCase: other}}, etEqDiff) == "" {
		t.Fatal("different values not detected")
	}
}

// etEqPair takes side 0 from one codec and side 1 from another.
type etEqPair [2]etEqCodec

func (p *etEqPair) Sections() int                  { return p[0].Sections() }
func (p *etEqPair) New(side int) codectest.Encoder { return p[side].New(side) }
