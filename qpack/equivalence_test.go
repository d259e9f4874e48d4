package qpack

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// etEqField is a generated field: a raw Content-Length when Raw.
type etEqField struct {
	Name, Value string
	Flags       fastpath.Flags
	Raw         bool
	CL          int64
}

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
	).Map(func(v []any) etEqField {
		f := etEqField{Name: v[1].(string), Value: v[2].(string), Flags: v[4].(fastpath.Flags)}
		if v[0].(int) < 3 {
			f = etEqField{Raw: true, CL: v[3].(int64)}
		}
		return f
	})
}

// etEqCase is one connection: settings and a few sections.
type etEqCase struct {
	Capacity uint64
	Huffman  fastpath.HuffmanPolicy
	Sections [][]etEqField
}

// etFieldLists builds the fast path (raw Content-Lengths) and the string
// path of a section.
func etFieldLists(sec []etEqField) (fast, str *fastpath.FieldList) {
	fast = new(fastpath.FieldList)
	for _, f := range sec {
		if f.Raw {
			fast.AddContentLength(f.CL)
		} else {
			fast.Add(f.Name, f.Value, f.Flags)
		}
	}
	return fast, fast.StringPath()
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

// etCall is what one Begin or Continue call returned, and the state after.
type etCall struct {
	N     int
	Res   fastpath.Result
	Bytes []byte
	Pos   int
	State etState
}

// etRunBuffers encodes the sections with Begin and Continue in buffers of
// size bufSize (a larger one after fastpath.BufferTooSmall), recording every call.
func etRunBuffers(c etEqCase, bufSize int, str bool) []etCall {
	cfg := etDynamic(c.Capacity, 2)
	cfg.Huffman = c.Huffman
	e := etEncoder(cfg)
	var calls []etCall
	for i, sec := range c.Sections {
		fields, strFields := etFieldLists(sec)
		if str {
			fields = strFields
		}
		buf := make([]byte, bufSize)
		n, res := e.Begin(uint64(4*(i%3)), buf, fields)
		for {
			calls = append(calls, etCall{n, res, append([]byte(nil), buf[:n]...), fields.Pos(), etSnapshot(e)})
			if res == fastpath.Done {
				break
			}
			if res == fastpath.BufferTooSmall {
				buf = make([]byte, 2*len(buf))
			}
			n, res = e.Continue(buf)
		}
		if i%2 == 1 {
			// Acknowledge the outstanding sections now and then.
			for e.Outstanding() > 0 {
				if err := e.ReadDecoderStream(wire.AppendInt(nil, 0x80, 7, e.out[0].stream)); err != nil {
					panic(err)
				}
			}
		}
	}
	return calls
}

func TestEquivalenceFastPath(t *testing.T) {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 100
	if testing.Short() {
		p.MinSuccessfulTests = 25
	}
	props := gopter.NewProperties(p)
	props.Property("raw Content-Length and its string encode the same, call by call", prop.ForAll(
		func(c etEqCase) string {
			// The whole connection, appended, gives the longest section.
			fast := etRunBuffers(c, 1<<16, false)
			longest := 0
			for _, call := range fast {
				longest = max(longest, call.N)
			}
			for size := 1; size <= longest+8; size++ {
				a := etRunBuffers(c, size, false)
				b := etRunBuffers(c, size, true)
				if !reflect.DeepEqual(a, b) {
					diff := cmp.Diff(a, b, cmp.AllowUnexported(outSection{}, nameStat{}))
					return fmt.Sprintf("buffer %d: fast path (-) vs string path (+):\n%s", size, diff)
				}
				// And the pieces make the same bytes as AppendSection.
				if got, want := etJoin(a), etJoin(fast); !bytes.Equal(got, want) {
					return fmt.Sprintf("buffer %d: pieces %x, whole %x", size, got, want)
				}
			}
			return ""
		},
		gopter.CombineGens(
			gen.OneConstOf(uint64(0), uint64(100), uint64(256), uint64(4096)),
			gen.OneConstOf(fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever),
			gen.SliceOfN(3, gen.SliceOf(etGenEqField()).Map(func(s []etEqField) []etEqField { return s[:min(len(s), 8)] })),
		).Map(func(v []any) etEqCase {
			return etEqCase{v[0].(uint64), v[1].(fastpath.HuffmanPolicy), v[2].([][]etEqField)}
		}),
	))
	props.TestingRun(t)
}

func etJoin(calls []etCall) []byte {
	var b []byte
	for _, c := range calls {
		b = append(b, c.Bytes...)
	}
	return b
}
