package wire

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"golang.org/x/net/http2/hpack"
)

// fixedValues are the values around every digit-count change and the
// ones a server sends most.
func fixedValues() []uint64 {
	vs := []uint64{0, 9, 10, 99, 100, 299, 300, 999, 1000, 1024, 65536, math.MaxInt64, math.MaxUint64}
	for _, p := range pow10 {
		vs = append(vs, p-1, p, p+1)
	}
	return vs
}

// genValue yields values of every magnitude, not just 19- and 20-digit ones.
func genValue() gopter.Gen {
	return gen.OneGenOf(
		gen.UInt64(),
		gen.UInt64Range(0, 1e4),
		gen.UInt8Range(1, 64).FlatMap(func(k any) gopter.Gen {
			return gen.UInt64Range(0, math.MaxUint64>>(64-k.(uint8)))
		}, reflect.TypeFor[uint64]()),
	)
}

// checkDigits compares every digit function on n with the string path.
func checkDigits(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var diffs []string
	add := func(what string, want, got any) {
		if d := cmp.Diff(want, got); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s(%d): %s", what, n, d))
		}
	}
	prefix := []byte("x:")
	add("AppendDigits", "x:"+s, string(AppendDigits(prefix[:2:2], n)))
	add("AppendDigits with room", "x:"+s, string(AppendDigits(append(make([]byte, 0, 64), prefix...), n)))
	add("DigitsLen", len(s), DigitsLen(n))
	add("AppendHuffmanDigits", AppendHuffman([]byte("x:"), s), AppendHuffmanDigits(prefix[:2:2], n))
	add("AppendHuffmanDigits with room", AppendHuffman([]byte("x:"), s), AppendHuffmanDigits(append(make([]byte, 0, 64), prefix...), n))
	if n < 1e9 {
		code, bits := HuffmanDigits(n)
		add("AppendHuffmanCode(HuffmanDigits)", AppendHuffman([]byte("x:"), s), AppendHuffmanCode(prefix[:2:2], code, bits))
		add("AppendHuffmanCode(HuffmanDigits) with room", AppendHuffman([]byte("x:"), s), AppendHuffmanCode(append(make([]byte, 0, 64), prefix...), code, bits))
	}
	add("AppendHuffmanDigits vs x/net", hpack.AppendHuffmanString(nil, s), AppendHuffmanDigits(nil, n))
	add("HuffmanDigitsLen", HuffmanLen(s), HuffmanDigitsLen(n))
	for _, p := range []Huffman{HuffmanAuto, HuffmanAlways, HuffmanNever, 3} {
		type choice struct {
			Payload int
			Huff    bool
		}
		var want, got choice
		want.Payload, want.Huff = p.Choose(s)
		got.Payload, got.Huff = DigitsChoice(p, n)
		add(fmt.Sprintf("DigitsChoice(%d)", p), want, got)
		code, bits := uint64(0), uint(0)
		got.Payload, got.Huff, code, bits = DigitsCode(p, n)
		add(fmt.Sprintf("DigitsCode(%d)", p), want, got)
		if bits > 0 || got.Huff && n < 1e9 {
			add(fmt.Sprintf("DigitsCode(%d)'s code", p), AppendHuffman(nil, s), AppendHuffmanCode(nil, code, bits))
		}
	}
	if diffs == nil {
		return ""
	}
	return fmt.Sprint(diffs)
}

func TestDigitsFixed(t *testing.T) {
	for _, n := range fixedValues() {
		if d := checkDigits(n); d != "" {
			t.Error(d)
		}
	}
}

func TestDigitsRandom(t *testing.T) {
	p := properties(t, 20000)
	p.Property("digit functions == string path", prop.ForAll(checkDigits, genValue()))
	p.TestingRun(t)
}

func TestDigitsAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	var sink int
	allocs := testing.AllocsPerRun(100, func() {
		for _, n := range []uint64{0, 299, 1024, math.MaxInt64, math.MaxUint64} {
			buf = AppendDigits(buf[:0], n)
			buf = AppendHuffmanDigits(buf, n)
			p, _ := DigitsChoice(HuffmanAuto, n)
			sink += p + DigitsLen(n) + HuffmanDigitsLen(n)
		}
	})
	if allocs != 0 {
		t.Errorf("digit functions: %v allocs per run", allocs)
	}
	_ = sink
}
