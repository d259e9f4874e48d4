package wire

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

func properties(t *testing.T, runs int) *gopter.Properties {
	t.Helper()
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = runs
	t.Logf("gopter seed %d", p.Seed())
	return gopter.NewProperties(p)
}

// intResult is what ReadInt returns, for cmp.Diff.
type intResult struct {
	V   uint64
	Len int
	Err error
}

func readInt(src []byte, n uint8) intResult {
	v, l, err := ReadInt(src, n)
	return intResult{v, l, err}
}

var cmpErr = cmp.Comparer(func(a, b error) bool { return errors.Is(a, b) && errors.Is(b, a) })

// spread maps a random word and a bit length to a value of at most k bits,
// so that every magnitude up to MaxInt is equally likely.
func spread(r uint64, k uint8) uint64 {
	if k == 0 {
		return 0
	}
	return r >> (64 - k)
}

// highBits keeps the bits of b above an n-bit prefix.
func highBits(b byte, n uint8) byte { return b &^ (byte(1)<<n - 1) }

func TestIntRoundTrip(t *testing.T) {
	p := properties(t, 20000)
	p.Property("ReadInt(AppendInt(v)) == v for v <= MaxInt", prop.ForAll(
		func(r uint64, k, n, hi uint8, junk []byte) string {
			v := spread(r, k)
			first := highBits(hi, n)
			enc := AppendInt(junk[:len(junk):len(junk)], first, n, v)
			if !bytes.Equal(enc[:len(junk)], junk) {
				return "AppendInt changed dst"
			}
			enc = enc[len(junk):]
			if len(enc) != IntLen(n, v) {
				return fmt.Sprintf("len %d, IntLen %d", len(enc), IntLen(n, v))
			}
			if highBits(enc[0], n) != first {
				return fmt.Sprintf("first byte %#x lost high bits %#x", enc[0], first)
			}
			// Trailing bytes are not consumed.
			src := append(enc[:len(enc):len(enc)], junk...)
			return cmp.Diff(intResult{v, len(enc), nil}, readInt(src, n), cmpErr)
		},
		gen.UInt64(), gen.UInt8Range(0, 62), gen.UInt8Range(1, 8), gen.UInt8(),
		gen.SliceOf(gen.UInt8()),
	))
	p.TestingRun(t)
}

// boundaries lists the values around every place where an encoding changes
// length or shape for an n-bit prefix.
func boundaries(n uint8) []uint64 {
	m := uint64(1)<<n - 1
	vs := []uint64{0, 1, m - 1, m, m + 1, MaxInt - 1, MaxInt}
	for k := uint(1); k <= 62; k++ {
		vs = append(vs, 1<<k-1, 1<<k, (1<<k)-2)
		if k%7 == 0 {
			// The continuation bytes change count at m + 2^(7j).
			vs = append(vs, m+1<<k-1, m+1<<k)
		}
	}
	out := vs[:0]
	for _, v := range vs {
		if v <= MaxInt {
			out = append(out, v)
		}
	}
	return out
}

func TestIntBoundaries(t *testing.T) {
	for n := uint8(1); n <= 8; n++ {
		for _, v := range boundaries(n) {
			enc := AppendInt(nil, 0, n, v)
			if diff := cmp.Diff(intResult{v, len(enc), nil}, readInt(enc, n), cmpErr); diff != "" {
				t.Errorf("n=%d v=%d enc=%x: %s", n, v, enc, diff)
			}
			if len(enc) != IntLen(n, v) {
				t.Errorf("n=%d v=%d: len %d, IntLen %d", n, v, len(enc), IntLen(n, v))
			}
			// Minimal: a last continuation byte is zero only when it is the
			// only one (the value is exactly the prefix maximum).
			if len(enc) > 2 && enc[len(enc)-1] == 0 {
				t.Errorf("n=%d v=%d: non-minimal encoding %x", n, v, enc)
			}
			if len(enc) > 1+maxContinuation {
				t.Errorf("n=%d v=%d: %d continuation bytes", n, v, len(enc)-1)
			}
			for i := range enc {
				if _, _, err := ReadInt(enc[:i], n); err != ErrTruncated {
					t.Errorf("n=%d v=%d: prefix %x: err %v, want ErrTruncated", n, v, enc[:i], err)
				}
			}
		}
	}
}

func TestIntTruncated(t *testing.T) {
	p := properties(t, 5000)
	p.Property("every proper prefix of a valid encoding is ErrTruncated", prop.ForAll(
		func(r uint64, k, n, hi uint8) string {
			enc := AppendInt(nil, highBits(hi, n), n, spread(r, k))
			for i := range enc {
				if diff := cmp.Diff(intResult{0, 0, ErrTruncated}, readInt(enc[:i], n), cmpErr); diff != "" {
					return fmt.Sprintf("prefix %x of %x: %s", enc[:i], enc, diff)
				}
			}
			return ""
		},
		gen.UInt64(), gen.UInt8Range(0, 62), gen.UInt8Range(1, 8), gen.UInt8(),
	))
	p.TestingRun(t)
}

func TestIntRFC7541C1(t *testing.T) {
	for _, c := range []struct {
		n   uint8
		v   uint64
		hex string
	}{
		{5, 10, "0a"},       // C.1.1
		{5, 1337, "1f9a0a"}, // C.1.2
		{8, 42, "2a"},       // C.1.3
	} {
		if got := fmt.Sprintf("%x", AppendInt(nil, 0, c.n, c.v)); got != c.hex {
			t.Errorf("AppendInt(%d, n=%d) = %s, want %s", c.v, c.n, got, c.hex)
		}
		var enc []byte
		fmt.Sscanf(c.hex, "%x", &enc)
		if diff := cmp.Diff(intResult{c.v, len(enc), nil}, readInt(enc, c.n), cmpErr); diff != "" {
			t.Errorf("ReadInt(%s, n=%d): %s", c.hex, c.n, diff)
		}
	}
}

func TestIntOverflow(t *testing.T) {
	check := func(what string, src []byte, n uint8) {
		t.Helper()
		if diff := cmp.Diff(intResult{0, 0, ErrIntegerOverflow}, readInt(src, n), cmpErr); diff != "" {
			t.Errorf("%s n=%d %x: %s", what, n, src, diff)
		}
	}
	for n := uint8(1); n <= 8; n++ {
		m := byte(1)<<n - 1
		for _, v := range []uint64{MaxInt + 1, MaxInt + 2, 1 << 63, math.MaxUint64 - 1, math.MaxUint64} {
			check(fmt.Sprintf("AppendInt(%d)", v), AppendInt(nil, 0, n, v), n)
		}
		// The longest run that a valid value may use, with the largest
		// possible 7-bit groups: far above MaxInt but within 64 bits.
		check("9 x 0xff", append([]byte{m}, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), n)
		// Ten continuation bytes whose sum is 2^64: a decoder that adds in
		// uint64 without a length cap would wrap to a small value.
		wrap := []byte{m}
		for rest := -uint64(m); rest != 0; rest >>= 7 { // 2^64 - m
			wrap = append(wrap, byte(rest)|0x80)
		}
		wrap[len(wrap)-1] &^= 0x80
		check("2^64 - prefix", wrap, n)
		// Zero-valued but too long: the value is the prefix maximum, but a
		// run longer than 9 continuation bytes is never needed.
		for k := 1; k <= 20; k++ {
			run := append([]byte{m}, bytes.Repeat([]byte{0x80}, k-1)...)
			run = append(run, 0x00)
			if k <= maxContinuation {
				if diff := cmp.Diff(intResult{uint64(m), k + 1, nil}, readInt(run, n), cmpErr); diff != "" {
					t.Errorf("n=%d %d zero continuation bytes: %s", n, k, diff)
				}
			} else {
				check("long zero run", run, n)
			}
			// Without the final byte: truncated until the run is too long
			// to end validly.
			open := run[:len(run)-1]
			want := intResult{0, 0, ErrTruncated}
			if k-1 >= maxContinuation {
				want.Err = ErrIntegerOverflow
			}
			if diff := cmp.Diff(want, readInt(open, n), cmpErr); diff != "" {
				t.Errorf("n=%d open run of %d: %s", n, k-1, diff)
			}
		}
	}
}

// refReadInt is a straightforward decoder with unbounded arithmetic: the
// specification ReadInt must meet. Continuation bytes only add to the
// value, so once the value passes MaxInt, or a tenth continuation byte would
// be needed, no further input can make it valid.
func refReadInt(src []byte, n uint8) intResult {
	if len(src) == 0 {
		return intResult{0, 0, ErrTruncated}
	}
	mask := int64(1)<<n - 1
	v := big.NewInt(int64(src[0]) & mask)
	if v.Int64() < mask {
		return intResult{v.Uint64(), 1, nil}
	}
	limit := big.NewInt(MaxInt)
	for i := 1; ; i++ {
		if v.Cmp(limit) > 0 || i > 9 {
			return intResult{0, 0, ErrIntegerOverflow}
		}
		if i >= len(src) {
			return intResult{0, 0, ErrTruncated}
		}
		g := big.NewInt(int64(src[i] & 0x7f))
		v.Add(v, g.Lsh(g, uint(7*(i-1))))
		if src[i] < 0x80 {
			if v.Cmp(limit) > 0 {
				return intResult{0, 0, ErrIntegerOverflow}
			}
			return intResult{v.Uint64(), i + 1, nil}
		}
	}
}

func TestIntReference(t *testing.T) {
	p := properties(t, 20000)
	p.Property("ReadInt == big-int reference on arbitrary bytes", prop.ForAll(
		func(src []byte, n uint8) string {
			return cmp.Diff(refReadInt(src, n), readInt(src, n), cmpErr)
		},
		gen.SliceOf(gen.UInt8()), gen.UInt8Range(1, 8),
	))
	// Arbitrary bytes rarely reach the interesting lengths: build inputs
	// with an all-ones prefix and mostly continuation bytes.
	p.Property("ReadInt == reference on long continuation runs", prop.ForAll(
		func(groups []byte, conts []bool, n uint8, cut uint8) string {
			src := []byte{0xff}
			for i, g := range groups {
				b := g & 0x7f
				if i < len(conts) && conts[i] {
					b |= 0x80
				}
				src = append(src, b)
			}
			src = src[:min(len(src), int(cut))]
			return cmp.Diff(refReadInt(src, n), readInt(src, n), cmpErr)
		},
		gen.SliceOfN(12, gen.UInt8()),
		gen.SliceOfN(12, gen.Weighted([]gen.WeightedGen{{Weight: 7, Gen: gen.Const(true)}, {Weight: 1, Gen: gen.Const(false)}})),
		gen.UInt8Range(1, 8), gen.UInt8Range(0, 13),
	))
	p.TestingRun(t)
}

func TestIntLenAllValues(t *testing.T) {
	p := properties(t, 5000)
	p.Property("IntLen == len(AppendInt) for every uint64", prop.ForAll(
		func(r uint64, k, n uint8) bool {
			v := spread(r, k)
			return IntLen(n, v) == len(AppendInt(nil, 0, n, v))
		},
		gen.UInt64(), gen.UInt8Range(0, 64), gen.UInt8Range(1, 8),
	))
	p.TestingRun(t)
}

func TestIntAllocs(t *testing.T) {
	buf := make([]byte, 0, 16)
	var sink uint64
	allocs := testing.AllocsPerRun(100, func() {
		for n := uint8(1); n <= 8; n++ {
			enc := AppendInt(buf[:0], 0, n, MaxInt)
			v, _, _ := ReadInt(enc, n)
			sink += v
			v, _, _ = ReadInt(enc[:1], n)
			sink += v
		}
	})
	if allocs != 0 {
		t.Errorf("AppendInt/ReadInt: %v allocs per run", allocs)
	}
	_ = sink
}

func BenchmarkReadInt(b *testing.B) {
	for _, v := range []uint64{10, 1337, 1 << 20, MaxInt} {
		enc := AppendInt(nil, 0, 5, v)
		b.Run(fmt.Sprintf("len=%d", len(enc)), func(b *testing.B) {
			var sink uint64
			for b.Loop() {
				x, _, _ := ReadInt(enc, 5)
				sink += x
			}
			_ = sink
		})
	}
}

// RFC 7541 C.1.2: 1337 with a 5-bit prefix, after three bits of pattern.
func ExampleAppendInt() {
	enc := AppendInt(nil, 0b101_00000, 5, 1337)
	fmt.Printf("%x\n", enc)
	v, n, err := ReadInt(enc, 5)
	fmt.Println(v, n, err)
	_, _, err = ReadInt(enc[:2], 5)
	fmt.Println(err)
	// Output:
	// bf9a0a
	// 1337 3 <nil>
	// truncated input
}
