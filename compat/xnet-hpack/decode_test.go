package hpack

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
	hq "github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/conformance"
)

// lit is a literal field line with a literal name, strings not
// Huffman-coded; pattern is one of the three below.
func lit(pattern byte, name, value string) []byte {
	b := append(appendVarInt([]byte{pattern}, 7, uint64(len(name))), name...)
	return append(appendVarInt(b, 7, uint64(len(value))), value...)
}

const (
	withIndexing = 0x40
	withoutIdx   = 0x00
	neverIdx     = 0x10
)

func indexed(i uint64) []byte {
	b := appendVarInt(nil, 7, i)
	b[0] |= 0x80
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestDecoderRFCExamples decodes RFC 7541 Appendix C's header blocks, in
// their contexts: the fields, never-indexed flags included.
func TestDecoderRFCExamples(t *testing.T) {
	ex, err := conformance.EmbeddedRFCExamples()
	if err != nil {
		t.Fatal(err)
	}
	var d *Decoder
	for _, e := range ex.HPACK {
		if e.FreshContext || d == nil {
			d = NewDecoder(uint32(e.Settings.HeaderTableSize), nil)
		}
		block, err := hex.DecodeString(e.WireHex)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.DecodeFull(block)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		if len(got) != len(e.Headers) {
			t.Fatalf("%s: %v, want %v", e.ID, got, e.Headers)
		}
		for i, h := range e.Headers {
			if want := (HeaderField{Name: h.Name, Value: h.Value, Sensitive: h.NeverIndex}); got[i] != want {
				t.Errorf("%s: field %d %v, want %v", e.ID, i, got[i], want)
			}
		}
	}
	if len(ex.HPACK) < 10 {
		t.Fatalf("%d examples", len(ex.HPACK))
	}
}

// TestDecoderCalls makes the same calls on our Decoder and x/net's, and
// compares what each call returns and emits.
func TestDecoderCalls(t *testing.T) {
	var ours, theirs []HeaderField
	d := NewDecoder(4096, func(f HeaderField) { ours = append(ours, f) })
	x := xhpack.NewDecoder(4096, func(f xhpack.HeaderField) {
		theirs = append(theirs, HeaderField{f.Name, f.Value, f.Sensitive})
	})
	write := func(p []byte) func() (error, error) {
		return func() (error, error) {
			n, err := d.Write(p)
			xn, xerr := x.Write(p)
			if n != xn {
				t.Errorf("Write returned %d, x/net %d", n, xn)
			}
			return err, xerr
		}
	}
	closeBoth := func() (error, error) { return d.Close(), x.Close() }
	huff := AppendHuffmanString(nil, "custom-header")
	section := cat([]byte{withIndexing, 10}, []byte("custom-key"), []byte{0x80 | byte(len(huff))}, huff,
		lit(neverIdx, "Upper-Case", "/secret"), indexed(2), indexed(62))
	calls := []struct {
		name string
		do   func() (error, error)
	}{
		{"first part", write(section[:7])},
		{"empty", write(nil)},
		{"the rest", write(section[7:])},
		{"close", closeBoth},
		{"emit off", func() (error, error) {
			d.SetEmitEnabled(false)
			x.SetEmitEnabled(false)
			if d.EmitEnabled() != x.EmitEnabled() {
				t.Error("EmitEnabled differs")
			}
			return nil, nil
		}},
		{"silent section", write(lit(withIndexing, "quiet", "entry"))},
		{"close", closeBoth},
		{"emit on", func() (error, error) {
			d.SetEmitEnabled(true)
			x.SetEmitEnabled(true)
			return nil, nil
		}},
		{"entries", write(cat(indexed(62), indexed(63)))},
		{"close", closeBoth},
		{"other emit func", func() (error, error) {
			d.SetEmitFunc(func(f HeaderField) { ours = append(ours, f, f) })
			x.SetEmitFunc(func(f xhpack.HeaderField) {
				theirs = append(theirs, HeaderField{f.Name, f.Value, f.Sensitive}, HeaderField{f.Name, f.Value, f.Sensitive})
			})
			return nil, nil
		}},
		{"static", write(cat(indexed(8), indexed(61)))},
		{"close", closeBoth},
		{"table size 60", func() (error, error) {
			d.SetMaxDynamicTableSize(60)
			x.SetMaxDynamicTableSize(60)
			return nil, nil
		}},
		{"the newest entry only", write(indexed(62))},
		{"allowed up to 8192", func() (error, error) {
			d.SetAllowedMaxDynamicTableSize(8192)
			x.SetAllowedMaxDynamicTableSize(8192)
			return nil, nil
		}},
		{"close", closeBoth},
		{"update to 8192", write([]byte{0x3f, 0xe1, 0x3f})},
		{"close", closeBoth},
		{"cut in a literal", write([]byte{withIndexing})},
		{"close while cut", closeBoth},
	}
	for _, c := range calls {
		ours, theirs = nil, nil
		err, xerr := c.do()
		if (err == nil) != (xerr == nil) {
			t.Fatalf("%s: %v, x/net %v", c.name, err, xerr)
		}
		if len(ours) != len(theirs) {
			t.Fatalf("%s: fields %v, x/net %v", c.name, ours, theirs)
		}
		for i := range ours {
			if ours[i] != theirs[i] {
				t.Fatalf("%s: field %d %v, x/net %v", c.name, i, ours[i], theirs[i])
			}
		}
		if err != nil {
			var de DecodingError
			if !errors.As(err, &de) || !errors.As(xerr, new(xhpack.DecodingError)) {
				t.Fatalf("%s: %#v, x/net %#v: want DecodingErrors", c.name, err, xerr)
			}
			if !errors.Is(de.Err, fastpath.ErrTruncated) {
				t.Errorf("%s: %v does not carry hqpack's ErrTruncated", c.name, err)
			}
		}
	}
}

// TestDecoderErrorsLikeXNet checks each error's identity against x/net's
// for the same bytes.
func TestDecoderErrorsLikeXNet(t *testing.T) {
	longName := lit(withoutIdx, "n", strings.Repeat("v", 3<<10))
	cases := []struct {
		name  string
		max   int // SetMaxStringLength
		block []byte
		check func(err error) bool
	}{
		{"string over the limit (x/net's TestSaveBufLimit)", 1 << 10, longName,
			func(err error) bool { return err == ErrStringLength }},
		{"Huffman-decoded string over the limit", 10,
			cat([]byte{withoutIdx, 1, 'n', 0x80 | 8}, AppendHuffmanString(nil, "0000000000000")),
			func(err error) bool { return err == ErrStringLength }},
		{"static entry over the limit", 3, indexed(16), // accept-encoding: gzip, deflate
			func(err error) bool { return err == ErrStringLength }},
		{"invalid Huffman", 0, cat([]byte{withoutIdx, 1, 'n', 0x81, 0x00}),
			func(err error) bool { return err == ErrInvalidHuffman }},
		{"Huffman EOS", 0, cat([]byte{withoutIdx, 1, 'n', 0x85, 0xff, 0xff, 0xff, 0xff, 0xfc}),
			func(err error) bool { return err == ErrInvalidHuffman }},
		{"index 0", 0, indexed(0), func(err error) bool {
			var de DecodingError
			return errors.As(err, &de) && de.Err == InvalidIndexError(0)
		}},
		{"index 70", 0, indexed(70), func(err error) bool {
			var de DecodingError
			return errors.As(err, &de) && de.Err == InvalidIndexError(70)
		}},
		{"name index 66", 0, []byte{withIndexing | 63, 3, 1, 'v'}, func(err error) bool {
			var de DecodingError
			return errors.As(err, &de) && de.Err == InvalidIndexError(66)
		}},
		{"update above the allowed size", 0, []byte{0x3f, 0xe2, 0x1f}, func(err error) bool {
			var de DecodingError
			return errors.As(err, &de) && errors.Is(de.Err, hq.ErrSizeUpdate)
		}},
		{"integer overflow", 0, cat([]byte{0xff}, bytes.Repeat([]byte{0xff}, 12), []byte{1}), func(err error) bool {
			var de DecodingError
			return errors.As(err, &de) && errors.Is(de.Err, fastpath.ErrIntegerOverflow)
		}},
	}
	for _, c := range cases {
		d, x := NewDecoder(4096, nil), xhpack.NewDecoder(4096, nil)
		d.SetMaxStringLength(c.max)
		x.SetMaxStringLength(c.max)
		_, err := d.DecodeFull(c.block)
		_, xerr := x.DecodeFull(c.block)
		if !c.check(err) {
			t.Errorf("%s: %#v", c.name, err)
		}
		if err == nil || !sameError(err, xerr) {
			t.Errorf("%s: %v, x/net %v", c.name, err, xerr)
		}
		// Write reports the error with the same count as x/net's.
		d2, x2 := NewDecoder(4096, nil), xhpack.NewDecoder(4096, nil)
		d2.SetMaxStringLength(c.max)
		x2.SetMaxStringLength(c.max)
		n, werr := d2.Write(c.block)
		xn, xwerr := x2.Write(c.block)
		if werr != nil && xwerr != nil && n != xn {
			t.Errorf("%s: Write returned %d, x/net %d", c.name, n, xn)
		}
		// The error stays: a COMPRESSION_ERROR ends the connection.
		if _, again := d.Write(indexed(2)); again != err {
			t.Errorf("%s: next Write %v, want %v again", c.name, again, err)
		}
		if again := d.Close(); again != err {
			t.Errorf("%s: Close %v, want %v again", c.name, again, err)
		}
	}
}

// TestDecoderDifferencesFromXNet pins each documented difference from
// x/net v0.58.0 down, on both decoders.
func TestDecoderDifferencesFromXNet(t *testing.T) {
	entry := lit(withIndexing, "a", "b")
	cases := []struct {
		name     string
		allowed  uint32 // SetAllowedMaxDynamicTableSize before the last section, if not 0
		sections [][]byte
		ours, xn bool // whether the last section is accepted
	}{
		{"update after a field, empty table", 0, [][]byte{cat(indexed(2), []byte{0x20})}, false, true},
		{"two updates, non-empty table", 0, [][]byte{entry, {0x3f, 0x45, 0x3f, 0xe1, 0x1f}}, true, false},
		{"three updates, empty table", 0, [][]byte{{0x20, 0x20, 0x20}}, false, true},
		{"no update after the allowed size went below the table's", 100, [][]byte{entry, indexed(2)}, false, true},
		{"invalid Huffman in a field not emitted", 0, [][]byte{cat([]byte{withoutIdx, 1, 'n', 0x81, 0x00})}, false, true},
	}
	for _, c := range cases {
		d, x := NewDecoder(4096, nil), xhpack.NewDecoder(4096, nil)
		var err, xerr error
		for i, s := range c.sections {
			if i == len(c.sections)-1 {
				if c.allowed != 0 {
					d.SetAllowedMaxDynamicTableSize(c.allowed)
					x.SetAllowedMaxDynamicTableSize(c.allowed)
				}
				if strings.Contains(c.name, "not emitted") {
					d.SetEmitEnabled(false)
					x.SetEmitEnabled(false)
				}
			}
			_, err = d.DecodeFull(s)
			_, xerr = x.DecodeFull(s)
		}
		if (err == nil) != c.ours || (xerr == nil) != c.xn {
			t.Errorf("%s: ours %v, x/net %v", c.name, err, xerr)
		}
	}
}

// TestDecoderDifferential decodes random sections, mostly x/net's
// encodings of random fields with damage mixed in, with both decoders,
// whole and in random fragments: the same fields, and errors of the same
// kind, but for the documented differences (size update placement).
func TestDecoderDifferential(t *testing.T) {
	var accepted, rejected, excused int
	for seed := range int64(3000) {
		r := rand.New(rand.NewSource(seed))
		var buf bytes.Buffer
		enc := xhpack.NewEncoder(&buf)
		d, frag, x := NewDecoder(4096, nil), NewDecoder(4096, nil), xhpack.NewDecoder(4096, nil)
		max := []int{0, 0, 0, 16, 300}[r.Intn(5)]
		d.SetMaxStringLength(max)
		frag.SetMaxStringLength(max)
		x.SetMaxStringLength(max)
		for range 1 + r.Intn(4) {
			buf.Reset()
			if r.Intn(8) == 0 {
				enc.SetMaxDynamicTableSize([]uint32{0, 100, 4096}[r.Intn(3)])
			}
			for range r.Intn(10) {
				enc.WriteField(xhpack.HeaderField{
					Name:      encNames[r.Intn(len(encNames))],
					Value:     encValues[r.Intn(len(encValues))],
					Sensitive: r.Intn(5) == 0,
				})
			}
			block := buf.Bytes()
			switch r.Intn(8) {
			case 0:
				if len(block) > 0 {
					block[r.Intn(len(block))] ^= byte(1 + r.Intn(255))
				}
			case 1:
				block = block[:r.Intn(len(block)+1)]
			case 2:
				block = append(block, byte(r.Intn(256)), byte(r.Intn(256)))
			}
			got, err := d.DecodeFull(block)
			var fragGot []HeaderField
			frag.SetEmitFunc(func(f HeaderField) { fragGot = append(fragGot, f) })
			var ferr error
			for p := block; len(p) > 0 && ferr == nil; {
				n := min(len(p), 1+r.Intn(20))
				_, ferr = frag.Write(p[:n])
				p = p[n:]
			}
			if ferr == nil {
				ferr = frag.Close()
			}
			xgot, xerr := x.DecodeFull(block)
			if !sameError(err, ferr) || err == nil && !slices.Equal(got, fragGot) {
				t.Fatalf("seed %d: whole %v %v, in fragments %v %v", seed, got, err, fragGot, ferr)
			}
			if errors.Is(asDecoding(err), hq.ErrSizeUpdate) || xerr != nil && strings.Contains(xerr.Error(), "MUST occur") {
				excused++
				break
			}
			if !sameError(err, xerr) {
				t.Fatalf("seed %d, block %x: ours %v, x/net %v", seed, block, err, xerr)
			}
			if err != nil {
				rejected++
				break
			}
			accepted++
			if len(got) != len(xgot) {
				t.Fatalf("seed %d: %v, x/net %v", seed, got, xgot)
			}
			for i := range got {
				if xfield(got[i]) != xgot[i] {
					t.Fatalf("seed %d: field %d %v, x/net %v", seed, i, got[i], xgot[i])
				}
			}
		}
	}
	t.Logf("sections: %d accepted by both, %d rejected by both, %d stories ended on size-update placement", accepted, rejected, excused)
	if accepted < 3000 || rejected < 300 {
		t.Errorf("too few sections compared")
	}
}

func asDecoding(err error) error {
	var de DecodingError
	if errors.As(err, &de) {
		return de.Err
	}
	return nil
}

// sameError reports whether a and b, ours or x/net's, are the same kind
// of error: none, ErrStringLength, ErrInvalidHuffman, the same
// InvalidIndexError, or another DecodingError.
func sameError(a, b error) bool {
	kind := func(err error) any {
		switch {
		case err == nil:
			return nil
		case err == ErrStringLength, err == xhpack.ErrStringLength:
			return "string length"
		case err == ErrInvalidHuffman, err == xhpack.ErrInvalidHuffman:
			return "huffman"
		}
		var de DecodingError
		if errors.As(err, &de) {
			if i, ok := de.Err.(InvalidIndexError); ok {
				return int(i)
			}
			return "decoding"
		}
		var xde xhpack.DecodingError
		if errors.As(err, &xde) {
			if i, ok := xde.Err.(xhpack.InvalidIndexError); ok {
				return int(i)
			}
			return "decoding"
		}
		return err.Error()
	}
	return kind(a) == kind(b)
}

func TestDecoderDecodeFull(t *testing.T) {
	var emitted int
	d := NewDecoder(4096, func(HeaderField) { emitted++ })
	got, err := d.DecodeFull(cat(indexed(2), lit(withIndexing, "X-Upper", "v"), indexed(62)))
	want := []HeaderField{{Name: ":method", Value: "GET"}, {Name: "X-Upper", Value: "v"}, {Name: "X-Upper", Value: "v"}}
	if err != nil || !slices.Equal(got, want) || emitted != 0 {
		t.Fatalf("DecodeFull: %v %v (emitted %d), want %v", got, err, emitted, want)
	}
	// The emit function is back.
	if _, err := d.Write(indexed(2)); err != nil || emitted != 1 {
		t.Fatalf("Write after DecodeFull: %v, %d emitted", err, emitted)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// While emitting is off, DecodeFull returns no fields, as x/net's.
	d.SetEmitEnabled(false)
	if got, err := d.DecodeFull(indexed(2)); err != nil || len(got) != 0 {
		t.Fatalf("emit off: %v, %v", got, err)
	}
	// A nil emit function drops the fields.
	d = NewDecoder(4096, nil)
	if _, err := d.Write(indexed(2)); err != nil {
		t.Fatal(err)
	}
}

// TestDecoderTableSizes: NewDecoder's size is the table's and the bound;
// SetMaxDynamicTableSize sets the table directly.
func TestDecoderTableSizes(t *testing.T) {
	d := NewDecoder(0, nil)
	if _, err := d.DecodeFull(lit(withIndexing, "a", "b")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeFull(indexed(62)); !errors.As(err, new(DecodingError)) {
		t.Fatalf("entry 62 with no table: %v", err)
	}
	d = NewDecoder(4096, nil)
	big := lit(withIndexing, "x", strings.Repeat("v", 5000))
	d.SetMaxDynamicTableSize(8192) // above the allowed size: not checked
	if got, err := d.DecodeFull(cat(big, indexed(62))); err != nil || len(got) != 2 {
		t.Fatalf("a 5033-byte entry in a table of 8192: %v", err)
	}
	d.SetMaxDynamicTableSize(100) // evicts it
	if _, err := d.DecodeFull(indexed(62)); err == nil {
		t.Fatal("entry 62 after SetMaxDynamicTableSize(100) evicted it: no error")
	}
}

// Like x/net's, the Decoder has no section-size limit: 101 fields of 4 KB.
func TestDecoderNoSectionLimit(t *testing.T) {
	block := lit(withIndexing, "x", strings.Repeat("v", 4000))
	for range 100 {
		block = append(block, indexed(62)...)
	}
	got, err := NewDecoder(4096, nil).DecodeFull(block)
	if err != nil || len(got) != 101 {
		t.Fatalf("%d fields, %v", len(got), err)
	}
}
