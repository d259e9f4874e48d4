package hpack

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/wire"
)

// Representation patterns and prefixes (RFC 7541 §6).
const (
	decIncremental = 0x40
	decWithout     = 0x00
	decNever       = 0x10
)

// decLit appends a literal field line: pattern is one of the decXxx
// constants, nameIdx 0 for a literal name.
func decLit(dst []byte, pattern byte, nameIdx uint64, name, value string, h wire.Huffman) []byte {
	prefix := uint8(4)
	if pattern == decIncremental {
		prefix = 6
	}
	dst = wire.AppendInt(dst, pattern, prefix, nameIdx)
	if nameIdx == 0 {
		dst = wire.AppendString(dst, 0, 7, name, h)
	}
	return wire.AppendString(dst, 0, 7, value, h)
}

func decIndexed(dst []byte, i uint64) []byte { return wire.AppendInt(dst, 0x80, 7, i) }

func decUpdate(dst []byte, size uint64) []byte { return wire.AppendInt(dst, 0x20, 5, size) }

func decBytes(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case byte:
			b = append(b, p)
		case int:
			b = append(b, byte(p))
		case []byte:
			b = append(b, p...)
		case string:
			b = append(b, p...)
		}
	}
	return b
}

func TestDecodeErrors(t *testing.T) {
	long := strings.Repeat("a", 11)
	cases := []struct {
		name  string
		cfg   DecoderConfig
		lower int // SetMaxTableSize before decoding, when > 0 (-1: 0)
		block []byte
		want  error
		off   int
	}{
		{"truncated index", DecoderConfig{}, 0, decBytes(0x82, 0xff), fastpath.ErrTruncated, 1},
		{"truncated literal", DecoderConfig{}, 0, decBytes(0x82, 0x41, 0x05, "ab"), fastpath.ErrTruncated, 1},
		{"truncated name", DecoderConfig{}, 0, decBytes(0x40, 0x05, "ab"), fastpath.ErrTruncated, 0},
		{"index overflow", DecoderConfig{}, 0, decBytes(0xff, bytes.Repeat([]byte{0xff}, 8), 0x7f), fastpath.ErrIntegerOverflow, 0},
		{"overlong zero continuation", DecoderConfig{}, 0, decBytes(0x82, 0xff, bytes.Repeat([]byte{0x80}, 9), 0x00), fastpath.ErrIntegerOverflow, 1},
		{"string length overflow", DecoderConfig{}, 0, decBytes(0x00, 0x7f, bytes.Repeat([]byte{0xff}, 9), 0x01), fastpath.ErrIntegerOverflow, 0},
		{"size update overflow", DecoderConfig{}, 0, decBytes(0x3f, bytes.Repeat([]byte{0xff}, 9), 0x01), fastpath.ErrIntegerOverflow, 0},
		{"name too long", DecoderConfig{MaxStringLength: 10}, 0, decLit(nil, decWithout, 0, long, "v", wire.HuffmanNever), fastpath.ErrStringTooLong, 0},
		{"value too long", DecoderConfig{MaxStringLength: 10}, 0, decLit(nil, decWithout, 1, "", long, wire.HuffmanNever), fastpath.ErrStringTooLong, 0},
		{"huffman value decodes too long", DecoderConfig{MaxStringLength: 10}, 0,
			decLit(nil, decWithout, 1, "", strings.Repeat("a", 14), wire.HuffmanAlways), fastpath.ErrStringTooLong, 0},
		{"too long before truncation", DecoderConfig{MaxStringLength: 10}, 0, decBytes(0x00, 0x0b, "ab"), fastpath.ErrStringTooLong, 0},
		{"huffman EOS", DecoderConfig{}, 0, decBytes(0x01, 0x84, 0xff, 0xff, 0xff, 0xff), fastpath.ErrHuffmanEOS, 0},
		// 'a' is 00011: then 11 one-bits of padding.
		{"huffman padding over 7 bits", DecoderConfig{}, 0, decBytes(0x01, 0x82, 0x1f, 0xff), fastpath.ErrHuffmanPaddingLength, 0},
		{"huffman zero padding", DecoderConfig{}, 0, decBytes(0x01, 0x81, 0x18), fastpath.ErrHuffmanPaddingBits, 0},
		{"index 0", DecoderConfig{}, 0, decBytes(0x82, 0x80), fastpath.ErrInvalidIndex, 1},
		{"index past static", DecoderConfig{}, 0, decBytes(0xbe), fastpath.ErrInvalidIndex, 0},
		{"name index past static", DecoderConfig{}, 0, decBytes(0x7e, 0x00), fastpath.ErrInvalidIndex, 0},
		{"name index past dynamic", DecoderConfig{}, 0,
			decLit(decLit(nil, decIncremental, 1, "", "x", wire.HuffmanNever), decWithout, 63, "", "y", wire.HuffmanNever), fastpath.ErrInvalidIndex, 3},
		{"update after field", DecoderConfig{}, 0, decUpdate(decBytes(0x82), 0), ErrSizeUpdate, 1},
		{"update above setting", DecoderConfig{}, 0, decUpdate(nil, 4097), ErrSizeUpdate, 0},
		{"update above small setting", DecoderConfig{MaxTableSize: 100}, 0, decUpdate(nil, 101), ErrSizeUpdate, 0},
		{"third update", DecoderConfig{}, 0, decBytes(0x20, 0x20, 0x20), ErrSizeUpdate, 2},
		{"missing update after lowering", DecoderConfig{}, 100, decBytes(0x82), ErrSizeUpdate, 0},
		{"missing update after lowering to 0", DecoderConfig{}, -1, decBytes(0x82), ErrSizeUpdate, 0},
		{"empty section after lowering", DecoderConfig{}, 100, nil, ErrSizeUpdate, 0},
		{"update above lowered setting", DecoderConfig{}, 100, decUpdate(nil, 101), ErrSizeUpdate, 0},
		{"section too large", DecoderConfig{MaxSectionSize: 100}, 0, decBytes(0x82, 0x84, 0x86), fastpath.ErrSectionTooLarge, 2},
		{"too many fields", DecoderConfig{MaxFields: 2}, 0, decBytes(0x82, 0x84, 0x86), fastpath.ErrSectionTooLarge, 2},
	}
	for _, c := range cases {
		for _, frag := range []bool{false, true} {
			var d Decoder
			d.Init(c.cfg)
			switch {
			case c.lower > 0:
				d.SetMaxTableSize(uint32(c.lower))
			case c.lower < 0:
				d.SetMaxTableSize(0)
			}
			var err error
			if frag {
				for i := range c.block {
					if err = d.Write(c.block[i:i+1], codectest.Discard{}); err != nil {
						break
					}
				}
				if err == nil {
					err = d.End()
				}
			} else {
				err = d.Decode(c.block, codectest.Discard{})
			}
			if !errors.Is(err, c.want) {
				t.Errorf("%s (fragmented %v): %v, want %v", c.name, frag, err, c.want)
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Offset != c.off || e.Code != ErrCodeCompression || !e.ConnectionError() {
				t.Errorf("%s (fragmented %v): %#v, want offset %d", c.name, frag, err, c.off)
			}
			// A connection error is final.
			for _, later := range []error{d.Decode([]byte{0x82}, codectest.Discard{}), d.Write([]byte{0x82}, codectest.Discard{}), d.End()} {
				if !errors.Is(later, fastpath.ErrClosed) || !errors.Is(later, c.want) {
					t.Errorf("%s: later call: %v, want fastpath.ErrClosed wrapping %v", c.name, later, c.want)
				}
			}
		}
	}
}

// TestDecodeSizeUpdates covers the accepted forms of RFC 7541 §4.2.
func TestDecodeSizeUpdates(t *testing.T) {
	var d Decoder
	ok := func(block []byte) {
		t.Helper()
		if err := d.Decode(block, codectest.Discard{}); err != nil {
			t.Fatalf("%x: %v", block, err)
		}
	}
	entry := decLit(nil, decIncremental, 0, "name", "value", wire.HuffmanNever) // size 41
	ok(entry)
	// Two updates open a section even with entries in the table: the
	// smallest size since the last section, then the final one.
	ok(decUpdate(decUpdate(nil, 0), 4096))
	if size, capacity := d.TableSize(); size != 0 || capacity != 4096 {
		t.Fatalf("after 0, 4096: size %d capacity %d", size, capacity)
	}
	ok(entry)
	ok(decUpdate(decUpdate(nil, 100), 4096))
	if d.TableLen() != 1 {
		t.Fatalf("update to 100 evicted a 41-octet entry")
	}
	// Lowered twice before a section: the first update must reach the
	// smallest setting, later ones may go up to the final one.
	d.SetMaxTableSize(50)
	d.SetMaxTableSize(3000)
	if err := d.Decode(decUpdate(nil, 3000), codectest.Discard{}); !errors.Is(err, ErrSizeUpdate) {
		t.Fatalf("update to 3000 after lowering to 50: %v", err)
	}
	d = Decoder{}
	ok(entry)
	d.SetMaxTableSize(50)
	d.SetMaxTableSize(3000)
	ok(decUpdate(decUpdate(nil, 50), 3000))
	if _, capacity := d.TableSize(); capacity != 3000 {
		t.Fatalf("capacity %d, want 3000", capacity)
	}
	// Raising the setting needs no update; after lowering it, an empty
	// section owes it too (RFC 7541 §4.2: the first header block after
	// the change; nghttp2 rejects it as well), and one of just the update
	// pays it.
	d.SetMaxTableSize(8000)
	ok(decBytes(0x82))
	d.SetMaxTableSize(10)
	ok(decUpdate(nil, 10))
	ok(nil)
	d.SetMaxTableSize(5)
	if err := d.Decode(nil, codectest.Discard{}); !errors.Is(err, ErrSizeUpdate) {
		t.Fatalf("empty section after lowering: %v", err)
	}
	// Lowering to a size the table already fits in needs no update
	// (as nghttp2 reads RFC 7541 §4.2).
	d = Decoder{}
	ok(decUpdate(nil, 100))
	d.SetMaxTableSize(200)
	ok(decBytes(0x82))

	// Our setting below the initial 4096 from the start: the peer's first
	// section must bring its table down.
	d.Init(DecoderConfig{MaxTableSize: 100})
	if size, capacity := d.TableSize(); size != 0 || capacity != DefaultTableSize {
		t.Fatalf("initial capacity %d", capacity)
	}
	if err := d.Decode(decBytes(0x82), codectest.Discard{}); !errors.Is(err, ErrSizeUpdate) {
		t.Fatalf("no update below the initial size: %v", err)
	}
	d.Init(DecoderConfig{MaxTableSize: 100})
	ok(decBytes(decUpdate(nil, 100), 0x82))
	// A peer that starts with no table, and may grow it.
	d.Init(DecoderConfig{InitialTableSize: NoTable})
	ok(entry)
	if d.TableLen() != 0 {
		t.Fatal("an entry entered a table of 0")
	}
	ok(decBytes(decUpdate(nil, 4096), entry))
	if d.TableLen() != 1 {
		t.Fatal("no entry after growing the table")
	}
}

// TestDecodeMalformed checks fused validation: a malformed field is a
// stream error reported at the end of its section, the section is still
// decoded (the table stays in sync) and the decoder stays usable.
func TestDecodeMalformed(t *testing.T) {
	cases := []struct {
		name  string
		block []byte
		want  error
		off   int
	}{
		{"uppercase name", decLit(nil, decIncremental, 0, "X-Upper", "v", wire.HuffmanNever), fastpath.ErrInvalidFieldName, 0},
		{"empty name", decLit(nil, decWithout, 0, "", "v", wire.HuffmanNever), fastpath.ErrInvalidFieldName, 0},
		{"space in name", decLit(nil, decWithout, 0, "a b", "v", wire.HuffmanAlways), fastpath.ErrInvalidFieldName, 0},
		{"unknown pseudo-header", decLit(nil, decWithout, 0, ":foo", "v", wire.HuffmanNever), fastpath.ErrInvalidFieldName, 0},
		{"NUL in value", decLit(nil, decIncremental, 0, "a", "x\x00y", wire.HuffmanNever), fastpath.ErrInvalidFieldValue, 0},
		{"CR in value", decLit(nil, decWithout, 58, "", "x\ry", wire.HuffmanAlways), fastpath.ErrInvalidFieldValue, 0},
		{"leading space", decLit(nil, decWithout, 58, "", " x", wire.HuffmanNever), fastpath.ErrInvalidFieldValue, 0},
		{"trailing tab", decLit(nil, decWithout, 58, "", "x\t", wire.HuffmanNever), fastpath.ErrInvalidFieldValue, 0},
		{"pseudo after regular", decBytes(0x82, 0x90, 0x84), fastpath.ErrPseudoAfterRegular, 2},
		{"literal pseudo after regular", decLit(decBytes(0x90), decWithout, 0, ":protocol", "websocket", wire.HuffmanNever), fastpath.ErrPseudoAfterRegular, 1},
	}
	for _, c := range cases {
		var d Decoder
		d.Init(DecoderConfig{Validate: true})
		// The malformed field comes first, or after a valid one; an
		// entry inserted after it must still be there.
		block := append(append([]byte(nil), c.block...), decLit(nil, decIncremental, 0, "after", "ok", wire.HuffmanNever)...)
		var got codectest.Recorder
		err := d.Decode(block, &got)
		if !errors.Is(err, fastpath.ErrMalformedField) || !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
			continue
		}
		var fe *Error
		if !errors.As(err, &fe) || fe.Offset != c.off || fe.Code != ErrCodeProtocol || fe.ConnectionError() {
			t.Errorf("%s: %#v, want offset %d", c.name, err, c.off)
		}
		for _, f := range got.Fields {
			if f.Name == "after" {
				t.Errorf("%s: a field after the malformed one was delivered", c.name)
			}
		}
		if n, v, _ := d.TableEntry(0); string(n) != "after" || string(v) != "ok" {
			t.Errorf("%s: table out of sync: newest entry %q: %q", c.name, n, v)
		}
		// Usable: the next section decodes, and sees the entry.
		got = codectest.Recorder{}
		if err := d.Decode(decBytes(0x82, 0xbe), &got); err != nil || len(got.Fields) != 2 || got.Fields[1].Name != "after" {
			t.Errorf("%s: next section: %v %v", c.name, err, got.Fields)
		}
		// Without validation the same section is fine.
		d.Init(DecoderConfig{})
		if err := d.Decode(block, codectest.Discard{}); err != nil {
			t.Errorf("%s: without validation: %v", c.name, err)
		}
	}
	// Valid sections pass validation, with every kind of name.
	var d Decoder
	d.Init(DecoderConfig{Validate: true})
	block := decBytes(0x82, 0x87, 0x84)
	block = decLit(block, decIncremental, 1, "", "example.com", wire.HuffmanAlways)
	block = decLit(block, decWithout, 0, ":protocol", "websocket", wire.HuffmanNever)
	block = decLit(block, decIncremental, 0, "x-custom", "a b\tc", wire.HuffmanAlways)
	block = decLit(block, decNever, 0, "user-agent", "", wire.HuffmanNever)
	block = decBytes(block, 0x90, 0xbe) // 62: x-custom (63 would be :authority, now too late)
	if err := d.Decode(block, codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeSinkError checks that a Sink's error stops delivery, is
// returned by End as it is, and leaves the decoder in sync and usable.
func TestDecodeSinkError(t *testing.T) {
	sinkErr := errors.New("stream refused")
	var d Decoder
	block := decBytes(0x82)
	block = decLit(block, decIncremental, 0, "a", "1", wire.HuffmanNever)
	block = decLit(block, decIncremental, 0, "b", "2", wire.HuffmanAlways)
	s := &codectest.FailAt{At: 2, Err: sinkErr}
	if err := d.Decode(block, s); err != sinkErr {
		t.Fatalf("Decode: %v, want the sink's error", err)
	}
	if s.Seen != 2 {
		t.Fatalf("the sink saw %d fields after failing at the 2nd", s.Seen)
	}
	var got codectest.Recorder
	if err := d.Decode(decBytes(0xbe, 0xbf), &got); err != nil || len(got.Fields) != 2 ||
		got.Fields[0] != codectest.Want("b", "2", false) || got.Fields[1] != codectest.Want("a", "1", false) {
		t.Fatalf("next section: %v %v", err, got.Fields)
	}
}

// TestDecodeNeverIndexed checks that the never-indexed flag survives with
// every kind of name, and that other literals do not carry it.
func TestDecodeNeverIndexed(t *testing.T) {
	var d Decoder
	block := decLit(nil, decNever, 0, "password", "secret", wire.HuffmanNever)
	block = decLit(block, decNever, 23, "", "Basic Zm9vOmJhcg==", wire.HuffmanAlways) // authorization
	block = decLit(block, decIncremental, 0, "x-a", "1", wire.HuffmanNever)
	block = decLit(block, decNever, 62, "", "2", wire.HuffmanNever) // name from the dynamic table
	block = decLit(block, decWithout, 62, "", "3", wire.HuffmanNever)
	var got codectest.Recorder
	if err := d.Decode(block, &got); err != nil {
		t.Fatal(err)
	}
	want := []codectest.Field{codectest.Want("password", "secret", true), codectest.Want("authorization", "Basic Zm9vOmJhcg==", true),
		codectest.Want("x-a", "1", false), codectest.Want("x-a", "2", true), codectest.Want("x-a", "3", false)}
	if len(got.Fields) != len(want) {
		t.Fatalf("got %v", got.Fields)
	}
	for i := range want {
		if got.Fields[i] != want[i] {
			t.Errorf("field %d: %v, want %v", i, got.Fields[i], want[i])
		}
	}
	if d.TableLen() != 1 {
		t.Errorf("never-indexed fields entered the table: %d entries", d.TableLen())
	}
}
