package qpack

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// rpCase is a static-only connection whose sections repeat their fields by
// position, with changes: strings changed in place, fields replaced (with
// lines of other lengths), lengths that repeat or not, sections longer
// than the slots, lists partly consumed before they are passed.
type rpCase struct {
	Seed    int64
	Huffman fastpath.HuffmanPolicy
}

// TestEncoderReplayProperty: a warm static-only encoder fed FieldLists
// writes exactly what a new encoder writes through its path for any
// Enumerator, by every way of writing.
func TestEncoderReplayProperty(t *testing.T) {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 150
	if testing.Short() {
		p.MinSuccessfulTests = 40
	}
	props := gopter.NewProperties(p)
	props.Property("replayed sections are what a new encoder writes", prop.ForAll(
		func(c rpCase) string {
			r := rand.New(rand.NewSource(c.Seed))
			bufs := make([][]byte, 8)
			for i := range bufs {
				bufs[i] = make([]byte, 1+r.Intn(70))
				lmFill(r, bufs[i])
			}
			str := func(b []byte) string { return unsafe.String(&b[0], len(b)) }
			names := []string{":status", "content-type", "date", "server", "vary", "cookie",
				"X-Mixed", "x-custom", "content-length", str(bufs[0]), str(bufs[1])}
			values := []string{"200", "404", "text/html; charset=utf-8", "", "0", "1024", "accept-encoding",
				"Tue, 02 Dec 2025 09:38:12 GMT", strings.Repeat("v", 700), str(bufs[2]), str(bufs[3]),
				str(bufs[4]), str(bufs[5]), str(bufs[6]), str(bufs[7])}
			flags := []fastpath.Flags{0, 0, 0, 0, fastpath.NeverIndex, fastpath.NoIndex}
			cfg := EncoderConfig{Huffman: c.Huffman}
			var warm Encoder
			warm.Init(cfg)
			type pos struct {
				o   int
				f   fastpath.Flags
				raw int64 // -1: not a raw Content-Length
			}
			order := make([]pos, 1+r.Intn(45))
			pick := func(p *pos) {
				*p = pos{o: r.Intn(len(names) * len(values)), f: flags[r.Intn(len(flags))], raw: -1}
				if r.Intn(6) == 0 {
					p.raw = r.Int63n(3) * r.Int63n(1<<40)
				}
			}
			for i := range order {
				pick(&order[i])
			}
			var l fastpath.FieldList
			for sec := range 16 {
				n := len(order)
				if r.Intn(4) == 0 {
					n = 1 + r.Intn(len(order))
				}
				for i := range order[:n] {
					if r.Intn(10) == 0 {
						pick(&order[i])
					}
					if order[i].raw >= 0 && r.Intn(3) == 0 {
						order[i].raw = r.Int63n(100000)
					}
				}
				l.Reset()
				for _, p := range order[:n] {
					if p.raw >= 0 {
						l.AddContentLength(p.raw)
						continue
					}
					l.Add(names[p.o%len(names)], values[p.o/len(names)], p.f)
				}
				// A list left partly read by the last call is read whole
				// again: the encoders rewind it.
				skip := 0
				if r.Intn(8) == 0 {
					skip = r.Intn(n + 1)
				}
				start := func() {
					l.Rewind()
					for range skip {
						l.Next()
					}
				}
				l.Rewind()
				var fresh Encoder
				fresh.Init(cfg)
				want := fresh.AppendSection(0, nil, lmEnum{&l})
				start()
				var got []byte
				switch r.Intn(3) {
				case 0:
					got = warm.AppendSection(uint64(sec), []byte("x"), &l)[1:]
				case 1:
					if n := warm.Plan(uint64(sec), &l); n != len(want) {
						return fmt.Sprintf("section %d: Plan says %d bytes, want %d", sec, n, len(want))
					}
					got = warm.AppendPlanned(nil)
				case 2:
					buf := make([]byte, 1+r.Intn(24))
					n, res := warm.Begin(uint64(sec), buf, &l)
					for {
						got = append(got, buf[:n]...)
						if res == Done {
							break
						}
						if res == BufferTooSmall {
							buf = make([]byte, 2*len(buf))
						}
						n, res = warm.Continue(buf)
					}
				}
				if !bytes.Equal(got, want) {
					return fmt.Sprintf("section %d (%d fields from %d): %x, want %x", sec, n, skip, got, want)
				}
				if l.Next() {
					return fmt.Sprintf("section %d: the list is not consumed", sec)
				}
				for _, b := range bufs {
					if r.Intn(3) == 0 {
						lmFill(r, b)
					}
				}
			}
			return ""
		},
		gopter.CombineGens(
			gen.Int64(),
			gen.OneConstOf(fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever),
		).Map(func(v []any) rpCase { return rpCase{v[0].(int64), v[1].(fastpath.HuffmanPolicy)} }),
	))
	props.TestingRun(t)
}

// A value changed in place to bytes of the same length, in the middle of
// sections that otherwise repeat, is encoded as what it now holds, and
// the fields after it are still right.
func TestEncoderReplayMutatedInPlace(t *testing.T) {
	value := []byte("aaaaaaaaaaaaaaaaaaaa")
	v := unsafe.String(&value[0], len(value))
	var e Encoder
	e.Init(EncoderConfig{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	build := func() {
		l.Reset()
		l.Add(":status", "200", 0)
		l.Add("x-v", v, 0)
		l.AddContentLength(1024)
		l.Add("server", v, 0)
		l.Add("vary", "accept-encoding", 0)
	}
	want := func() []byte {
		var fresh Encoder
		fresh.Init(EncoderConfig{Huffman: fastpath.HuffmanNever})
		build()
		return fresh.AppendSection(0, nil, lmEnum{&l})
	}
	for i := range 6 {
		w := want()
		build()
		if got := e.AppendSection(0, nil, &l); !bytes.Equal(got, w) {
			t.Errorf("step %d: %x, want %x", i, got, w)
		}
		value[i%len(value)]++
	}
}

// The slots' buffers stay within their budget, however many distinct long
// strings pass through them.
func TestEncoderReplayBudget(t *testing.T) {
	var e Encoder
	var l fastpath.FieldList
	values := make([]string, 300)
	for i := range values {
		values[i] = fmt.Sprintf("%0*d", 1+i%300, i)
	}
	for _, v := range values {
		l.Reset()
		for range replayLen {
			l.Add("x-long", v, 0)
		}
		e.AppendSection(0, nil, &l)
	}
	r := &e.lines.rep
	total := 0
	for i := range r.slots {
		total += cap(r.slots[i].own)
	}
	if total > replayBudget || total != r.bytes {
		t.Errorf("buffers hold %d bytes (counted %d), budget %d", total, r.bytes, replayBudget)
	}
	if len(r.buf) != r.start(r.n) {
		t.Errorf("buf holds %d bytes, the slots' spans end at %d", len(r.buf), r.start(r.n))
	}
}
