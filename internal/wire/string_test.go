package wire

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"golang.org/x/net/http2/hpack"
)

var policies = []Huffman{HuffmanAuto, HuffmanAlways, HuffmanNever}

// genString yields arbitrary bytes, header-like text and long runs, so that
// lengths cross the 3-, 5- and 7-bit prefixes and Huffman wins and loses.
func genString() gopter.Gen {
	return gen.OneGenOf(
		gen.SliceOf(gen.UInt8()).Map(func(b []byte) string { return string(b) }),
		gen.AlphaString(),
		gen.AnyString(),
		gen.SliceOf(gen.NumChar()).Map(func(r []rune) string { return strings.Repeat(string(r), 3) }),
	)
}

// stringResult is what ReadString returns, for cmp.Diff.
type stringResult struct {
	S   string
	Len int
	Err error
}

func readString(src []byte, n uint8, maxLen int) stringResult {
	s, _, l, err := ReadString(nil, src, n, maxLen)
	return stringResult{string(s), l, err}
}

func TestStringRawOnly(t *testing.T) {
	// Huffman-free checks: the length prefix, the flag and the aliasing.
	p := properties(t, 3000)
	p.Property("HuffmanNever round trip", prop.ForAll(
		func(s string, n, hi uint8) string {
			first := highBits(hi, n+1)
			enc := AppendString(nil, first, n, s, HuffmanNever)
			if len(enc) != StringLen(n, s, HuffmanNever) || len(enc) != IntLen(n, uint64(len(s)))+len(s) {
				return fmt.Sprintf("len %d, StringLen %d", len(enc), StringLen(n, s, HuffmanNever))
			}
			if highBits(enc[0], n+1) != first || enc[0]&(1<<n) != 0 {
				return fmt.Sprintf("first byte %#x, high bits %#x", enc[0], first)
			}
			src := append(enc[:len(enc):len(enc)], "trailing"...)
			got, dst, l, err := ReadString(nil, src, n, len(s))
			if dst != nil {
				return "raw string appended to dst"
			}
			if len(s) > 0 && unsafe.SliceData(got) != &src[len(enc)-len(s)] {
				return "raw string does not alias src"
			}
			if cap(got) != len(got) {
				return "raw string capacity reaches past it"
			}
			return cmp.Diff(stringResult{s, len(enc), nil}, stringResult{string(got), l, err}, cmpErr)
		},
		genString(), gen.UInt8Range(1, 7), gen.UInt8(),
	))
	p.TestingRun(t)
}

func TestStringRoundTrip(t *testing.T) {
	p := properties(t, 3000)
	p.Property("ReadString(AppendString(s)) == s for every policy", prop.ForAll(
		func(s string, n, hi, pi uint8, junk []byte) string {
			h := policies[pi]
			first := highBits(hi, n+1)
			enc := AppendString(junk[:len(junk):len(junk)], first, n, s, h)
			if !bytes.Equal(enc[:len(junk)], junk) {
				return "AppendString changed dst"
			}
			enc = enc[len(junk):]
			if len(enc) != StringLen(n, s, h) {
				return fmt.Sprintf("len %d, StringLen %d", len(enc), StringLen(n, s, h))
			}
			if highBits(enc[0], n+1) != first {
				return fmt.Sprintf("first byte %#x lost high bits %#x", enc[0], first)
			}
			payload, huff := h.Choose(s)
			if got := enc[0]&(1<<n) != 0; got != huff {
				return fmt.Sprintf("H flag %v, Choose says %v", got, huff)
			}
			if len(enc) != IntLen(n, uint64(payload))+payload {
				return fmt.Sprintf("payload %d does not match len %d", payload, len(enc))
			}
			src := append(enc[:len(enc):len(enc)], junk...)
			// The decoded string is appended after what dst already holds.
			got, dst, l, err := ReadString(junk[:len(junk):len(junk)], src, n, max(len(s), payload))
			if err == nil && (!bytes.Equal(dst[:len(junk)], junk) || huff && !bytes.Equal(dst[len(junk):], got)) {
				return "decoded string not appended to dst"
			}
			return cmp.Diff(stringResult{s, len(enc), nil}, stringResult{string(got), l, err}, cmpErr)
		},
		genString(), gen.UInt8Range(1, 7), gen.UInt8(), gen.UInt8Range(0, 2), gen.SliceOf(gen.UInt8()),
	))
	p.TestingRun(t)
}

func TestStringPolicies(t *testing.T) {
	p := properties(t, 3000)
	p.Property("auto takes Huffman only when strictly shorter", prop.ForAll(
		func(s string) string {
			hl := HuffmanLen(s)
			if got := len(AppendHuffman(nil, s)); got != hl {
				return fmt.Sprintf("HuffmanLen %d, coded length %d", hl, got)
			}
			want := []struct {
				Payload int
				Huff    bool
			}{{min(hl, len(s)), hl < len(s)}, {hl, true}, {len(s), false}}
			for i, h := range policies {
				pl, huff := h.Choose(s)
				if pl != want[i].Payload || huff != want[i].Huff {
					return fmt.Sprintf("policy %d: Choose = %d, %v; want %+v", h, pl, huff, want[i])
				}
			}
			for _, n := range []uint8{3, 5, 7} {
				auto := StringLen(n, s, HuffmanAuto)
				if auto > StringLen(n, s, HuffmanNever) || auto > StringLen(n, s, HuffmanAlways) {
					return fmt.Sprintf("n=%d: auto %d longer than never or always", n, auto)
				}
			}
			return ""
		},
		genString(),
	))
	p.TestingRun(t)
}

func TestStringTruncated(t *testing.T) {
	p := properties(t, 1000)
	p.Property("every proper prefix is ErrTruncated", prop.ForAll(
		func(s string, n, pi uint8) string {
			enc := AppendString(nil, 0, n, s, policies[pi])
			for i := range enc {
				if diff := cmp.Diff(stringResult{"", 0, ErrTruncated}, readString(enc[:i], n, len(enc)+len(s)), cmpErr); diff != "" {
					return fmt.Sprintf("prefix %x of %x: %s", enc[:i], enc, diff)
				}
			}
			return ""
		},
		genString(), gen.UInt8Range(1, 7), gen.UInt8Range(0, 2),
	))
	p.TestingRun(t)
}

func TestStringTooLong(t *testing.T) {
	for _, n := range []uint8{3, 5, 7} {
		h := byte(1) << n
		// A Huffman payload that is all ones holds EOS: decoding it fails,
		// so ErrStringTooLong proves the length was checked first.
		eos := AppendInt(nil, h, n, 8)
		eos = append(eos, bytes.Repeat([]byte{0xff}, 8)...)
		if got := readString(eos, n, 7); got.Err != ErrStringTooLong {
			t.Errorf("n=%d: Huffman EOS payload, maxLen 7: %v, want ErrStringTooLong", n, got.Err)
		}
		if got := readString(eos, n, 8); got.Err == nil || got.Err == ErrStringTooLong {
			t.Errorf("n=%d: Huffman EOS payload, maxLen 8: %v, want a Huffman error", n, got.Err)
		}
		// A length over the limit with the payload not there yet: the
		// decoder must not wait for it.
		for _, flag := range []byte{0, h} {
			open := append(AppendInt(nil, flag, n, 1000), "abc"...)
			if got := readString(open, n, 999); got.Err != ErrStringTooLong {
				t.Errorf("n=%d flag %#x: length 1000 over 999, truncated: %v, want ErrStringTooLong", n, flag, got.Err)
			}
			if got := readString(open, n, 1000); got.Err != ErrTruncated {
				t.Errorf("n=%d flag %#x: length 1000, truncated: %v, want ErrTruncated", n, flag, got.Err)
			}
		}
		// "00000000" codes to five zero bytes: the wire length fits a
		// limit that the decoded length passes.
		zeros := append(AppendInt(nil, h, n, 5), 0, 0, 0, 0, 0)
		for maxLen := 5; maxLen < 8; maxLen++ {
			if got := readString(zeros, n, maxLen); got.Err != ErrStringTooLong {
				t.Errorf("n=%d: decoded 8 bytes, maxLen %d: %v, want ErrStringTooLong", n, maxLen, got.Err)
			}
		}
		if diff := cmp.Diff(stringResult{"00000000", len(zeros), nil}, readString(zeros, n, 8), cmpErr); diff != "" {
			t.Errorf("n=%d: decoded 8 bytes, maxLen 8: %s", n, diff)
		}
		// Raw strings: the limit is inclusive, and negative means none.
		raw := AppendString(nil, 0, n, "hello", HuffmanNever)
		for maxLen, want := range map[int]error{-1: ErrStringTooLong, 0: ErrStringTooLong, 4: ErrStringTooLong, 5: nil} {
			if got := readString(raw, n, maxLen); got.Err != want {
				t.Errorf("n=%d: raw 5 bytes, maxLen %d: %v, want %v", n, maxLen, got.Err, want)
			}
		}
		// A length that overflows is reported as such.
		over := AppendInt(nil, 0, n, MaxInt+1)
		if got := readString(over, n, 1<<30); got.Err != ErrIntegerOverflow {
			t.Errorf("n=%d: overflowing length: %v, want ErrIntegerOverflow", n, got.Err)
		}
	}
}

func TestStringAllocs(t *testing.T) {
	const s = "text/html; charset=utf-8"
	buf := make([]byte, 0, 64)
	dst := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		for _, h := range policies {
			enc := AppendString(buf[:0], 0, 7, s, h)
			if _, _, _, err := ReadString(dst[:0], enc, 7, 64); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("AppendString/ReadString: %v allocs per run", allocs)
	}
}

// RFC 7541 C.4.1: "www.example.com" as an HPACK string literal (7-bit
// prefix), Huffman-coded because that is shorter.
func ExampleAppendString() {
	enc := AppendString(nil, 0, 7, "www.example.com", HuffmanAuto)
	fmt.Printf("%x\n", enc)
	s, _, n, err := ReadString(nil, enc, 7, 64)
	fmt.Println(string(s), n, err)
	_, _, _, err = ReadString(nil, enc, 7, 10)
	fmt.Println(err)
	// Output:
	// 8cf1e3c2e5f23a6ba0ab90f4ff
	// www.example.com 13 <nil>
	// string literal too long
}

// TestStringAutoPaths checks AppendString with HuffmanAuto against the
// string Choose describes, on the strings TestHuffmanEncodePaths makes (short
// and long codes, codes longer and shorter than the raw bytes), at every
// length up to 130 (the 7-bit prefix's limit inside), and with dst's room
// running out around the fast path's (as many bytes as s and a store).
func TestStringAutoPaths(t *testing.T) {
	pieces := []string{
		"www.example.com/",
		"aXXXXXXXXZZZZZZZZ",
		"\x00+ee#>eeee\x00@ee$@eeee",
		"a\x00b\xffc\x80d\x1f",
		"Mozilla/5.0 (X11; Linux x86_64) ",
		"eeeeeeee\xfeeeeeeee", // one group over 64 bits, the string shorter coded
	}
	for _, p := range pieces {
		text := strings.Repeat(p, 140/len(p)+1)
		for n := 0; n <= 130; n++ {
			s := text[:n]
			for _, prefix := range []uint8{5, 7} {
				pl, huff := HuffmanAuto.Choose(s)
				want := []byte{0xaa}
				if huff {
					want = append(AppendInt(want, 0, prefix, uint64(pl)), AppendHuffman(nil, s)...)
					want[1] |= 1 << prefix
				} else {
					want = append(AppendInt(want, 0, prefix, uint64(pl)), s...)
				}
				for _, spare := range []int{0, len(want), n + 8, n + 9, n + 10, huffmanMax(n) + 9, 300} {
					got := AppendString(append(make([]byte, 0, 1+spare), 0xaa), 0, prefix, s, HuffmanAuto)
					if !bytes.Equal(got, want) {
						t.Fatalf("AppendString(%q, %d-bit prefix) with %d spare = %x, want %x", s, prefix, spare, got, want)
					}
				}
			}
		}
	}
}

// TestStringAutoGiveUp checks HuffmanAuto where the coding gives up, at
// the raw length: strings whose code takes exactly len(s)-1, len(s) and
// len(s)+1 bytes (8-bit codes, with one or three 5-bit ones or one 13-bit
// one among them, or a 13-bit one and three 5-bit ones, at the start, the middle or the end), at every length across the
// 3-, 5- and 7-bit prefixes' limits and the 2-byte lengths', with dst's
// room at every size up to past the raw string and its stores. The output
// must match x/net's code or the raw bytes, never exceed StringMax, and
// stay in dst's array whenever it fits there.
func TestStringAutoGiveUp(t *testing.T) {
	for l := 3; l <= 300; l++ {
		if l > 40 && l < 120 || l > 135 && l < 250 || l > 265 && l%7 != 0 {
			continue
		}
		for v, odd := range []string{"aaa", "a", "", "\x00", "\x00aaa"} {
			for _, pos := range []int{0, l / 2, l - len(odd)} {
				if len(odd) > l {
					break
				}
				b := []byte(strings.Repeat("X", l))
				copy(b[min(pos, l-len(odd)):], odd)
				s := string(b)
				if code := len(hpack.AppendHuffmanString(nil, s)); v < 4 && code-l != []int{-1, 0, 0, 1}[v] {
					t.Fatalf("%q: code of %d bytes, %d raw", s, code, l)
				}
				for _, n := range []uint8{3, 5, 7} {
					pl, huff := HuffmanAuto.Choose(s)
					want := AppendInt(nil, 0, n, uint64(pl))
					if huff {
						want[0] |= 1 << n
						want = append(want, hpack.AppendHuffmanString(nil, s)...)
					} else {
						want = append(want, s...)
					}
					max := StringMax(n, s, HuffmanAuto)
					for spare := 0; spare <= max+12; spare++ {
						dst := append(make([]byte, 0, 2+spare), 0xaa, 0x55)
						got := AppendString(dst, 0, n, s, HuffmanAuto)
						if !bytes.Equal(got[2:], want) || got[0] != 0xaa || got[1] != 0x55 {
							t.Fatalf("AppendString(%q, %d-bit prefix) with %d spare = %x, want %x", s, n, spare, got[2:], want)
						}
						if moved := &got[0] != &dst[:1][0]; moved && len(want) <= spare {
							t.Fatalf("AppendString(%q, %d-bit prefix) with %d spare moved dst, needing %d", s, n, spare, len(want))
						}
					}
				}
			}
		}
	}
}

// TestStringAutoRest checks HuffmanAuto where the one-pass coder meets a
// group over 64 bits and huffmanRoomyRest goes on from there: short codes
// first (none, 8 or 16 bytes), then text of 8- to 10-bit codes, where every
// group is over 64 bits, with each byte value in turn at some positions
// (groups with a long pair, codes longer than the raw bytes), at lengths
// around the 5- and 7-bit prefixes' limits, with room for s and its stores
// and just around it; against x/net's code or the raw bytes.
func TestStringAutoRest(t *testing.T) {
	hard := strings.Repeat(`X!Z(&*),;"?XZ&*,;`, 10)
	for _, lead := range []string{"", "abcdefgh", "www.example.com/"} {
		for l := len(lead); l <= 140; l++ {
			if l > len(lead)+40 && l < 120 {
				continue
			}
			for b := 0; b < 256; b += 3 {
				for at := len(lead); at < l; at += 7 {
					s := []byte(lead + hard[:l-len(lead)])
					s[at] = byte(b)
					for _, n := range []uint8{5, 7} {
						pl, huff := HuffmanAuto.Choose(string(s))
						want := AppendInt(nil, 0, n, uint64(pl))
						if huff {
							want[0] |= 1 << n
							want = append(want, hpack.AppendHuffmanString(nil, string(s))...)
						} else {
							want = append(want, s...)
						}
						max := StringMax(n, string(s), HuffmanAuto)
						for _, spare := range []int{max, max + 7, max + 8, max + 9, l + 8, l + 9, l + 10} {
							got := AppendString(append(make([]byte, 0, 1+spare), 0xaa), 0, n, string(s), HuffmanAuto)
							if got[0] != 0xaa || !bytes.Equal(got[1:], want) {
								t.Fatalf("AppendString(%q, %d-bit prefix) with %d spare = %x, want %x", s, n, spare, got[1:], want)
							}
						}
					}
				}
			}
		}
	}
}
