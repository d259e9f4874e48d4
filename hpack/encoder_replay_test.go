package hpack

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unsafe"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/static"
)

// TestEncoderReplay drives the replay slots and the repeated-section memo
// where they can go wrong: the same strings (same addresses) section after
// section, whole sections again, in the same or
// shifted positions, changed in place through unsafe between sections,
// with flags that change, raw Content-Lengths among them, fields that
// :path's line must not be replayed past (an inserted :path entry), peer
// table-size changes and small buffers. Every section must be exactly what
// an encoder without memos writes, and decode to the strings' current
// bytes.
func TestEncoderReplay(t *testing.T) {
	properties := gopter.NewProperties(propParams(300))
	properties.Property("replayed sections are what a memo-less encoder writes", prop.ForAll(
		func(seed int64) string { return replayScenario(t, seed) },
		gopter.Gen(func(p *gopter.GenParameters) *gopter.GenResult {
			return gopter.NewGenResult(p.Rng.Int63(), gopter.NoShrinker)
		}),
	))
	properties.TestingRun(t)
}

func replayScenario(t *testing.T, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	// Names are constants or lowercase buffers; values are buffers, so a
	// string keeps its address while its bytes change.
	names := []string{":path", ":status", ":method", "content-type", "date", "x-a", "x-b", "cookie", "authorization"}
	nameBufs := [][]byte{[]byte("x-buf"), []byte("etag")}
	valBufs := make([][]byte, 6)
	for i := range valBufs {
		valBufs[i] = []byte(strings.Repeat(string(rune('a'+i)), 1+rng.Intn(30)))
	}
	str := func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
	cfg := Config{
		TableLimit: []int{0, 64, 200, 4096}[rng.Intn(4)],
		Huffman:    fastpath.HuffmanPolicy(rng.Intn(3)),
		Indexing:   Indexing(rng.Intn(3)),
	}
	e, plain := New(cfg), New(cfg)
	plain.memoOff, plain.lookupAll = true, true
	limit, initial := cfg.sizes()
	dec := ourDecoder(initial)
	type pick struct {
		name, value int // name index (names, then nameBufs); value buffer, -1 for "200", -2 for an empty content-length
		f           fastpath.Flags
		cl          int64 // >= 0: a raw Content-Length instead
	}
	var base []pick
	for range 1 + rng.Intn(8) {
		base = append(base, pick{name: rng.Intn(len(names) + len(nameBufs)), value: rng.Intn(len(valBufs)+1) - 1, cl: -1})
	}
	for sec := range 20 {
		// Mostly the same fields, so that whole sections repeat; sometimes
		// a change.
		switch rng.Intn(16) {
		case 0:
			b := valBufs[rng.Intn(len(valBufs))]
			b[rng.Intn(len(b))] ^= 1 + byte(rng.Intn(3))
		case 1:
			if len(base) > 1 {
				base = append(base[1:], base[0]) // shifted positions
			}
		case 2:
			base[rng.Intn(len(base))].f = []fastpath.Flags{0, fastpath.NoIndex, fastpath.NeverIndex, fastpath.Index}[rng.Intn(4)]
		case 3:
			i := rng.Intn(len(base))
			base[i].cl = []int64{-1, 0, 7, 1024, 99999}[rng.Intn(5)]
		case 4:
			nameBufs[rng.Intn(len(nameBufs))][0] ^= 2 // still lowercase
		case 6:
			// The same field again, inserted: a name the policy keeps out
			// of the table (:path) gets an entry.
			if len(base) < 10 {
				p := base[rng.Intn(len(base))]
				p.f = fastpath.Index
				base = append(base, p)
			}
		case 7:
			// Only the number of a raw Content-Length.
			for i := range base {
				if base[i].cl >= 0 {
					base[i].cl = rng.Int63n(1 << uint(rng.Intn(40)))
				}
			}
		case 5:
			// A new size, or one that goes down and comes back: the
			// table loses entries and keeps its capacity.
			sizes := []uint32{[]uint32{0, 64, 128, 4096}[rng.Intn(4)]}
			if rng.Intn(2) == 0 {
				sizes = []uint32{0, uint32(limit)}
			}
			for _, v := range sizes {
				e.SetMaxTableSize(v)
				plain.SetMaxTableSize(v)
				dec.SetMaxTableSize(v)
			}
		case 9:
			// Another name or value at one position, often of the same
			// length (:status and :method, x-a and x-b).
			i := rng.Intn(len(base))
			if base[i].cl < 0 && base[i].value != -2 {
				base[i].name = rng.Intn(len(names) + len(nameBufs))
				base[i].value = rng.Intn(len(valBufs)+1) - 1
			}
		case 8:
			// A raw Content-Length and the string field that looks like
			// one (the same name, flags and empty value) trade places.
			i := rng.Intn(len(base))
			if base[i].cl >= 0 {
				base[i] = pick{value: -2, cl: -1}
			} else {
				base[i] = pick{cl: rng.Int63n(5000)}
			}
		}
		var l fastpath.FieldList
		var want []string
		for _, p := range base {
			var name string
			if p.name < len(names) {
				name = names[p.name]
			} else {
				name = str(nameBufs[p.name-len(names)])
			}
			if p.cl >= 0 {
				l.AddContentLength(p.cl)
				want = append(want, fmt.Sprintf("content-length: %d", p.cl))
				continue
			}
			if p.value == -2 {
				// Not raw: the string path's empty Content-Length.
				l.Add("content-length", "", fastpath.NoIndex.WithID(static.ContentLength))
				want = append(want, "content-length: ")
				continue
			}
			value := "200"
			if p.value >= 0 {
				value = str(valBufs[p.value])
			}
			l.Add(name, value, p.f)
			want = append(want, name+": "+value)
		}
		var block []byte
		if rng.Intn(2) == 0 {
			var res Result
			if block, res = framed(t, e, &l, 1+rng.Intn(40)); res == BufferTooSmall {
				big := make([]byte, 1<<12)
				n, _ := e.Continue(big)
				block = append(block, big[:n]...)
			}
		} else {
			block = e.AppendSection(nil, &l)
		}
		sp := l.StringPath()
		sp.Rewind()
		if p := plain.AppendSection(nil, sp); !bytes.Equal(block, p) {
			return fmt.Sprintf("seed %d section %d (limit %d): with the memos\n% x\nwithout\n% x", seed, sec, limit, block, p)
		}
		got, err := ourDecode(dec, block)
		if err != nil {
			return fmt.Sprintf("seed %d section %d: decode: %v", seed, sec, err)
		}
		var have []string
		for _, f := range got {
			have = append(have, f.Name+": "+f.Value)
		}
		if fmt.Sprint(have) != fmt.Sprint(want) {
			return fmt.Sprintf("seed %d section %d: decoded %q, want %q", seed, sec, have, want)
		}
	}
	return ""
}

// TestEncoderRepeatAfterTableEmptied empties the table with two size
// updates (to 0 and back) in a section written in several frames and made
// of static fields, so that neither the insert count nor the capacity
// changes, then sends again a section whose copy the encoder kept: that
// copy references entries that are gone, and must not be sent.
func TestEncoderRepeatAfterTableEmptied(t *testing.T) {
	e, plain := New(Config{}), New(Config{})
	plain.memoOff = true
	repeated := func(l *fastpath.FieldList) {
		l.Reset()
		l.Add(":status", "200", 0)
		l.Add("x-custom", "some value", 0)
		l.AddContentLength(1024)
	}
	statics := func(l *fastpath.FieldList) {
		l.Reset()
		for range 3 {
			l.Add(":status", "200", 0)
		}
	}
	var l fastpath.FieldList
	check := func(what string, build func(*fastpath.FieldList), frame int) {
		t.Helper()
		build(&l)
		var got []byte
		if frame == 0 {
			got = e.AppendSection(nil, &l)
		} else {
			var res Result
			if got, res = framed(t, e, &l, frame); res != Done {
				t.Fatalf("%s: %v", what, res)
			}
		}
		build(&l)
		if want := plain.AppendSection(nil, &l); !bytes.Equal(got, want) {
			t.Fatalf("%s: % x, want % x", what, got, want)
		}
	}
	for i := range 3 {
		check(fmt.Sprint("section ", i), repeated, 0)
	}
	if !e.rep.ok {
		t.Fatal("the repeated section is not remembered")
	}
	for _, v := range []uint32{0, DefaultTableSize} {
		e.SetMaxTableSize(v)
		plain.SetMaxTableSize(v)
	}
	check("static fields after the size updates, in frames of 5 bytes", statics, 5)
	check("the repeated section again", repeated, 0)
}
