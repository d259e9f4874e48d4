package wire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"golang.org/x/net/http2/hpack"
)

// RFC 7541 Appendix C.4 and C.6 Huffman-coded strings.
var huffmanRFCExamples = []struct{ text, hex string }{
	{"www.example.com", "f1e3c2e5f23a6ba0ab90f4ff"},
	{"no-cache", "a8eb10649cbf"},
	{"custom-key", "25a849e95ba97d7f"},
	{"custom-value", "25a849e95bb8e8b4bf"},
	{"302", "6402"},
	{"307", "640eff"},
	{"private", "aec3771a4b"},
	{"Mon, 21 Oct 2013 20:13:21 GMT", "d07abe941054d444a8200595040b8166e082a62d1bff"},
	{"Mon, 21 Oct 2013 20:13:22 GMT", "d07abe941054d444a8200595040b8166e084a62d1bff"},
	{"https://www.example.com", "9d29ad171863c78f0b97c8e9ae82ae43d3"},
	{"gzip", "9bd9ab"},
	{"foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
		"94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"},
}

func TestHuffmanRFCExamples(t *testing.T) {
	for _, tc := range huffmanRFCExamples {
		want, err := hex.DecodeString(tc.hex)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendHuffman(nil, tc.text); !bytes.Equal(got, want) {
			t.Errorf("AppendHuffman(%q) = %x, want %x", tc.text, got, want)
		}
		if got := HuffmanLen(tc.text); got != len(want) {
			t.Errorf("HuffmanLen(%q) = %d, want %d", tc.text, got, len(want))
		}
		got, err := AppendHuffmanDecode(nil, want, len(tc.text))
		if err != nil || string(got) != tc.text {
			t.Errorf("AppendHuffmanDecode(%x) = %q, %v; want %q", want, got, err, tc.text)
		}
	}
}

// TestHuffmanEncodePaths checks AppendHuffman against x/net on strings
// made to take each of its paths: groups of 8 bytes coded by pairs, groups
// over 64 bits (8-bit codes after pending bits), pairs of 24 and 26 bits,
// either side of the longest the pair table holds, pairs with long codes,
// and the last bytes one at a time; at every length up to 80, every
// alignment of the groups, and with dst's room running out at every point
// (and just short of, and at, the room that takes the one-pass coder).
func TestHuffmanEncodePaths(t *testing.T) {
	pieces := []string{
		"www.example.com/",                 // short codes
		"aXXXXXXXXZZZZZZZZ",                // 8-bit codes
		"\x00+ee#>eeee\x00@ee$@eeee",       // pairs of 24, 24, 26 and 26 bits
		"a\x00b\xffc\x80d\x1f",             // long codes
		"Mozilla/5.0 (X11; Linux x86_64) ", // header text
	}
	for _, p := range pieces {
		text := strings.Repeat(p, 90/len(p)+1)
		for off := range 8 {
			for n := 0; n <= 80; n++ {
				s := text[off : off+n]
				want := hpack.AppendHuffmanString(nil, s)
				for _, spare := range []int{0, len(want) / 2, len(want), len(want) + 16, n + 7, n + 8, huffmanMax(n) + 7, huffmanMax(n) + 8} {
					dst := make([]byte, 1, 1+spare)
					got := AppendHuffman(dst, s)
					if !bytes.Equal(got[1:], want) {
						t.Fatalf("AppendHuffman(%q) with %d spare = %x, want %x", s, spare, got[1:], want)
					}
				}
			}
		}
	}
}

// TestHuffmanEncodeHalves checks the groups over 64 bits that go in two
// stores, a half each, and the room they need: text of 8- to 10-bit codes,
// where every group is over 64 bits, with each byte value in turn at each
// position (so that some groups hold a long pair), at every length from 0
// to 40 and with dst's room running out at every point, against x/net.
func TestHuffmanEncodeHalves(t *testing.T) {
	text := []byte(`X!Z(&*),;"?XZ&*,;X!Z(&*),;"?XZ&*,;X!Z(&*),;"?`)
	for n := 0; n <= 40; n++ {
		for b := range 256 {
			for at := 0; at < max(n, 1); at += 5 {
				s := bytes.Clone(text[:n])
				if at < n {
					s[at] = byte(b)
				}
				want := hpack.AppendHuffmanString(nil, string(s))
				for spare := 0; spare <= len(want)+16; spare++ {
					got := AppendHuffman(make([]byte, 1, 1+spare), string(s))
					if !bytes.Equal(got[1:], want) {
						t.Fatalf("AppendHuffman(%q) with %d spare = %x, want %x", s, spare, got[1:], want)
					}
				}
			}
		}
	}
}

// TestHuffmanBitLen checks huffmanBitLen, which reads 8 bytes a round,
// then 4, then one at a time, against a sum over the code table: every
// length from 0 to 40, each byte value at each position of header text.
func TestHuffmanBitLen(t *testing.T) {
	text := []byte("Mozilla/5.0 (X11; Linux x86_64) text/html;q=0.9, gzip")
	for n := 0; n <= 40; n++ {
		for b := range 256 {
			for at := 0; at < max(n, 1); at += 3 {
				s := bytes.Clone(text[:n])
				if at < n {
					s[at] = byte(b)
				}
				want := 0
				for _, c := range s {
					want += int(huffmanCodes[c].bits)
				}
				if got := huffmanBitLen(string(s)); got != want {
					t.Fatalf("huffmanBitLen(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

// TestHuffmanCodeTable checks the literal table against x/net's encoder,
// symbol by symbol, and checks that it is a complete prefix code whose EOS
// is 30 1s: the decoder's binary search relies on completeness.
func TestHuffmanCodeTable(t *testing.T) {
	for sym := 0; sym < 256; sym++ {
		s := string([]byte{byte(sym)})
		if got, want := AppendHuffman(nil, s), hpack.AppendHuffmanString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("symbol %d: code %x, x/net %x", sym, got, want)
		}
	}
	if c := huffmanCodes[256]; c.code != 1<<30-1 || c.bits != 30 {
		t.Errorf("EOS = %#x/%d, want 0x3fffffff/30", c.code, c.bits)
	}
	var kraft uint64 // sum of 2^(30-len): 2^30 for a complete code
	for a, ca := range huffmanCodes {
		if ca.bits < 5 || ca.bits > 30 || ca.code>>ca.bits != 0 {
			t.Fatalf("symbol %d: code %#x does not fit %d bits", a, ca.code, ca.bits)
		}
		kraft += 1 << (30 - ca.bits)
		for b, cb := range huffmanCodes {
			if a != b && ca.bits <= cb.bits && cb.code>>(cb.bits-ca.bits) == ca.code {
				t.Errorf("code of %d is a prefix of the code of %d", a, b)
			}
		}
	}
	if kraft != 1<<30 {
		t.Errorf("Kraft sum %d/2^30, want 1: the code is not complete", kraft)
	}
}

// TestHuffmanDecodeTable checks every window's entry of both decoding
// tables (12 bits, up to 2 symbols; 16 bits, up to 3) against a
// bit-by-bit decode of that window.
func TestHuffmanDecodeTable(t *testing.T) {
	huffmanDecodeOnce.Do(buildHuffmanDecodeTable)
	huffmanSplitOnce.Do(buildHuffmanSplitTable)
	for _, tab := range []struct {
		t     []uint32
		width uint
		most  int
	}{{huffmanShortTable[:], 12, 2}, {huffmanDecodeTable[:], 16, 3}} {
		for w := range tab.t {
			var syms []byte
			used := uint(0)
			for len(syms) < tab.most {
				sym, l, ok := decodeBitwise(uint32(w), tab.width, used)
				if !ok {
					break
				}
				syms = append(syms, byte(sym))
				used += l
			}
			e := tab.t[w]
			count := int(e >> 30)
			gotUsed := uint(e & 63)
			var got []byte
			for k := 0; k < count; k++ {
				got = append(got, byte(e>>(6+8*k)))
			}
			if !bytes.Equal(got, syms) || (count > 0 && gotUsed != used) || (count == 0 && e != 0) {
				t.Fatalf("%d-bit window %0*b: entry %#08x (syms %x, %d bits), want syms %x, %d bits", tab.width, tab.width, w, e, got, gotUsed, syms, used)
			}
		}
	}
}

// decodeBitwise finds the symbol whose code starts at bit from of the n-bit
// word w (most significant first), if it ends within w; EOS is not a symbol.
func decodeBitwise(w uint32, n, from uint) (sym int, l uint, ok bool) {
	for sym, c := range huffmanCodes[:256] {
		l := uint(c.bits)
		if from+l <= n && (w>>(n-from-l))&(1<<l-1) == c.code {
			return sym, l, true
		}
	}
	return 0, 0, false
}

func huffmanParams() *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 400
	if raceEnabled {
		p.MinSuccessfulTests = 100 // -race is ~10x slower
	}
	p.MaxSize = 400
	return p
}

var (
	textByte = gen.UInt8Range(0x20, 0x7e)
	anyByte  = gen.UInt8()
	// mostlyText is printable ASCII with an arbitrary byte now and then.
	mostlyText = gen.Weighted([]gen.WeightedGen{{Weight: 30, Gen: textByte}, {Weight: 1, Gen: anyByte}})
)

// headerBytes generates byte strings up to 400 long: mostly printable
// ASCII, as header values are, which keeps the decoder on its fast paths,
// and also arbitrary bytes, which take every code length including the
// 30-bit ones.
func headerBytes() gopter.Gen {
	return gen.OneGenOf(
		gen.SliceOf(textByte),
		gen.SliceOf(anyByte),
		gen.SliceOf(mostlyText),
	)
}

// longBytes generates strings of 64 to 3000 bytes, long enough for the
// decoder to split them into three streams, for several rounds.
func longBytes() gopter.Gen {
	return gen.IntRange(64, 3000).FlatMap(func(n interface{}) gopter.Gen {
		return gen.OneGenOf(gen.SliceOfN(n.(int), textByte), gen.SliceOfN(n.(int), mostlyText))
	}, reflect.TypeOf([]byte(nil)))
}

func anyBytes() gopter.Gen { return gen.OneGenOf(headerBytes(), longBytes()) }

// withCapacity returns prefix in a slice with spare capacity: none, a
// little, or more than s can need.
func withCapacity(prefix []byte, spare int) []byte {
	return append(make([]byte, 0, len(prefix)+spare), prefix...)
}

func TestHuffmanProperties(t *testing.T) {
	properties := gopter.NewProperties(huffmanParams())
	properties.Property("HuffmanLen == len(AppendHuffman)", prop.ForAll(
		func(s []byte) bool { return HuffmanLen(string(s)) == len(AppendHuffman(nil, string(s))) },
		anyBytes(),
	))
	properties.Property("AppendHuffman matches x/net, after dst's prefix", prop.ForAll(
		func(s []byte, prefix []byte, spare uint16) string {
			// Spare capacity from 0 to 1023 puts the end of dst at every
			// distance from the end of the output.
			got := AppendHuffman(withCapacity(prefix, int(spare%1024)), string(s))
			want := hpack.AppendHuffmanString(bytes.Clone(prefix), string(s))
			return cmp.Diff(want, got)
		},
		anyBytes(), gen.SliceOfN(3, anyByte), gen.UInt16(),
	))
	properties.Property("decode(encode(s)) == s, after dst's prefix", prop.ForAll(
		func(s []byte, prefix []byte, spare uint16) string {
			enc := AppendHuffman(nil, string(s))
			got, err := AppendHuffmanDecode(withCapacity(prefix, int(spare%1024)), enc, len(s))
			if err != nil {
				return err.Error()
			}
			return cmp.Diff(string(prefix)+string(s), string(got))
		},
		anyBytes(), gen.SliceOfN(5, anyByte), gen.UInt16(),
	))
	properties.Property("maxLen: ErrStringTooLong exactly when len(s) > maxLen", prop.ForAll(
		func(s []byte, cut uint16) string {
			maxLen := int(cut) % (len(s) + 2)
			got, err := AppendHuffmanDecode([]byte("x"), AppendHuffman(nil, string(s)), maxLen)
			if len(s) > maxLen {
				if !errors.Is(err, ErrStringTooLong) || string(got) != "x" {
					return "want ErrStringTooLong and dst unchanged, got " + string(got) + ", " + errString(err)
				}
				return ""
			}
			if err != nil {
				return err.Error()
			}
			return cmp.Diff("x"+string(s), string(got))
		},
		anyBytes(), gen.UInt16(),
	))
	properties.Property("the split decoder stops on a symbol boundary with the true output", prop.ForAll(
		func(s []byte) string {
			n, pos := checkSplit(s)
			if n < 0 {
				return "output differs"
			}
			if bits := huffmanBitLen(string(s[:n])); pos != bits {
				return fmt.Sprintf("stopped at bit %d after %d symbols, which end at bit %d", pos, n, bits)
			}
			return ""
		},
		longBytes(),
	))
	properties.TestingRun(t)
}

// checkSplit runs the split decoder alone on the encoding of s, and returns
// how far it got, or n = -1 if its output is not a prefix of s.
func checkSplit(s []byte) (n, pos int) {
	AppendHuffmanDecode(nil, nil, 0) // builds the table
	src := AppendHuffman(nil, string(s))
	out := make([]byte, len(s))
	n, pos = huffmanDecodeSplit(out, 0, src, 0)
	if !bytes.Equal(out[:n], s[:n]) {
		return -1, pos
	}
	return n, pos
}

// TestHuffmanSplitJoins checks that on header text the three streams
// join: one round of the split decoder, which takes the input in thirds,
// must return B's and C's output too and stop near the end (C needs 8 bytes
// of lookahead). If they did not join, the round would stop where A did.
func TestHuffmanSplitJoins(t *testing.T) {
	AppendHuffmanDecode(nil, nil, 0) // builds the table
	var text []byte
	for _, v := range []string{
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
		"sid=31d4d96e407aad42; lang=en-US; _ga=GA1.2.1127842511.1702024311",
		"Tue, 15 Nov 1994 08:12:31 GMT", "/search?q=huffman+decoding&page=2",
		"max-age=31536000; includeSubDomains", "gzip, deflate, br",
	} {
		text = append(text, v...)
	}
	text = bytes.Repeat(text, 4)
	var sc huffmanScratch
	for _, size := range []int{90, 150, 300, 600, 1000} {
		s := text[:size]
		src := AppendHuffman(nil, string(s))
		out := make([]byte, len(s))
		a, _ := huffmanSplitRound(out, huffmanStream{}, src, &sc)
		if !bytes.Equal(out[:a.n], s[:a.n]) || a.pos != huffmanBitLen(string(s[:a.n])) {
			t.Fatalf("%d bytes: wrong output or position", size)
		}
		if end := 8 * (len(src) - 16); a.pos < end {
			t.Errorf("%d bytes of text (%d coded): one round stopped at bit %d, want >= %d", size, len(src), a.pos, end)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// checkAgainstXNet decodes src with both decoders: they must accept the same
// inputs with the same output. x/net reports every rejection as
// ErrInvalidHuffman; ours must be one of the three Huffman errors.
//
// x/net follows RFC 7541 §5.2 as we do: it rejects EOS (its tree has no EOS
// leaf), padding over 7 bits and padding that is not all 1s. The properties
// below have found no input the two treat differently. The one difference
// is the API: hpack.HuffmanDecode has no length limit (its Decoder applies
// one), so maxLen is tested on its own.
func checkAgainstXNet(src []byte) string {
	var want bytes.Buffer
	_, wantErr := hpack.HuffmanDecode(&want, src)
	got, err := AppendHuffmanDecode(nil, src, 1<<20)
	switch {
	case wantErr == nil && err == nil:
		return cmp.Diff(want.String(), string(got))
	case wantErr != nil && err != nil:
		if !errors.Is(err, ErrHuffmanEOS) && !errors.Is(err, ErrHuffmanPaddingLength) && !errors.Is(err, ErrHuffmanPaddingBits) {
			return "unexpected error " + err.Error()
		}
		return ""
	default:
		return "x/net: " + errString(wantErr) + "; hqpack: " + errString(err) + "; input " + hex.EncodeToString(src)
	}
}

func TestHuffmanDecodeMatchesXNet(t *testing.T) {
	properties := gopter.NewProperties(huffmanParams())
	properties.Property("random input", prop.ForAll(checkAgainstXNet, gen.SliceOf(gen.UInt8())))
	properties.Property("random input, mostly 1 bits", prop.ForAll(
		checkAgainstXNet,
		// Long codes and EOS begin with many 1s.
		gen.SliceOf(gen.OneGenOf(gen.Const(byte(0xff)), gen.UInt8Range(0xf0, 0xff), gen.UInt8())),
	))
	properties.Property("damaged valid encodings", prop.ForAll(
		func(s []byte, kind uint8, pos uint16, tail []byte) string {
			enc := AppendHuffman(nil, string(s))
			bit := 0
			if len(enc) > 0 {
				bit = int(pos) % (8 * len(enc))
			}
			switch kind % 5 {
			case 0: // valid as is
			case 1: // truncated
				enc = enc[:bit/8]
			case 2: // one bit flipped
				if len(enc) > 0 {
					enc[bit/8] ^= 0x80 >> (bit % 8)
				}
			case 3: // extra bytes of padding, or of anything
				enc = append(enc, tail...)
			case 4: // EOS spliced in at a byte boundary
				enc = append(enc[:bit/8], append([]byte{0xff, 0xff, 0xff, 0xfc}, enc[bit/8:]...)...)
			}
			return checkAgainstXNet(enc)
		},
		anyBytes(), gen.UInt8(), gen.UInt16(),
		gen.SliceOfN(2, gen.OneGenOf(gen.Const(byte(0xff)), gen.UInt8())),
	))
	properties.TestingRun(t)
}

func TestHuffmanDecodeErrors(t *testing.T) {
	enc := func(s string) string { return hex.EncodeToString(AppendHuffman(nil, s)) }
	long := strings.Repeat("header-value ", 10)
	tests := []struct {
		name   string
		hex    string
		maxLen int
		want   error
	}{
		{"empty", "", 0, nil},
		{"3 bits of padding", "1f", 1, nil},          // 'a' = 00011, then 111
		{"7 bits of padding", "18c631ff", 5, nil},    // "aaaaa": 25 bits, then 1111111
		{"EOS alone", "fffffffc", 10, ErrHuffmanEOS}, // 30 1s, then 2 bits of padding
		{"EOS after a symbol", "1fffffffff", 10, ErrHuffmanEOS},
		{"EOS inside a long string", enc(long[:40]) + "fffffffc" + enc(long), 1 << 10, ErrHuffmanEOS},
		{"EOS then more 1s", "ffffffffff", 10, ErrHuffmanEOS},
		{"8 bits of 1s", "ff", 10, ErrHuffmanPaddingLength},
		{"24 bits of 1s", "ffffff", 10, ErrHuffmanPaddingLength},
		{"an extra 0xff after a string", enc("www.example.com") + "ff", 100, ErrHuffmanPaddingLength},
		{"an extra 0xff after 7 bits of padding", "18c631ffff", 100, ErrHuffmanPaddingLength},
		{"last padding bit 0", "18c631fe", 100, ErrHuffmanPaddingBits},
		{"padding 1000000", "18c63180", 100, ErrHuffmanPaddingBits},
		{"input ends inside a short code", "18c631", 100, ErrHuffmanPaddingBits}, // 4 'a's, then 0001
		{"zero bits after a code", "00", 10, ErrHuffmanPaddingBits},              // '0' = 00000, then 000
		{"input ends inside a long code", "fffe", 10, ErrHuffmanPaddingBits},
		{"30-bit code, then 00", "fffffff0", 10, ErrHuffmanPaddingBits},                 // '\n' = 28 1s and 00
		{"a zero byte after a whole-byte string", "640200", 100, ErrHuffmanPaddingBits}, // "302", '0', then 000
		{"too long by one", enc("abcd"), 3, ErrStringTooLong},
		{"too long, fast path", enc(long), len(long) - 1, ErrStringTooLong},
		{"maxLen 0", enc("a"), 0, ErrStringTooLong},
		{"exactly maxLen", enc(long), len(long), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := hex.DecodeString(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			got, err := AppendHuffmanDecode([]byte("dst"), src, tc.maxLen)
			if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
				t.Fatalf("AppendHuffmanDecode(%s) error %v, want %v", tc.hex, err, tc.want)
			}
			if err != nil && string(got) != "dst" {
				t.Errorf("on error returned %q, want dst unchanged", got)
			}
			// x/net agrees on accept/reject wherever maxLen is not the cause.
			if tc.want != ErrStringTooLong {
				if msg := checkAgainstXNet(src); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

func TestHuffmanAllocs(t *testing.T) {
	value := "Mozilla/5.0 (X11; Linux x86_64) gzip, deflate, br; q=0.9 "
	// One stream, and (over huffmanSplitMin coded bytes) three.
	for i, text := range []string{value, strings.Repeat(value, 8)} {
		src := AppendHuffman(nil, text)
		if (len(src) >= huffmanSplitMin) != (i == 1) {
			t.Fatalf("text %d: %d coded bytes, on the wrong side of huffmanSplitMin", i, len(src))
		}
		dst := make([]byte, 0, len(text)) // exactly the output, no slack
		allocs := testing.AllocsPerRun(100, func() {
			var err error
			dst, err = AppendHuffmanDecode(dst[:0], src, len(text))
			if err != nil || string(dst) != text {
				t.Fatalf("decode: %v", err)
			}
		})
		if allocs != 0 {
			t.Errorf("AppendHuffmanDecode of %d bytes with a pre-sized dst: %v allocs, want 0", len(src), allocs)
		}
		enc := make([]byte, 0, len(src))
		allocs = testing.AllocsPerRun(100, func() { enc = AppendHuffman(enc[:0], text) })
		if allocs != 0 {
			t.Errorf("AppendHuffman of %d bytes with a pre-sized dst: %v allocs, want 0", len(text), allocs)
		}
		if raceEnabled {
			continue
		}
		// Without room, each grows dst once, to at most what the input
		// can need.
		allocs = testing.AllocsPerRun(100, func() { AppendHuffman(nil, text) })
		if allocs != 1 {
			t.Errorf("AppendHuffman of %d bytes into nil: %v allocs, want 1", len(text), allocs)
		}
		allocs = testing.AllocsPerRun(100, func() { AppendHuffmanDecode(nil, src, len(text)) })
		if allocs != 1 {
			t.Errorf("AppendHuffmanDecode of %d bytes into nil: %v allocs, want 1", len(src), allocs)
		}
	}
}

// BenchmarkHuffmanDecodeTable measures the one-time cost of building the
// 12-bit decoding table, which the first AppendHuffmanDecode pays.
func BenchmarkHuffmanDecodeTable(b *testing.B) {
	huffmanDecodeOnce.Do(buildHuffmanDecodeTable)
	for b.Loop() {
		buildHuffmanDecodeTable() // rewrites the same values
	}
}

// BenchmarkHuffmanSplitTable measures the one-time cost of building the
// 16-bit table, which the first AppendHuffmanDecode of a long string pays.
func BenchmarkHuffmanSplitTable(b *testing.B) {
	huffmanSplitOnce.Do(buildHuffmanSplitTable)
	for b.Loop() {
		buildHuffmanSplitTable() // rewrites the same values
	}
}

// BenchmarkHuffmanPairTable measures the one-time cost of building the
// encoder's pair table, which the first AppendHuffman of 16 bytes or more
// pays.
func BenchmarkHuffmanPairTable(b *testing.B) {
	huffmanPairsOnce.Do(buildHuffmanPairs)
	for b.Loop() {
		buildHuffmanPairs() // rewrites the same values
	}
}

// TestHuffmanDecodeEnds checks the last lookups of a string, which read a
// window padded past the end of the input: for every length of a text, the
// valid coding with maxLen at and just below its length, and the coding
// with each padding bit cleared or a byte more, against x/net.
func TestHuffmanDecodeEnds(t *testing.T) {
	text := "Mozilla/5.0 (X11; Linux x86_64) text/html;q=0.9 \x00\xfe~|"
	for n := 0; n <= len(text); n++ {
		s := text[:n]
		src := AppendHuffman(nil, s)
		for cut := 0; cut <= 3 && cut <= n; cut++ {
			got, err := AppendHuffmanDecode(nil, src, n-cut)
			if cut == 0 && (err != nil || string(got) != s) {
				t.Fatalf("%q: decoded %q, %v", s, got, err)
			}
			if cut > 0 && !errors.Is(err, ErrStringTooLong) {
				t.Fatalf("%q with maxLen %d: %v, want ErrStringTooLong", s, n-cut, err)
			}
		}
		if msg := checkAgainstXNet(append(bytes.Clone(src), 0xff)); msg != "" {
			t.Errorf("%q and 0xff: %s", s, msg)
		}
		pad := 8*len(src) - huffmanBitLen(s)
		for b := 0; b < pad; b++ {
			bad := bytes.Clone(src)
			bad[len(bad)-1] &^= 1 << b
			// Some of these are valid: the bits left make a short code.
			if msg := checkAgainstXNet(bad); msg != "" {
				t.Errorf("%q with padding bit %d cleared: %s", s, b, msg)
			}
		}
	}
}
