package hpack

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/internal/codectest"
)

// decWords hands out the random words a property test was given, then
// zeros.
type decWords []uint64

func (w *decWords) next(n uint64) uint64 {
	if len(*w) == 0 {
		return 0
	}
	v := (*w)[0]
	*w = (*w)[1:]
	return v % n
}

var (
	decNames  = []string{"", "a", "x-custom", "content-type", ":path", "Upper", "cookie", "\x00\xff"}
	decValues = []string{"", "1", "text/html; charset=utf-8", " padded ", "\x80\x81\xfe", "/index.html"}
)

func (w *decWords) str(pool []string) string {
	switch w.next(6) {
	case 0: // long enough to evict, sometimes too large for the table
		return strings.Repeat(string(rune('a'+w.next(26))), int(w.next(5000)))
	case 1: // arbitrary bytes
		b := make([]byte, w.next(12))
		for i := range b {
			b[i] = byte(w.next(256))
		}
		return string(b)
	}
	return pool[w.next(uint64(len(pool)))]
}

func (w *decWords) huff() wire.Huffman { return wire.Huffman(w.next(3)) }

// decGenSections builds a few field sections from random words: mostly
// valid representations, with misplaced size updates, raw bytes, flipped
// bytes and truncations mixed in.
func decGenSections(words []uint64) [][]byte {
	w := decWords(words)
	var out [][]byte
	for range 1 + w.next(4) {
		var b []byte
		if w.next(4) == 0 {
			for range 1 + w.next(3) {
				b = decUpdate(b, []uint64{0, 100, 256, 4096, 4097, w.next(5000)}[w.next(6)])
			}
		}
		for range w.next(14) {
			switch w.next(24) {
			case 0, 1, 2, 3, 4, 5:
				b = decIndexed(b, 1+w.next(61))
			case 6, 7:
				b = decIndexed(b, 62+w.next(8))
			case 8:
				b = decIndexed(b, []uint64{0, 70, 200, 1 << 40}[w.next(4)])
			case 9, 10, 11, 12, 13, 14:
				b = decLit(b, decIncremental, w.next(66)*w.next(2), w.str(decNames), w.str(decValues), w.huff())
			case 15, 16, 17, 18:
				b = decLit(b, decWithout, w.next(66)*w.next(2), w.str(decNames), w.str(decValues), w.huff())
			case 19, 20:
				b = decLit(b, decNever, w.next(66)*w.next(2), w.str(decNames), w.str(decValues), w.huff())
			case 21:
				b = decUpdate(b, w.next(4200))
			case 22:
				for range 1 + w.next(4) {
					b = append(b, byte(w.next(256)))
				}
			case 23:
				// An overlong or overflowing integer.
				b = append(b, 0xff)
				for range w.next(12) {
					b = append(b, 0x80|byte(w.next(128)))
				}
				b = append(b, byte(w.next(128)))
			}
		}
		switch w.next(10) {
		case 0:
			if len(b) > 0 {
				b[w.next(uint64(len(b)))] ^= byte(1 + w.next(255))
			}
		case 1:
			b = b[:w.next(uint64(len(b)+1))]
		}
		out = append(out, b)
	}
	return out
}

// decSizeUpdatePlacement reports the errors of either decoder that come
// from the only rules where they differ, both about where a Dynamic Table
// Size Update may appear (RFC 7541 §4.2): x/net accepts one after fields
// while its table is empty, and more than two, and rejects a second one
// while its table is not empty; hqpack does the opposite of each.
func decSizeUpdatePlacement(ours, theirs error) bool {
	return errors.Is(ours, ErrSizeUpdate) ||
		theirs != nil && strings.Contains(theirs.Error(), "MUST occur at the beginning")
}

type decDiffStats struct{ accepted, rejected, excused int }

// decDiff decodes the sections with x/net and with hqpack (whole, and in
// fragments cut where the words say) and reports any difference.
func decDiff(words []uint64, st *decDiffStats) string {
	sections := decGenSections(words)
	cuts := decWords(slices.Clone(words))
	xd := xhpack.NewDecoder(4096, nil)
	var whole, frag Decoder
	cfg := DecoderConfig{MaxSectionSize: math.MaxInt}
	whole.Init(cfg)
	frag.Init(cfg)
	for i, block := range sections {
		xf, xerr := xd.DecodeFull(block)
		var got, gotFrag codectest.Recorder
		err := whole.Decode(block, &got)
		var ferr error
		for p := block; len(p) > 0 && ferr == nil; {
			n := min(len(p), 1+int(cuts.next(24)))
			ferr = frag.Write(p[:n], &gotFrag)
			p = p[n:]
		}
		if ferr == nil {
			ferr = frag.End()
		}
		if (err == nil) != (ferr == nil) || !slices.Equal(got.Fields, gotFrag.Fields) {
			return "section " + string(rune('0'+i)) + ": whole and fragmented differ: " + errString(err) + " / " + errString(ferr) +
				"\n" + cmp.Diff(got.Fields, gotFrag.Fields)
		}
		if decSizeUpdatePlacement(err, xerr) {
			st.excused++
			return ""
		}
		if (err == nil) != (xerr == nil) {
			return "section " + string(rune('0'+i)) + ": hqpack " + errString(err) + ", x/net " + errString(xerr)
		}
		if err != nil {
			st.rejected++
			return ""
		}
		var want []codectest.Field
		for _, f := range xf {
			want = append(want, codectest.Want(f.Name, f.Value, f.Sensitive))
		}
		if !slices.Equal(want, got.Fields) {
			return "section " + string(rune('0'+i)) + ": fields (-x/net +hqpack):\n" + cmp.Diff(want, got.Fields)
		}
		st.accepted++
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "accepted"
	}
	return err.Error()
}

// TestDecodeDifferential compares hqpack with golang.org/x/net/http2/hpack
// on random sections: same accept/reject and same fields, apart from
// decSizeUpdatePlacement's cases.
func TestDecodeDifferential(t *testing.T) {
	var st decDiffStats
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 3000
	params.MaxSize = 400
	props := gopter.NewProperties(params)
	props.Property("hqpack decodes as x/net", prop.ForAll(
		func(words []uint64) string { return decDiff(words, &st) },
		gen.SliceOf(gen.UInt64()),
	))
	props.TestingRun(t)
	t.Logf("sections: %d accepted by both, %d rejected by both, %d stories ended on size-update placement",
		st.accepted, st.rejected, st.excused)
	if st.accepted < 1000 || st.rejected < 200 {
		t.Errorf("too few sections compared: %+v", st)
	}
}

// TestDecodeXNetDifferences pins down each documented difference from x/net.
func TestDecodeXNetDifferences(t *testing.T) {
	entry := decLit(nil, decIncremental, 0, "a", "b", wire.HuffmanNever)
	cases := []struct {
		name      string
		sections  [][]byte
		ours, xok bool // whether the last section is accepted
	}{
		// §4.2: updates only at the start of a block; x/net allows one
		// later while its table is empty.
		{"update after a field, empty table", [][]byte{decUpdate(decBytes(0x82), 0)}, false, true},
		// §4.2: the smallest size, then the final one; x/net rejects the
		// second while its table holds entries.
		{"two updates, non-empty table", [][]byte{entry, decUpdate(decUpdate(nil, 100), 4096)}, true, false},
		// No encoder needs a third.
		{"three updates", [][]byte{decBytes(0x20, 0x20, 0x20)}, false, true},
	}
	for _, c := range cases {
		xd := xhpack.NewDecoder(4096, nil)
		var d Decoder
		var err, xerr error
		for _, s := range c.sections {
			_, xerr = xd.DecodeFull(s)
			err = d.Decode(s, codectest.Discard{})
		}
		if (err == nil) != c.ours || (xerr == nil) != c.xok {
			t.Errorf("%s: hqpack %v, x/net %v", c.name, err, xerr)
		}
	}
}
