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

// TestDecodeBomb: one entry as large as the table, then 100,000 one-byte
// references to it. Decoding stops at the section limit, having handed the
// sink no more than the limit and looked at no more than it needed.
func TestDecodeBomb(t *testing.T) {
	value := strings.Repeat("v", 4096-32-1)
	block := decLit(nil, decIncremental, 0, "x", value, wire.HuffmanNever)
	head := len(block)
	block = append(block, bytes.Repeat([]byte{0xbe}, 100000)...)
	var d Decoder
	var c codectest.Counter
	err := d.Decode(block, &c)
	if !errors.Is(err, fastpath.ErrSectionTooLarge) {
		t.Fatalf("bomb: %v", err)
	}
	// 64 KiB holds 16 fields of 4096: the 17th (the 16th reference) fails.
	var e *Error
	errors.As(err, &e)
	if c.Fields != 16 || c.Bytes > defaultMaxSectionSize || e.Offset != head+15 {
		t.Fatalf("bomb: %d fields, %d bytes delivered, stopped at offset %d", c.Fields, c.Bytes, e.Offset)
	}
	if d.work.parsed > head+16 {
		t.Fatalf("bomb: %d bytes parsed", d.work.parsed)
	}
}

// TestDecodeEmptyFields: 8,193 empty literal fields, each 3 bytes on the
// wire and 32 octets by RFC accounting, exceed a 256 KiB section by one.
func TestDecodeEmptyFields(t *testing.T) {
	block := bytes.Repeat([]byte{0x00, 0x00, 0x00}, 8193)
	var d Decoder
	d.Init(DecoderConfig{MaxSectionSize: 256 << 10})
	var c codectest.Counter
	err := d.Decode(block, &c)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, fastpath.ErrSectionTooLarge) || c.Fields != 8192 || e.Offset != 3*8192 {
		t.Fatalf("empty fields: %v after %d fields", err, c.Fields)
	}
	// One fewer fits exactly.
	d.Init(DecoderConfig{MaxSectionSize: 256 << 10})
	if err := d.Decode(block[3:], &c); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeSlowHuffman: a 16 KiB Huffman literal fed one byte per Write
// decodes once: the bytes parsed stay within the input, and the cut
// representation is measured a bounded number of times, not once per byte.
func TestDecodeSlowHuffman(t *testing.T) {
	// Ten symbols with 5-bit codes: 26,214 of them make 16 KiB.
	value := strings.Repeat("aceiost012", 2622)[:26214]
	block := decLit(nil, decWithout, 0, "x-big", value, wire.HuffmanAlways)
	block = decBytes(block, 0x82)
	if n := len(block); n < 16<<10 || n > 16<<10+16 {
		t.Fatalf("block is %d bytes", n)
	}
	for _, step := range []int{1, 7} {
		var d Decoder
		var got codectest.Recorder
		for i := 0; i < len(block); i += step {
			if err := d.Write(block[i:min(i+step, len(block))], &got); err != nil {
				t.Fatal(err)
			}
			// Only the cut representation is kept, up to its length.
			if len(d.buf) > 0 && d.want > len(block) {
				t.Fatalf("step %d: waiting for %d bytes", step, d.want)
			}
		}
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
		if len(got.Fields) != 2 || got.Fields[0].Value != value || got.Fields[1].Name != ":method" {
			t.Fatalf("step %d: wrong fields", step)
		}
		if d.work.parsed > len(block)+step || d.work.measures > 8 {
			t.Fatalf("step %d: %d bytes parsed, %d measures for %d bytes of input",
				step, d.work.parsed, d.work.measures, len(block))
		}
		if cap(d.buf) > decKeep || cap(d.huff) > decKeep {
			t.Fatalf("step %d: kept %d + %d bytes of buffers after the section", step, cap(d.buf), cap(d.huff))
		}
	}
}

// TestDecodeStreamBound: a string as long as allowed, cut short, is kept;
// one byte longer is refused as soon as its length is read.
func TestDecodeStreamBound(t *testing.T) {
	var d Decoder
	d.Init(DecoderConfig{MaxStringLength: 1000})
	block := decLit(nil, decWithout, 0, "n", strings.Repeat("v", 1000), wire.HuffmanNever)
	if err := d.Write(block[:10], codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	if err := d.Write(block[10:], codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	block = decLit(nil, decWithout, 0, "n", strings.Repeat("v", 1001), wire.HuffmanNever)
	if err := d.Write(block[:6], codectest.Discard{}); !errors.Is(err, fastpath.ErrStringTooLong) {
		t.Fatalf("over-long string: %v", err)
	}
	// A raw value that cannot fit the section is refused before its bytes.
	d.Init(DecoderConfig{MaxSectionSize: 500})
	block = decLit(nil, decWithout, 0, "n", strings.Repeat("v", 470), wire.HuffmanNever)
	if err := d.Write(block[:6], codectest.Discard{}); !errors.Is(err, fastpath.ErrSectionTooLarge) || cap(d.buf) > 0 {
		t.Fatalf("value over the section size: %v (buffered %d)", err, cap(d.buf))
	}
}

// TestDecodeAllocs: decoding a warm section allocates nothing, whole or in
// fragments, into the ready SinkList or a sink that keeps nothing.
func TestDecodeAllocs(t *testing.T) {
	req := decBench(t)
	var d Decoder
	list := fastpath.NewSinkList(64, 16<<10)
	for _, block := range req {
		if err := d.Decode(block, list); err != nil {
			t.Fatal(err)
		}
		list.Reset()
	}
	warm := req[len(req)-1]
	if a := testing.AllocsPerRun(100, func() {
		if err := d.Decode(warm, list); err != nil {
			t.Fatal(err)
		}
		list.Reset()
	}); a != 0 {
		t.Errorf("warm Decode into SinkList: %v allocs", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		_ = d.Decode(warm, codectest.Discard{})
	}); a != 0 {
		t.Errorf("warm Decode: %v allocs", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		for i := 0; i < len(warm); i += 5 {
			_ = d.Write(warm[i:min(i+5, len(warm))], list)
		}
		_ = d.End()
		list.Reset()
	}); a != 0 {
		t.Errorf("warm Write in fragments: %v allocs", a)
	}
	// A cold section of literals (Huffman, inserted) once scratch is grown.
	cold := req[0]
	if a := testing.AllocsPerRun(100, func() {
		d.Init(DecoderConfig{})
		_ = d.Decode(cold, list)
		list.Reset()
	}); a != 0 {
		t.Errorf("cold Decode: %v allocs", a)
	}
}
