package qpack

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/corpustest"
)

// TestEncoderRememberedLines checks that the lines an encoder remembers
// between sections (planRemembered) change nothing: an encoder whose
// memory is wiped before every section writes the same bytes, on the
// encoder stream and in every section, over the QIFs at several settings,
// with acknowledgments delayed, and with the fields' flags as given or
// changing at random (a remembered line keeps its field's flags).
func TestEncoderRememberedLines(t *testing.T) {
	dir := corpustest.Dir(t, "")
	flagSet := []fastpath.Flags{0, 0, 0, fastpath.NeverIndex, fastpath.NoIndex, fastpath.Index}
	for _, q := range etQIFNames {
		lists := etReadQIF(t, filepath.Join(dir, "qifs", "qifs", q+".qif"))
		for _, c := range []int{256, 4096} {
			for _, delay := range []int{0, 4, -1} {
				r := rand.New(rand.NewPCG(uint64(c), uint64(len(lists))))
				cfg := EncoderConfig{MaxTableCapacity: uint64(c), TableCapacity: uint64(c), MaxBlockedStreams: 20, AckMode: AckDecoderStream}
				var a, b Encoder
				a.Init(cfg)
				b.Init(cfg)
				var ad, bd Decoder
				ad.Init(DecoderConfig{MaxTableCapacity: uint64(c), MaxBlockedStreams: 20})
				bd.Init(DecoderConfig{MaxTableCapacity: uint64(c), MaxBlockedStreams: 20})
				var acks [][2][]byte
				var l fastpath.FieldList
				for i, fl := range lists {
					l.Reset()
					for _, f := range fl {
						if delay < 0 { // no delay, random flags
							f.Flags = flagSet[r.IntN(len(flagSet))]
						}
						l.Add(f.Name, f.Value, f.Flags)
					}
					clear(b.pl.fields[:cap(b.pl.fields)])
					sa := a.AppendSection(uint64(i)*4, nil, &l)
					sb := b.AppendSection(uint64(i)*4, nil, &l)
					ea, eb := a.AppendEncoderStream(nil), b.AppendEncoderStream(nil)
					if !bytes.Equal(sa, sb) || !bytes.Equal(ea, eb) {
						t.Fatalf("%s %d delay %d list %d: section %x, encoder stream %x; without memory %x, %x", q, c, delay, i, sa, ea, sb, eb)
					}
					var ack [2][]byte
					for k, d := range []*Decoder{&ad, &bd} {
						if err := d.ReadEncoderStream(ea); err != nil {
							t.Fatal(err)
						}
						if _, err := d.DecodeSection(uint64(i)*4, sa, codectest.Discard{}); err != nil {
							t.Fatal(err)
						}
						ack[k] = d.AppendDecoderStream(nil)
					}
					acks = append(acks, ack)
					for len(acks) > max(delay, 0) {
						if err := a.ReadDecoderStream(acks[0][0]); err != nil {
							t.Fatal(err)
						}
						if err := b.ReadDecoderStream(acks[0][1]); err != nil {
							t.Fatal(err)
						}
						acks = acks[1:]
					}
				}
			}
		}
	}
}

// TestBaseRange checks baseRange against refsLen for every Base: one
// shorter than the Required Insert Count lies within its range.
func TestBaseRange(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	counts := map[int]int{}
	for range 20000 {
		lo := r.Uint64N(1 << 20)
		if r.IntN(4) == 0 {
			lo = r.Uint64N(20) // lower ends clamped at 0
		}
		ric := lo + 1 + r.Uint64N(baseWindow)
		refs := make([]uint64, 1+r.IntN(40))
		refs[0] = lo << 1
		for i := 1; i < len(refs); i++ {
			refs[i] = (ric-1-r.Uint64N(min(ric-lo, 1+r.Uint64N(80))))<<1 | r.Uint64N(2)
		}
		at := refsLen(ric, ric, refs)
		x, first, last := baseRange(ric, refs)
		if at != 1+len(refs)+x {
			t.Fatalf("ric %d refs %v: x %d, refsLen %d", ric, refs, x, at)
		}
		counts[min(x, 5)]++
		for b := lo - min(lo, 20); b <= ric; b++ {
			want := refsLen(ric, b, refs)
			if want < at && (b < first || b > last) {
				t.Fatalf("ric %d base %d refs %v: outside %d to %d, refsLen %d (%d at ric)", ric, b, refs, first, last, want, at)
			}
			if x == 1 && b >= first && b <= last && want != baseLen(ric, b)+len(refs) {
				t.Fatalf("ric %d base %d refs %v: within %d to %d, refsLen %d", ric, b, refs, first, last, want)
			}
		}
	}
	for x := range 6 {
		if counts[x] < 500 {
			t.Fatalf("x %d in only %d sections (%v)", x, counts[x], counts)
		}
	}
}

// TestRefsLenUnder checks refsLenUnder against refsLen: the same length
// below the bound, and one at least the bound otherwise.
func TestRefsLenUnder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		ric := 1 + r.Uint64N(1<<12)
		refs := make([]uint64, 1+r.IntN(20))
		for i := range refs {
			refs[i] = r.Uint64N(ric)<<1 | r.Uint64N(2)
		}
		base := r.Uint64N(ric + 1)
		want := refsLen(ric, base, refs)
		for bound := 0; bound <= want+2; bound++ {
			got := refsLenUnder(ric, base, refs, bound)
			if want < bound && got != want || want >= bound && got < bound {
				t.Fatalf("ric %d base %d refs %v bound %d: %d, refsLen %d", ric, base, refs, bound, got, want)
			}
		}
	}
}

// refsLen returns the bytes that depend on the Base: the Base's part of the
// prefix and the index part of each reference (chooseBase's refs), as the
// Base search's counts and refsLenUnder must find it.
func refsLen(ric, base uint64, refs []uint64) int {
	n := baseLen(ric, base)
	for _, r := range refs {
		ref, name := r>>1, r&1
		if ref < base {
			n += relLen(base-1-ref, 63>>(2*name)) // 6 or 4 prefix bits
		} else {
			n += relLen(ref-base, 15>>name) // 4 or 3
		}
	}
	return n
}
