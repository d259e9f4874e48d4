package fuzz

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/wire"
)

// isHuffmanErr reports the errors a bad Huffman string may give.
func isHuffmanErr(err error) bool {
	return errors.Is(err, wire.ErrHuffmanEOS) || errors.Is(err, wire.ErrHuffmanPaddingLength) ||
		errors.Is(err, wire.ErrHuffmanPaddingBits)
}

// FuzzHuffman checks the canonical Huffman code of RFC 7541 Appendix B:
//   - decoding arbitrary bytes agrees with x/net's HuffmanDecodeToString
//     (the same output, or both reject), within a length limit, and leaves
//     what dst held before alone;
//   - encoding the input then decoding it is the identity, with the bytes
//     and length x/net gives, and each policy's choice follows from them;
//   - the Huffman digits of the fast path are those of the decimal string;
//   - a string literal (H flag, length, payload) read with wire.ReadString
//     agrees with a reference built from refReadInt and x/net.
//
// Inputs of 256 bytes and more take the three-stream decoder.
func FuzzHuffman(f *testing.F) {
	f.Add([]byte{0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff}, uint16(100), uint8(7)) // C.4.1 www.example.com
	f.Add(unhex("a8eb10649cbf"), uint16(4), uint8(7))                                                            // C.4.2 no-cache
	f.Add(unhex("25a849e95ba97d7f"), uint16(0), uint8(7))                                                        // C.4.3 custom-key
	f.Add(unhex("640eff"), uint16(3), uint8(3))                                                                  // C.6.2 307
	f.Add(unhex("ffffffff"), uint16(50), uint8(7))                                                               // EOS
	f.Add(unhex("fe"), uint16(50), uint8(7))                                                                     // bad padding
	f.Add(unhex("00ff"), uint16(50), uint8(7))                                                                   // padding too long
	f.Add([]byte("custom-value, with all kinds of bytes \x00\x01\xfe\xff and more text to reach the split"), uint16(1000), uint8(5))
	long := wire.AppendHuffman(nil, strings.Repeat("GET /index.html?q=0123456789 HTTP/1.1 text/html; charset=utf-8 ", 12))
	f.Add(long, uint16(2000), uint8(7))
	f.Add(long[:300], uint16(2000), uint8(7))
	f.Add(bytes.Repeat([]byte{0x00, 0x10, 0x84, 0x21, 0xff}, 80), uint16(9999), uint8(6))
	f.Fuzz(func(t *testing.T, data []byte, maxLen uint16, prefix uint8) {
		huffmanDecode(t, data, int(maxLen))
		huffmanEncode(t, string(data))
		huffmanDigits(t, data)
		huffmanLiteral(t, data, 1+prefix%7, int(maxLen))
	})
}

// huffmanDecode compares our decoder with x/net's on arbitrary bytes.
func huffmanDecode(t *testing.T, data []byte, maxLen int) {
	want, werr := xhpack.HuffmanDecodeToString(data)
	head := []byte("head")
	got, err := wire.AppendHuffmanDecode(head, data, len(data)*8/5+1)
	switch {
	case werr != nil && !isHuffmanErr(err):
		t.Fatalf("% x: x/net %v, we %v (%q)", data, werr, err, got)
	case werr == nil && (err != nil || string(got[len(head):]) != want):
		t.Fatalf("% x: x/net %q, we %q, %v", data, want, got, err)
	case err != nil && len(got) != len(head):
		t.Fatalf("% x: error %v but dst grew to %d bytes", data, err, len(got))
	case string(got[:len(head)]) != "head":
		t.Fatalf("% x: dst's old contents changed: %q", data, got)
	}

	// With a length limit: x/net's output if it fits, ErrStringTooLong if
	// not (or a Huffman error found first), a Huffman error for what x/net
	// rejects (or ErrStringTooLong found first).
	got, err = wire.AppendHuffmanDecode(nil, data, maxLen)
	switch {
	case werr == nil && len(want) <= maxLen && (err != nil || string(got) != want):
		t.Fatalf("% x, limit %d: x/net %q, we %q, %v", data, maxLen, want, got, err)
	case werr == nil && len(want) > maxLen && !errors.Is(err, wire.ErrStringTooLong):
		t.Fatalf("% x, limit %d: x/net %d bytes, we %v", data, maxLen, len(want), err)
	case werr != nil && !isHuffmanErr(err) && !errors.Is(err, wire.ErrStringTooLong):
		t.Fatalf("% x, limit %d: x/net %v, we %v", data, maxLen, werr, err)
	case err != nil && len(got) != 0:
		t.Fatalf("% x, limit %d: error %v with output %q", data, maxLen, err, got)
	}
}

// huffmanEncode checks that encoding s gives x/net's bytes and length and
// decodes back to s, and that each policy's choice follows.
func huffmanEncode(t *testing.T, s string) {
	enc := wire.AppendHuffman([]byte("head"), s)[4:]
	want := xhpack.AppendHuffmanString(nil, s)
	if !bytes.Equal(enc, want) {
		t.Fatalf("%q: we encode % x, x/net % x", s, enc, want)
	}
	if n := wire.HuffmanLen(s); n != len(enc) || uint64(n) != xhpack.HuffmanEncodeLength(s) ||
		hpack.HuffmanLen(s) != n {
		t.Fatalf("%q: HuffmanLen %d, encoded %d bytes", s, n, len(enc))
	}
	if public := hpack.AppendHuffman(nil, s); !bytes.Equal(public, enc) {
		t.Fatalf("%q: hpack.AppendHuffman % x, wire % x", s, public, enc)
	}
	if dec, err := hpack.AppendHuffmanDecode(nil, enc, len(s)); err != nil || string(dec) != s {
		t.Fatalf("%q: hpack.AppendHuffmanDecode: %q, %v", s, dec, err)
	}
	dec, err := wire.AppendHuffmanDecode(nil, enc, len(s))
	if err != nil || string(dec) != s {
		t.Fatalf("%q: encoded % x decodes to %q, %v", s, enc, dec, err)
	}
	if len(s) > 0 {
		if _, err := wire.AppendHuffmanDecode(nil, enc, len(s)-1); !errors.Is(err, wire.ErrStringTooLong) {
			t.Fatalf("%q: decoding with a limit one short: %v", s, err)
		}
	}
	huff := len(enc) < len(s)
	for _, c := range []struct {
		p       wire.Huffman
		payload int
		huff    bool
	}{
		{wire.HuffmanAuto, map[bool]int{true: len(enc), false: len(s)}[huff], huff},
		{wire.HuffmanAlways, len(enc), true},
		{wire.HuffmanNever, len(s), false},
	} {
		if p, h := c.p.Choose(s); p != c.payload || h != c.huff {
			t.Fatalf("%q: policy %d chooses %d, %v; want %d, %v", s, c.p, p, h, c.payload, c.huff)
		}
	}
}

// huffmanDigits checks the fast path's digit coding on a number read from
// the input.
func huffmanDigits(t *testing.T, data []byte) {
	s := script{data}
	n := s.uint64() >> s.pick(64)
	digits := strconv.FormatUint(n, 10)
	if got, want := wire.AppendHuffmanDigits([]byte("x"), n)[1:], xhpack.AppendHuffmanString(nil, digits); !bytes.Equal(got, want) {
		t.Fatalf("%d: AppendHuffmanDigits % x, want % x", n, got, want)
	}
	if got := wire.HuffmanDigitsLen(n); got != int(xhpack.HuffmanEncodeLength(digits)) {
		t.Fatalf("%d: HuffmanDigitsLen %d", n, got)
	}
	for _, p := range []wire.Huffman{wire.HuffmanAuto, wire.HuffmanAlways, wire.HuffmanNever} {
		gp, gh := wire.DigitsChoice(p, n)
		if wp, wh := p.Choose(digits); gp != wp || gh != wh {
			t.Fatalf("%d, policy %d: DigitsChoice %d, %v; Choose %d, %v", n, p, gp, gh, wp, wh)
		}
	}
}

// huffmanLiteral reads data as a string literal with an n-bit length prefix
// and compares wire.ReadString with a reference.
func huffmanLiteral(t *testing.T, data []byte, n uint8, maxLen int) {
	s, dst, length, err := wire.ReadString([]byte("head"), data, n, maxLen)
	fail := func(want string) {
		t.Helper()
		t.Fatalf("% x, prefix %d, limit %d: ReadString %q, %d, %v; want %s", data, n, maxLen, s, length, err, want)
	}
	if err != nil && (length != 0 || string(dst) != "head") {
		fail("no length and dst as it was")
	}
	l, k, rerr := refReadInt(data, n)
	switch {
	case rerr == errRefTruncated:
		if !errors.Is(err, wire.ErrTruncated) {
			fail("ErrTruncated")
		}
		return
	case rerr == errRefOverflow:
		if !errors.Is(err, wire.ErrIntegerOverflow) {
			fail("ErrIntegerOverflow")
		}
		return
	case l > uint64(maxLen):
		if !errors.Is(err, wire.ErrStringTooLong) {
			fail("ErrStringTooLong (wire length)")
		}
		return
	case l > uint64(len(data)-k):
		if !errors.Is(err, wire.ErrTruncated) {
			fail("ErrTruncated (payload)")
		}
		return
	}
	payload := data[k : k+int(l)]
	if data[0]&(1<<n) == 0 {
		if err != nil || !bytes.Equal(s, payload) || length != k+int(l) || cap(s) != len(s) || string(dst) != "head" {
			fail("the raw payload, capacity trimmed")
		}
		return
	}
	want, werr := xhpack.HuffmanDecodeToString(payload)
	switch {
	case werr != nil:
		if !isHuffmanErr(err) && !errors.Is(err, wire.ErrStringTooLong) {
			fail("a Huffman error")
		}
	case len(want) > maxLen:
		if !errors.Is(err, wire.ErrStringTooLong) {
			fail("ErrStringTooLong (decoded length)")
		}
	case err != nil || string(s) != want || length != k+int(l) || string(dst) != "head"+want:
		fail(strconv.Quote(want) + " appended to dst")
	}
}
