package qpack

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// The line memo keys on string addresses; a string changed in place (made
// with unsafe from a reused buffer) must be encoded as what it now holds.
func TestEncoderLineMemoMutatedString(t *testing.T) {
	value := []byte("value-1")
	name := []byte("x-name")
	v := unsafe.String(&value[0], len(value))
	n := unsafe.String(&name[0], len(name))
	var e Encoder // static-only
	e.Init(EncoderConfig{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add(n, v, 0)
	l.Add("server", v, 0) // static name 92, the same value string
	section := func() string {
		l.Rewind()
		return hex.EncodeToString(e.AppendSection(0, nil, &l))
	}
	lit := func(name, value string) string {
		return "2" + fmt.Sprintf("%x", len(name)) + hex.EncodeToString([]byte(name)) +
			fmt.Sprintf("%02x", len(value)) + hex.EncodeToString([]byte(value)) +
			"5f4d" + fmt.Sprintf("%02x", len(value)) + hex.EncodeToString([]byte(value))
	}
	steps := []struct {
		mutate      func()
		name, value string
	}{
		{func() {}, "x-name", "value-1"},
		{func() {}, "x-name", "value-1"}, // remembered
		{func() { value[6] = '2' }, "x-name", "value-2"},
		{func() {}, "x-name", "value-2"},
		{func() { name[0] = 'y' }, "y-name", "value-2"},
		{func() { name[0], value[6] = 'x', '1' }, "x-name", "value-1"},
	}
	for i, s := range steps {
		s.mutate()
		if got, want := section(), "0000"+lit(s.name, s.value); got != want {
			t.Errorf("step %d: %s, want %s", i, got, want)
		}
	}
}

// Empty strings may all share one address, or none: the memo's empty
// entries must not match them.
func TestEncoderLineMemoEmpty(t *testing.T) {
	var e Encoder
	e.Init(EncoderConfig{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	for range 2 {
		l.Add("", "", 0)
		l.Add("x", "", 0)
		l.Add(":authority", "", 0) // static 0, exact
	}
	for range 3 {
		l.Rewind()
		got := hex.EncodeToString(e.AppendSection(0, nil, &l))
		if want := "0000" + ("2000" + "21" + "7800" + "c0") + ("2000" + "21" + "7800" + "c0"); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

// A line depends on the field's flags and the encoder's policies: the
// same strings with other flags, or after Init with other policies, are
// encoded afresh.
func TestEncoderLineMemoFlagsAndInit(t *testing.T) {
	fresh := func(cfg EncoderConfig, name, value string, f fastpath.Flags) []byte {
		var e Encoder
		e.Init(cfg)
		var l fastpath.FieldList
		l.Add(name, value, f)
		return e.AppendSection(0, nil, &l)
	}
	var e Encoder
	var l fastpath.FieldList
	for _, cfg := range []EncoderConfig{
		{}, {Huffman: fastpath.HuffmanNever}, {Huffman: fastpath.HuffmanAlways},
		{Indexing: IndexNone}, {Huffman: fastpath.HuffmanNever, Indexing: IndexAll},
	} {
		e.Init(cfg)
		for range 2 {
			for _, f := range []fastpath.Flags{0, fastpath.NeverIndex, fastpath.NoIndex, 0, fastpath.Index} {
				for _, fv := range [][2]string{{"cookie", "short"}, {":status", "200"}, {"Accept", "text/html"}, {"x-a", "hello world"}} {
					l.Reset()
					l.Add(fv[0], fv[1], f)
					got := e.AppendSection(0, nil, &l)
					if want := fresh(cfg, fv[0], fv[1], f); !bytes.Equal(got, want) {
						t.Errorf("%+v, %q: %q, flags %v: %x, want %x", cfg, fv[0], fv[1], f, got, want)
					}
				}
			}
		}
	}
}

// lmCase is a static-only connection: a policy and sections drawn from a
// small pool of strings, some of them changed in place between sections.
type lmCase struct {
	Seed    int64
	Huffman fastpath.HuffmanPolicy
}

// TestEncoderLineMemoProperty: a static-only encoder that has encoded
// sections before (its memo warm, and predicting each field from the last
// section) writes exactly what a new encoder writes, whatever the strings
// held before, whether they were changed in place, and by every way of
// writing: AppendSection, Plan and AppendPlanned, Begin and Continue.
func TestEncoderLineMemoProperty(t *testing.T) {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 200
	if testing.Short() {
		p.MinSuccessfulTests = 50
	}
	props := gopter.NewProperties(p)
	props.Property("a warm memo changes no byte", prop.ForAll(
		func(c lmCase) string {
			r := rand.New(rand.NewSource(c.Seed))
			// Mutable strings: the bytes behind them change in place.
			bufs := make([][]byte, 6)
			for i := range bufs {
				bufs[i] = make([]byte, 1+r.Intn(40))
				lmFill(r, bufs[i])
			}
			str := func(b []byte) string { return unsafe.String(&b[0], len(b)) }
			names := []string{":status", "content-type", "cache-control", "cookie", "authorization",
				"X-Mixed", "x-custom", "content-length", "Content-Length", str(bufs[0]), str(bufs[1])}
			values := []string{"200", "text/html; charset=utf-8", "", "0", "1024", "no-cache",
				"Tue, 02 Dec 2025 09:38:12 GMT", str(bufs[2]), str(bufs[3]), str(bufs[4]), str(bufs[5])}
			flags := []fastpath.Flags{0, 0, 0, fastpath.NeverIndex, fastpath.NoIndex, fastpath.Index}
			cfg := EncoderConfig{Huffman: c.Huffman}
			var warm Encoder
			warm.Init(cfg)
			var l fastpath.FieldList
			order := make([]int, 12)
			for i := range order {
				order[i] = r.Intn(len(names) * len(values))
			}
			for sec := range 12 {
				l.Reset()
				// Mostly the same fields in the same order, as a server
				// sends them; now and then others.
				for i, o := range order[:1+r.Intn(len(order))] {
					if r.Intn(6) == 0 {
						o = r.Intn(len(names) * len(values))
						order[i] = o
					}
					if r.Intn(8) == 0 {
						l.AddContentLength(r.Int63n(100000))
						continue
					}
					l.Add(names[o%len(names)], values[o/len(names)], flags[r.Intn(len(flags))])
				}
				var want []byte
				{
					var fresh Encoder
					fresh.Init(cfg)
					want = fresh.AppendSection(0, nil, &l)
					l.Rewind()
				}
				var got []byte
				switch sec % 3 {
				case 0:
					got = warm.AppendSection(uint64(sec), nil, &l)
				case 1:
					n := warm.Plan(uint64(sec), lmEnum{&l})
					if n != len(want) {
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
					return fmt.Sprintf("section %d: %x, want %x", sec, got, want)
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
		).Map(func(v []any) lmCase { return lmCase{v[0].(int64), v[1].(fastpath.HuffmanPolicy)} }),
	))
	props.TestingRun(t)
}

// lmFill fills b with letters, digits and punctuation, or with one byte
// repeated (to change little between sections).
func lmFill(r *rand.Rand, b []byte) {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_=;, /"
	if r.Intn(3) == 0 {
		c := chars[r.Intn(len(chars))]
		for i := range b {
			b[i] = c
		}
		return
	}
	for i := range b {
		b[i] = chars[r.Intn(len(chars))]
	}
}

// lmEnum hides a FieldList behind another Enumerator, so that the encoder
// takes its path for any Enumerator.
type lmEnum struct{ l *fastpath.FieldList }

func (e lmEnum) Next() bool                                    { return e.l.Next() }
func (e lmEnum) Field() (name, value string, f fastpath.Flags) { return e.l.Field() }
func (e lmEnum) ContentLength() (int64, bool)                  { return e.l.ContentLength() }

// The memo's buffers stay within their budget, however many distinct
// long strings pass.
func TestEncoderLineMemoBudget(t *testing.T) {
	var e Encoder
	var l fastpath.FieldList
	values := make([]string, 500)
	for i := range values {
		values[i] = fmt.Sprintf("%0*d", 1+i%400, i)
	}
	for round := range 3 {
		for _, v := range values {
			l.Reset()
			l.Add("x-long", v, 0)
			l.Add("server", v, 0)
			e.AppendSection(uint64(round), nil, &l)
		}
	}
	total := 0
	for i := range e.lines.ents {
		total += cap(e.lines.ents[i].buf)
	}
	if total > lineMemoBudget || total != e.lines.bytes {
		t.Errorf("buffers hold %d bytes (counted %d), budget %d", total, e.lines.bytes, lineMemoBudget)
	}
}
