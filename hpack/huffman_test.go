package hpack

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
)

func TestHuffmanLikeXNet(t *testing.T) {
	for _, s := range []string{"", "a", "www.example.com", "no-cache", "custom-key", "\x00\xff{}~", "Mon, 21 Oct 2013 20:13:21 GMT"} {
		if got, want := HuffmanLen(s), xhpack.HuffmanEncodeLength(s); uint64(got) != want {
			t.Errorf("HuffmanLen(%q) = %d, x/net %d", s, got, want)
		}
		enc := AppendHuffman([]byte{1}, s)
		if want := xhpack.AppendHuffmanString([]byte{1}, s); !bytes.Equal(enc, want) {
			t.Errorf("AppendHuffman(%q) = % x, x/net % x", s, enc, want)
		}
		dec, err := AppendHuffmanDecode([]byte{2}, enc[1:], len(s))
		if err != nil || string(dec[1:]) != s || dec[0] != 2 {
			t.Errorf("AppendHuffmanDecode(% x) = %q, %v", enc[1:], dec, err)
		}
	}
}

func TestHuffmanDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		src    []byte
		maxLen int
		want   error
	}{
		{[]byte{0xff, 0xff, 0xff, 0xff}, 10, fastpath.ErrHuffmanEOS},
		{[]byte{0xff}, 10, fastpath.ErrHuffmanPaddingLength},
		{[]byte{0x1e}, 10, fastpath.ErrHuffmanPaddingBits}, // "0" then padding 110
		{AppendHuffman(nil, "abcdef"), 5, fastpath.ErrStringTooLong},
	} {
		got, err := AppendHuffmanDecode([]byte("keep"), c.src, c.maxLen)
		if !errors.Is(err, c.want) || string(got) != "keep" {
			t.Errorf("% x, max %d: %q, %v; want %v and dst unchanged", c.src, c.maxLen, got, err, c.want)
		}
	}
}

func ExampleAppendHuffman() {
	enc := AppendHuffman(nil, "www.example.com")
	fmt.Printf("%d bytes: % x\n", HuffmanLen("www.example.com"), enc)
	dec, err := AppendHuffmanDecode(nil, enc, 64)
	fmt.Println(string(dec), err)
	// Output:
	// 12 bytes: f1 e3 c2 e5 f2 3a 6b a0 ab 90 f4 ff
	// www.example.com <nil>
}
