package qpack

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// Attack tests: each hostile input gets the right error code, without a
// panic, and the decoder's memory stays within its limits.

func TestAttackRequiredInsertCount(t *testing.T) {
	const me = 4096 / 32 // MaxEntries 128: encoded RIC goes up to 256
	tests := []struct {
		name   string
		prefix []byte
		cause  error
	}{
		{"encoded above 2*MaxEntries", []byte{0xff, 0x82, 0x01, 0x00}, ErrRequiredInsertCount}, // 255+130 = 385
		{"encoded 2*MaxEntries+1", []byte{0xff, 0x02, 0x00}, ErrRequiredInsertCount},           // 257
		{"decodes to 0", sectionPrefix(0, 0, me)[:0], nil},
		{"wraps below the range", []byte{0xff, 0x01, 0x00}, ErrRequiredInsertCount}, // 256: RIC 255 > MaxValue 128, <= FullRange
		{"negative base", []byte{0x02, 0x81}, ErrRequiredInsertCount},               // RIC 1, sign, delta 1
		{"negative base, RIC 0", []byte{0x00, 0x80}, ErrRequiredInsertCount},
		{"integer over 2^62", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00}, fastpath.ErrIntegerOverflow},
		{"base over 2^62", []byte{0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, fastpath.ErrIntegerOverflow},
		{"endless continuation", append([]byte{0xff}, bytes.Repeat([]byte{0x80}, 100)...), fastpath.ErrIntegerOverflow},
		{"empty section", []byte{}, fastpath.ErrTruncated},
	}
	for _, tc := range tests {
		if tc.cause == nil {
			continue
		}
		d := newTestDecoder(t, 100)
		_, err := d.DecodeSection(4, tc.prefix, codectest.Discard{})
		wantCode(t, err, ErrCodeDecompressionFailed, tc.cause)
		if _, err := d.DecodeSection(8, []byte{0, 0}, codectest.Discard{}); !errors.Is(err, fastpath.ErrClosed) {
			t.Errorf("%s: next call %v, want fastpath.ErrClosed", tc.name, err)
		}
	}
	// A decoder that allows no dynamic table accepts only RIC 0.
	d := newDecoder(DecoderConfig{})
	_, err := d.DecodeSection(4, []byte{0x01, 0x00}, codectest.Discard{})
	wantCode(t, err, ErrCodeDecompressionFailed, ErrRequiredInsertCount)
}

func TestAttackReferences(t *testing.T) {
	const me = 128
	tests := []struct {
		name    string
		section []byte
	}{
		{"relative at RIC (base past RIC)", cat(sectionPrefix(1, 2, me), indexedDynamic(0))},
		{"post-base at RIC", cat(sectionPrefix(2, 1, me), indexedPostBase(1))},
		{"post-base name at RIC", cat(sectionPrefix(2, 2, me), literalPostBaseRef(0, "v", false, false))},
		{"relative below 0", cat(sectionPrefix(2, 2, me), indexedDynamic(2))},
		{"relative name below 0", cat(sectionPrefix(2, 2, me), literalDynamicRef(5, "v", false, false))},
		{"dynamic with RIC 0", cat(sectionPrefix(0, 0, me), indexedDynamic(0))},
		{"post-base with RIC 0", cat(sectionPrefix(0, 0, me), indexedPostBase(0))},
		{"evicted", cat(sectionPrefix(2, 2, me), indexedDynamic(1))},
		{"static past the table", cat(sectionPrefix(0, 0, me), indexedStatic(99))},
		{"static name past the table", cat(sectionPrefix(0, 0, me), literalStaticRef(200, "v", false, false))},
		{"huge relative", cat(sectionPrefix(2, 2, me), indexedDynamic(1<<62-1))},
		{"huge post-base", cat(sectionPrefix(2, 2, me), indexedPostBase(1<<62-1))},
	}
	for _, tc := range tests {
		// Two entries of 3000 bytes in a 4096 table: the first is evicted.
		d := newTestDecoder(t, 100)
		mustRead(t, d, cat(insertLiteral("a", strings.Repeat("1", 2960), false), insertLiteral("b", strings.Repeat("2", 2960), false)))
		_, err := d.DecodeSection(4, tc.section, codectest.Discard{})
		if e := wantCode(t, err, ErrCodeDecompressionFailed, fastpath.ErrInvalidIndex); e.Offset == 0 {
			t.Errorf("%s: offset 0, want the field line's", tc.name)
		}
	}
}

func TestAttackSectionStrings(t *testing.T) {
	tests := []struct {
		name    string
		section []byte
		code    ErrCode
		cause   error
	}{
		{"truncated value", cat([]byte{0, 0}, literalStaticRef(1, "/index", false, false))[:6], ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"value length past the end", []byte{0, 0, 0x51, 0x7f, 0x80, 0x01}, ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"huffman EOS", []byte{0, 0, 0x51, 0x84, 0xff, 0xff, 0xff, 0xff}, ErrCodeDecompressionFailed, fastpath.ErrHuffmanEOS},
		{"huffman zero padding", []byte{0, 0, 0x51, 0x81, 0x00}, ErrCodeDecompressionFailed, fastpath.ErrHuffmanPaddingBits},
		{"string length over 2^62", []byte{0, 0, 0x51, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, ErrCodeDecompressionFailed, fastpath.ErrIntegerOverflow},
		{"huge string length", []byte{0, 0, 0x51, 0x7f, 0xff, 0xff, 0xff, 0xff, 0x0f}, ErrCodeMessage, fastpath.ErrSectionTooLarge},
	}
	for _, tc := range tests {
		d := newDecoder(DecoderConfig{})
		_, err := d.DecodeSection(4, tc.section, codectest.Discard{})
		wantCode(t, err, tc.code, tc.cause)
	}
}

// TestAttackSectionBomb: one large entry referenced thousands of times
// stops at the section limit after about MaxSectionSize bytes of output.
func TestAttackSectionBomb(t *testing.T) {
	d := newTestDecoder(t, 0)
	mustRead(t, d, insertLiteral("x", strings.Repeat("y", 4000), true))
	section := append(sectionPrefix(1, 1, 128), bytes.Repeat(indexedDynamic(0), 100000)...)
	var n codectest.Counter
	_, err := d.DecodeSection(4, section, &n)
	wantCode(t, err, ErrCodeMessage, fastpath.ErrSectionTooLarge)
	if n.Bytes > defaultMaxSectionSize {
		t.Errorf("%d bytes handed out, limit %d", n.Bytes, defaultMaxSectionSize)
	}
	// 8193 empty literal names: 32 bytes of overhead each.
	d = newDecoder(DecoderConfig{MaxSectionSize: 8192 * 32})
	section = append([]byte{0, 0}, bytes.Repeat([]byte{0x20, 0x00}, 8193)...)
	n = codectest.Counter{}
	_, err = d.DecodeSection(4, section, &n)
	wantCode(t, err, ErrCodeMessage, fastpath.ErrSectionTooLarge)
	if n.Fields != 8192 {
		t.Errorf("%d fields before the limit, want 8192", n.Fields)
	}
}

func TestAttackEncoderStream(t *testing.T) {
	tests := []struct {
		name   string
		stream []byte
		cause  error
		off    int
	}{
		{"capacity above max", setCapacity(4097), ErrCapacity, 3},
		{"insert larger than capacity", insertLiteral("n", strings.Repeat("v", 4096-32), false), ErrCapacity, 3},
		{"insert name larger than capacity", insertLiteral(strings.Repeat("n", 4096), "", false), ErrCapacity, 3},
		{"insert ref larger than capacity", insertStaticRef(0, strings.Repeat("v", 4096-32-9), true), ErrCapacity, 3},
		{"static ref past the table", insertStaticRef(99, "v", false), fastpath.ErrInvalidIndex, 3},
		{"dynamic ref past the table", insertDynamicRef(0, "v", false), fastpath.ErrInvalidIndex, 3},
		{"duplicate of nothing", duplicate(0), fastpath.ErrInvalidIndex, 3},
		{"capacity over 2^62", []byte{0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, fastpath.ErrIntegerOverflow, 3},
		{"index over 2^62", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, fastpath.ErrIntegerOverflow, 3},
		{"name length over 2^62", []byte{0x5f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, fastpath.ErrIntegerOverflow, 3},
		{"value length over 2^62", []byte{0xc0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, fastpath.ErrIntegerOverflow, 4},
		{"huffman EOS in value", []byte{0xc0, 0x84, 0xff, 0xff, 0xff, 0xff}, fastpath.ErrHuffmanEOS, 4},
	}
	for _, tc := range tests {
		d := newDecoder(DecoderConfig{MaxTableCapacity: 4096})
		// Prefix the bad instruction with a 3-byte Set Dynamic Table
		// Capacity, so offsets count across instructions.
		err := d.ReadEncoderStream(append(setCapacity(4096), tc.stream...))
		e := wantCode(t, err, ErrCodeEncoderStream, tc.cause)
		if e.Offset != tc.off {
			t.Errorf("%s: offset %d, want %d", tc.name, e.Offset, tc.off)
		}
		if err := d.ReadEncoderStream(setCapacity(0)); !errors.Is(err, fastpath.ErrClosed) {
			t.Errorf("%s: next read %v, want fastpath.ErrClosed", tc.name, err)
		}
	}
	// Before any Set Dynamic Table Capacity the capacity is 0 (RFC 9204
	// §3.2.3), unless InitialCapacity is set.
	d := newDecoder(DecoderConfig{MaxTableCapacity: 4096})
	wantCode(t, d.ReadEncoderStream(insertLiteral("a", "b", false)), ErrCodeEncoderStream, ErrCapacity)
	d = newDecoder(DecoderConfig{MaxTableCapacity: 4096, InitialCapacity: 4096})
	mustRead(t, d, insertLiteral("a", "b", false))
}

// TestAttackEncoderStreamEndless: an instruction that never ends stops at
// the buffer bound (or at the integer limit), fed a byte at a time, and the
// decoder never holds more than the bound.
func TestAttackEncoderStreamEndless(t *testing.T) {
	const bound = 1000
	tests := []struct {
		name  string
		head  []byte // then filler bytes forever
		fill  byte
		cause error
	}{
		// A value that fits the table but not the buffer bound.
		{"long value", []byte{0xc0, 0x7f, 0xe9, 0x0f}, 'a', ErrBufferLimit}, // 127+2025 bytes
		// Continuation bytes: the integer limit comes first.
		{"endless integer", []byte{0x3f}, 0x80, fastpath.ErrIntegerOverflow},
		{"endless name length", []byte{0x5f}, 0xff, fastpath.ErrIntegerOverflow},
	}
	for _, tc := range tests {
		d := newDecoder(DecoderConfig{MaxTableCapacity: 1 << 20, MaxEncoderStreamBuffer: bound})
		mustRead(t, d, setCapacity(1<<20))
		var err error
		fed := 0
		for _, b := range tc.head {
			if err = d.ReadEncoderStream([]byte{b}); err != nil {
				break
			}
			fed++
		}
		for ; err == nil && fed < 1<<20; fed++ {
			err = d.ReadEncoderStream([]byte{tc.fill})
			if len(d.pend) > bound || cap(d.pend) > 2*bound {
				t.Fatalf("%s: holding %d bytes (cap %d)", tc.name, len(d.pend), cap(d.pend))
			}
		}
		wantCode(t, err, ErrCodeEncoderStream, tc.cause)
		if fed > bound {
			t.Errorf("%s: %d bytes read before the error", tc.name, fed)
		}
	}
}

// TestEncoderStreamLinear: a long literal fed a byte at a time is parsed a
// bounded number of times, not once per byte.
func TestEncoderStreamLinear(t *testing.T) {
	d := newDecoder(DecoderConfig{MaxTableCapacity: 1 << 20})
	mustRead(t, d, setCapacity(1<<20))
	parses := 0
	parsed = func() { parses++ }
	defer func() { parsed = nil }()
	ins := insertLiteral(strings.Repeat("n", 50000), strings.Repeat("v", 60000), true)
	for i := range ins {
		mustRead(t, d, ins[i:i+1])
	}
	if d.InsertCount() != 1 {
		t.Fatal("not inserted")
	}
	// Each integer byte and each completed string may need a parse.
	if parses > 12 {
		t.Errorf("%d parses for one instruction of %d bytes", parses, len(ins))
	}
}
