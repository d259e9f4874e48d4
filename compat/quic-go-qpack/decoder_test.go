package qpack

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hqpack/hqpack/hpack"
)

// sect builds an encoded section: the static-only prefix, then lines.
func sect(lines ...[]byte) []byte {
	b := []byte{0, 0}
	for _, l := range lines {
		b = append(b, l...)
	}
	return b
}

func indexed(i uint64) []byte { return appendInt(nil, 0xc0, 6, i) }

// nameRef is a literal with static name i; huff codes the value.
func nameRef(i uint64, value string, huff bool) []byte {
	return appendStr(appendInt(nil, 0x50, 4, i), 7, value, huff)
}

func literal(name, value string, huff bool) []byte {
	b := appendStr(nil, 3, name, huff)
	b[0] |= 0x20
	return appendStr(b, 7, value, huff)
}

func appendStr(dst []byte, n uint8, s string, huff bool) []byte {
	if !huff {
		return append(appendInt(dst, 0, n, uint64(len(s))), s...)
	}
	return appendHuffman(dst, 1<<n, n, s)
}

func decodeAll(p []byte) ([]HeaderField, error) {
	next := NewDecoder().Decode(p)
	var hfs []HeaderField
	for {
		hf, err := next()
		if err == io.EOF {
			return hfs, nil
		}
		if err != nil {
			return hfs, err
		}
		hfs = append(hfs, hf)
	}
}

var long = strings.Repeat("0123456789abcdef", 300)

// sections are valid sections and the fields they hold.
var sections = []struct {
	name string
	p    []byte
	want []HeaderField
}{
	{"empty", sect(), nil},
	{"indexed", sect(indexed(17), indexed(98), indexed(0)), []HeaderField{
		{":method", "GET"}, {"x-frame-options", "sameorigin"}, {":authority", ""}}},
	{"name reference", sect(nameRef(1, "/index.html", false), nameRef(95, "Mozilla/5.0 (X11)", true), nameRef(5, "", true)), []HeaderField{
		{":path", "/index.html"}, {"user-agent", "Mozilla/5.0 (X11)"}, {"cookie", ""}}},
	{"literal", sect(literal("x-plain", "raw", false), literal("X-Mixed-Case", "\x00\xff{}", true), literal("", "", false)), []HeaderField{
		{"x-plain", "raw"}, {"X-Mixed-Case", "\x00\xff{}"}, {"", ""}}},
	{"long", sect(literal("x-long", long, true), nameRef(5, long, false), literal(long, "v", false)), []HeaderField{
		{"x-long", long}, {"cookie", long}, {long, "v"}}},
	// The N bit (never indexed) set on authorization (84): quic-go's
	// HeaderField has no place for it, and ignores it.
	{"never indexed", sect([]byte{0x70 | 0xf, 84 - 15}, appendStr(nil, 7, "secret", true)), []HeaderField{
		{"authorization", "secret"}}},
}

func TestDecode(t *testing.T) {
	for _, c := range sections {
		got, err := decodeAll(c.p)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: % x decodes to %q, %v; want %q", c.name, c.p, got, err, c.want)
		}
	}
}

// Every cut of a valid section decodes to a prefix of its fields, then
// io.EOF (cut between fields) or io.ErrUnexpectedEOF.
func TestDecodeTruncated(t *testing.T) {
	for _, c := range sections {
		for n := range len(c.p) {
			got, err := decodeAll(c.p[:n])
			if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%s cut at %d: %v", c.name, n, err)
			}
			if len(got) >= len(c.want) && len(c.want) > 0 || !equalFields(got, c.want[:len(got)]) {
				t.Fatalf("%s cut at %d: %q, %v; want a strict prefix of %q", c.name, n, got, err, c.want)
			}
		}
	}
}

func equalFields(a, b []HeaderField) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		p    []byte
		good int // fields before the error
		want string
		is   error
	}{
		{"required insert count", []byte{1, 0}, 0, "expected Required Insert Count to be zero", errRequiredCount},
		{"base", []byte{0, 1}, 0, "expected Base to be zero", errBase},
		{"negative base", []byte{0, 0x80}, 0, "expected Base to be zero", errBase},
		{"prefix overflow", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 0, "varint integer overflow", errIntOverflow},
		{"dynamic indexed", sect(indexed(17), []byte{0x81}), 1, "no dynamic table", errNoDynamicTable},
		{"dynamic name", sect([]byte{0x41, 0}), 0, "no dynamic table", errNoDynamicTable},
		{"post-base indexed", sect([]byte{0x10}), 0, "unexpected type byte: 0x10", nil},
		{"post-base name", sect([]byte{0x05, 0}), 0, "unexpected type byte: 0x5", nil},
		{"static 99", sect(indexed(99)), 0, "invalid indexed representation index 99", nil},
		{"static name 10000", sect(nameRef(10000, "v", false)), 0, "invalid indexed representation index 10000", nil},
		{"huffman EOS", sect(indexed(17), []byte{0x5f, 0x1e, 0x84, 0xff, 0xff, 0xff, 0xff}), 1, "hpack: invalid Huffman-encoded data", errInvalidHuffman},
		{"huffman padding", sect([]byte{0x2b, 0xff, 0x81, 0x61}), 0, "hpack: invalid Huffman-encoded data", errInvalidHuffman},
	} {
		next := NewDecoder().Decode(c.p)
		for i := range c.good {
			if _, err := next(); err != nil {
				t.Fatalf("%s: field %d: %v", c.name, i, err)
			}
		}
		_, err := next()
		if err == nil || err.Error() != c.want || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: % x: %v; want %q", c.name, c.p, err, c.want)
		}
		if _, again := next(); again != err {
			t.Errorf("%s: the next call returns %v, not the error again", c.name, again)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	var b strings.Builder
	e := NewEncoder(&b)
	var want []HeaderField
	for i := range getStaticTable() {
		hf := getStaticTable()[i]
		want = append(want, hf, HeaderField{hf.Name, hf.Value + "x"}, HeaderField{strings.ToUpper(hf.Name), hf.Value})
	}
	want = append(want, HeaderField{"x-long", long}, HeaderField{"", ""})
	for _, hf := range want {
		if err := e.WriteField(hf); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := decodeAll([]byte(b.String()))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %v\n got %q\nwant %q", err, got, want)
	}
}

// The bytes quic-go/qpack v0.6.0 writes for each kind of field (its Encoder
// codes every string with Huffman and never sets N).
func TestEncoderBytes(t *testing.T) {
	var b strings.Builder
	e := NewEncoder(&b)
	for _, hf := range []HeaderField{{":method", "GET"}, {":path", "/a"}, {"X-Custom", "v"}, {":authority", ""}} {
		if err := e.WriteField(hf); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	e.WriteField(HeaderField{":status", "200"})
	got := fmt.Sprintf("%x", b.String())
	path := fmt.Sprintf("51%x%x", 0x80|hpack.HuffmanLen("/a"), hpack.AppendHuffman(nil, "/a"))
	name := fmt.Sprintf("2%x%x", 8|hpack.HuffmanLen("X-Custom"), hpack.AppendHuffman(nil, "X-Custom"))
	value := fmt.Sprintf("%x%x", 0x80|hpack.HuffmanLen("v"), hpack.AppendHuffman(nil, "v"))
	if exp := "0000d1" + path + name + value + "c0" + "0000d9"; got != exp {
		t.Errorf("encoded %s, want %s", got, exp)
	}
}

// One Decoder, many goroutines, as quic-go's HTTP/3 shares it: run with
// -race. Each goroutine checks its own fields.
func TestDecoderConcurrent(t *testing.T) {
	d := NewDecoder()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				var b strings.Builder
				e := NewEncoder(&b)
				want := []HeaderField{{":path", fmt.Sprintf("/g%d/%d", g, i)}, {fmt.Sprintf("x-g%d", g), strings.Repeat("v", i)}}
				for _, hf := range want {
					e.WriteField(hf)
				}
				next := d.Decode([]byte(b.String()))
				for _, w := range want {
					if hf, err := next(); err != nil || hf != w {
						errs <- fmt.Errorf("goroutine %d: %q, %v; want %q", g, hf, err, w)
						return
					}
				}
				if _, err := next(); err != io.EOF {
					errs <- fmt.Errorf("goroutine %d: %v at the end", g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A section costs at most three allocations however many literals it has:
// the state, the function and one arena for every string.
func TestDecodeAllocs(t *testing.T) {
	c := sections[3] // literals, Huffman and plain
	p := sect(c.p[2:], c.p[2:], c.p[2:], nameRef(95, "Mozilla/5.0", true), indexed(17))
	n := testing.AllocsPerRun(100, func() {
		next := NewDecoder().Decode(p)
		for {
			if _, err := next(); err != nil {
				break
			}
		}
	})
	if n > 3 {
		t.Errorf("%v allocations per section, want at most 3", n)
	}
	if n := testing.AllocsPerRun(100, func() { NewEncoder(io.Discard) }); n > 1 {
		t.Errorf("NewEncoder: %v allocations", n)
	}
}

// The static table read back from hqpack's decoder has RFC 9204's 99
// entries, and every name finds its lowest index.
func TestStaticTableReadBack(t *testing.T) {
	if len(staticFields) != 99 {
		t.Fatalf("%d static entries, want 99", len(staticFields))
	}
	for i, f := range staticFields {
		exact, name := lookupStatic(f)
		if exact != i && staticFields[exact] != f {
			t.Errorf("entry %d %v: exact match %d", i, f, exact)
		}
		if name < 0 || name > i || staticFields[name].Name != f.Name {
			t.Errorf("entry %d %v: name match %d", i, f, name)
		}
	}
}
