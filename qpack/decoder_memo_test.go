package qpack

import (
	"fmt"
	"github.com/hqpack/hqpack/internal/qinstr"
	"math/rand"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// dmFull gives d a memo, on from the first section.
func dmFull(d *Decoder) { d.memo = newDecMemo() }

// dmSet returns the memo set of s's Huffman coding.
func dmSet(s string) int {
	c := wire.AppendHuffman(nil, s)
	head, tail := decKey(c, 0, len(c))
	return decHash(head, tail, len(c))
}

// dmSameSet returns n names and a value, made by name and value from 0,
// 1, ..., whose Huffman codings share one memo set.
func dmSameSet(t *testing.T, n int, name, value func(int) string) ([]string, string) {
	bySet := map[int][]string{}
	for i := 0; i < 10000; i++ {
		s := name(i)
		bySet[dmSet(s)] = append(bySet[dmSet(s)], s)
	}
	for i := 0; i < 10000; i++ {
		if names := bySet[dmSet(value(i))]; len(names) >= n {
			return names[:n], value(i)
		}
	}
	t.Fatal("no memo set collects enough strings")
	return nil, ""
}

// A literal name from the memo must stay what it is while the value is
// decoded, even when storing the value evicts the name's entry and reuses
// its buffer.
func TestDecoderMemoNameEviction(t *testing.T) {
	// The value's entry fits in the buffer of the name's entry, which it
	// reuses, and its bytes cover where the decoded name was.
	names, value := dmSameSet(t, decWays,
		func(i int) string { return fmt.Sprintf("x-a-rather-long-field-name-%d", i) },
		func(i int) string { return fmt.Sprintf("%024d", i) })
	line := func(dst []byte, name, value string, h fastpath.HuffmanPolicy) []byte {
		dst = wire.AppendString(dst, 0x20, 3, name, fastpath.HuffmanAlways)
		return wire.AppendString(dst, 0, 7, value, h)
	}
	// The names, oldest first, fill the set: names[0] is the one the
	// next store evicts.
	a := []byte{0, 0}
	for _, n := range names {
		a = line(a, n, "v", fastpath.HuffmanNever)
	}
	b := line([]byte{0, 0}, names[0], value, fastpath.HuffmanAlways)
	var d Decoder
	dmFull(&d)
	for _, sec := range [][]byte{a, b} {
		var s codectest.Recorder
		if _, err := d.DecodeSection(0, sec, &s); err != nil {
			t.Fatal(err)
		}
		var want codectest.Recorder
		if _, err := newDecoder(DecoderConfig{}).DecodeSection(0, sec, &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Fields, s.Fields); diff != "" {
			t.Errorf("section %x (-want +got):\n%s", sec, diff)
		}
	}
}

// A string in the memo is still held to the limits: a decoded length over
// MaxStringLength (or the section budget) fails as it does without the
// memo, though the coded length is within it.
func TestDecoderMemoLimits(t *testing.T) {
	value := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"                                               // 30 bytes, coded in 19
	sec := wire.AppendString([]byte{0, 0, 0x5f, 0x1d}, 0, 7, value, fastpath.HuffmanAlways) // content-type (static 44)
	var d Decoder
	for _, cfg := range []DecoderConfig{
		{},
		{MaxStringLength: 29},
		{MaxStringLength: 20},
		{MaxStringLength: 19},
		{MaxStringLength: 18},
		{MaxSectionSize: 32 + len("content-type") + 29},
		{MaxSectionSize: 32 + len("content-type") + 30},
		{},
	} {
		d.Init(cfg) // keeps the memo
		for range 2 {
			var got, want codectest.Recorder
			_, err := d.DecodeSection(0, sec, &got)
			_, wantErr := newDecoder(cfg).DecodeSection(0, sec, &want)
			if !reflect.DeepEqual(err, wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("%+v: %v %v, want %v %v", cfg, got.Fields, err, want.Fields, wantErr)
			}
			if err != nil {
				d.Init(cfg)
			}
		}
	}
}

// dmCase is a connection's worth of sections drawn from a small pool of
// strings, some of them corrupted.
type dmCase struct {
	Seed     int64
	Validate bool
}

// TestDecoderMemoProperty: a decoder whose memo is warm decodes every
// section exactly as a new decoder does, fields and errors, whatever it
// decoded before.
func TestDecoderMemoProperty(t *testing.T) {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 300
	if testing.Short() {
		p.MinSuccessfulTests = 60
	}
	props := gopter.NewProperties(p)
	props.Property("a warm memo decodes as a new decoder", prop.ForAll(
		func(c dmCase) string {
			r := rand.New(rand.NewSource(c.Seed))
			pool := []string{"", "a", "GET", "x-custom", "Mozilla/5.0 (X11; Linux x86_64)", "text/html; charset=utf-8",
				"Tue, 02 Dec 2025 09:38:12 GMT", "Tue, 02 Dec 2025 09:38:13 GMT", "\x00\xff", "gzip, deflate, br, zstd",
				fmt.Sprintf("%0200d", r.Int63())}
			cfg := DecoderConfig{Validate: c.Validate, MaxStringLength: []int{0, 0, 24, 100}[r.Intn(4)]}
			var warm Decoder
			warm.Init(cfg)
			for sec := range 16 {
				b := []byte{0, 0}
				for range 1 + r.Intn(8) {
					name, value := pool[r.Intn(len(pool))], pool[r.Intn(len(pool))]
					hn, hv := fastpath.HuffmanPolicy(r.Intn(3)), fastpath.HuffmanPolicy(r.Intn(3))
					switch r.Intn(4) {
					case 0:
						b = qinstr.AppendIndexed(b, true, uint64(r.Intn(99)))
					case 1:
						b = qinstr.AppendLiteralNameRef(b, true, uint64(r.Intn(99)), value, r.Intn(4) == 0, hv)
					default:
						b = wire.AppendString(b, 0x20, 3, name, hn)
						b = wire.AppendString(b, 0, 7, value, hv)
					}
				}
				if r.Intn(5) == 0 {
					b[2+r.Intn(len(b)-2)] ^= byte(1 << r.Intn(8))
				}
				if r.Intn(8) == 0 {
					b = b[:2+r.Intn(len(b)-1)]
				}
				var got, want codectest.Recorder
				_, err := warm.DecodeSection(4, b, &got)
				_, wantErr := newDecoder(cfg).DecodeSection(4, b, &want)
				if !reflect.DeepEqual(err, wantErr) || !reflect.DeepEqual(got, want) {
					return fmt.Sprintf("section %d %x: %v %v, want %v %v", sec, b, got.Fields, err, want.Fields, wantErr)
				}
				if err != nil {
					warm.Init(cfg) // after a connection error; the memo stays
				}
			}
			return ""
		},
		gopter.CombineGens(gen.Int64(), gen.Bool()).Map(func(v []any) dmCase {
			return dmCase{v[0].(int64), v[1].(bool)}
		}),
	))
	props.TestingRun(t)
}

// The memo's arena stays within its budget, however many distinct
// strings pass.
func TestDecoderMemoBudget(t *testing.T) {
	var d Decoder
	for i := range 2000 {
		v := fmt.Sprintf("%0*d", 1+i%500, i)
		sec := qinstr.AppendLiteralNameRef([]byte{0, 0}, true, 92, v, false, fastpath.HuffmanAlways)
		if _, err := d.DecodeSection(0, sec, codectest.Discard{}); err != nil {
			t.Fatal(err)
		}
	}
	if c := cap(d.memo.arena); c > decMemoBudget {
		t.Errorf("the arena holds %d bytes, budget %d", c, decMemoBudget)
	}
}

// A string that differs from the one the memo predicts by one bit, at any
// coded byte and for every coded length up to and past the lengths the
// fast path compares word by word, decodes as a new decoder decodes it;
// the original still decodes as itself afterwards.
func TestDecoderMemoNearMiss(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ,;=/-ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for n := 1; n <= 64; n++ {
		v := make([]byte, n)
		for i := range v {
			v[i] = alphabet[(i*7+n)%len(alphabet)]
		}
		orig := qinstr.AppendLiteralNameRef([]byte{0, 0, 0xd9}, true, 92, string(v), false, fastpath.HuffmanAlways)
		// The value's coded bytes: past the prefix, the indexed line, the
		// name reference and the one-byte length.
		const at = 6
		if orig[5]&0x7f == 0x7f {
			t.Fatalf("length %d: a two-byte length", n)
		}
		var warm Decoder
		dmFull(&warm)
		var want codectest.Recorder
		for range 2 { // the second time, from the prediction
			want = codectest.Recorder{}
			if _, err := warm.DecodeSection(4, orig, &want); err != nil {
				t.Fatal(err)
			}
		}
		for j := at; j < len(orig); j++ {
			for bit := range 8 {
				b := append([]byte(nil), orig...)
				b[j] ^= 1 << bit
				var got, fresh codectest.Recorder
				_, err := warm.DecodeSection(4, b, &got)
				_, freshErr := newDecoder(DecoderConfig{}).DecodeSection(4, b, &fresh)
				if !reflect.DeepEqual(err, freshErr) || !reflect.DeepEqual(got, fresh) {
					t.Fatalf("value of %d bytes, byte %d bit %d: %v %v, want %v %v", n, j-at, bit, got.Fields, err, fresh.Fields, freshErr)
				}
				if err != nil {
					warm.Init(DecoderConfig{}) // a connection error; the memo stays
				}
				got = codectest.Recorder{}
				if _, err := warm.DecodeSection(4, orig, &got); err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("value of %d bytes after byte %d bit %d: %v %v, want %v", n, j-at, bit, got.Fields, err, want.Fields)
				}
			}
		}
	}
}

// The memo starts with a connection's second section without references;
// the first one's scratch goes after it. Init keeps the memo, wiped, for
// the next connection, which uses it from its first section.
func TestDecoderMemoSecondSection(t *testing.T) {
	var d Decoder
	for i := range 3 {
		if _, err := d.DecodeSection(0, requestStatic, codectest.Discard{}); err != nil {
			t.Fatal(err)
		}
		if got := d.memo != nil; got != (i > 0) || i == 0 && d.valueBuf != nil {
			t.Fatalf("section %d: memo %v, scratch %d", i, got, cap(d.valueBuf))
		}
	}
	if len(d.memo.arena) <= decMemoHead || d.valueBuf != nil {
		t.Errorf("the memo holds %d bytes, the scratch %d", len(d.memo.arena), cap(d.valueBuf))
	}
	d.Init(DecoderConfig{})
	if d.memo == nil || len(d.memo.arena) != decMemoHead {
		t.Fatal("Init dropped the memo or kept its strings")
	}
	if _, err := d.DecodeSection(0, requestStatic, codectest.Discard{}); err != nil || len(d.memo.arena) <= decMemoHead {
		t.Fatal(err, "the memo is off in the next connection's first section")
	}
}
