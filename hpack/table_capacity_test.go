package hpack

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/wire"
	xhpack "golang.org/x/net/http2/hpack"
)

func oneList(name, value string) *fastpath.FieldList {
	var l fastpath.FieldList
	l.Add(name, value, 0)
	return &l
}

func TestEncoderNamesAsGiven(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever, Indexing: fastpath.IndexAll, NamesAsGiven: true})
	first := e.AppendSection(nil, oneList("X-Mixed", "v"))
	// A literal name, not lowercased, inserted as given.
	if want := "40" + "07" + hex.EncodeToString([]byte("X-Mixed")) + "0176"; hex.EncodeToString(first) != want {
		t.Errorf("first: %x, want %s", first, want)
	}
	if again := e.AppendSection(nil, oneList("X-Mixed", "v")); hex.EncodeToString(again) != "be" {
		t.Errorf("again: %x, want the entry (be)", again)
	}
	// Another case is another name: no entry matches, nor the static
	// content-type.
	l := oneList("x-mixed", "v")
	l.Add("Content-Type", "text/plain", 0)
	block := e.AppendSection(nil, l)
	got, err := xhpack.NewDecoder(4096, nil).DecodeFull(append(first, block...))
	if err != nil {
		t.Fatal(err)
	}
	want := []xhpack.HeaderField{{Name: "X-Mixed", Value: "v"}, {Name: "x-mixed", Value: "v"}, {Name: "Content-Type", Value: "text/plain"}}
	if len(got) != len(want) {
		t.Fatalf("decoded %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("field %d: %v, want %v", i, got[i], want[i])
		}
	}
	if block[0] != 0x40 || block[1] != 7 {
		t.Errorf("x-mixed referred to an entry: %x", block)
	}
	// The default still lowercases.
	d := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	if b := d.AppendSection(nil, oneList("Content-Type", "text/plain")); b[0] != 0x5f {
		t.Errorf("default: %x, want content-type by its static name 31 (5f)", b)
	}
}

func TestEncoderSetTableCapacity(t *testing.T) {
	e := newEncoder(Config{Indexing: fastpath.IndexAll})
	e.AppendSection(nil, oneList("a", strings.Repeat("x", 100))) // 133 octets
	e.AppendSection(nil, oneList("b", "y"))                      // 34 more
	e.SetMaxTableSize(50)                                        // pending, then dropped
	e.SetTableCapacity(100)
	if size, capacity := e.TableSize(); size != 34 || capacity != 100 || e.maxTableSize() != 100 {
		t.Fatalf("after SetTableCapacity(100): size %d, capacity %d, MaxTableSize %d", size, capacity, e.maxTableSize())
	}
	// No size update: the caller writes its own.
	if b := e.AppendSection(nil, oneList("b", "y")); hex.EncodeToString(b) != "be" {
		t.Errorf("next section %x, want be alone", b)
	}
	// Later settings start from the new capacity.
	e.SetMaxTableSize(4096)
	if e.maxTableSize() != 100 {
		t.Errorf("SetMaxTableSize above the limit SetTableCapacity set: %d", e.maxTableSize())
	}
}

func TestDecoderSetTableCapacity(t *testing.T) {
	var d Decoder
	entry := decLit(nil, decIncremental, 0, "a", strings.Repeat("x", 100), wire.HuffmanNever)
	if err := d.Decode(decBytes(entry, decLit(nil, decIncremental, 0, "b", "y", wire.HuffmanNever)), codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	d.SetTableCapacity(100)
	if size, capacity := d.TableSize(); size != 34 || capacity != 100 {
		t.Fatalf("after SetTableCapacity(100): size %d, capacity %d", size, capacity)
	}
	// Our setting lowered below the table: the peer owes an update, and a
	// capacity set directly settles it.
	d.SetMaxTableSize(50)
	d.SetTableCapacity(40)
	if err := d.Decode(decBytes(0xbe), codectest.Discard{}); err != nil {
		t.Fatalf("after SetTableCapacity settled the update: %v", err)
	}
	// Above our setting: set directly, not checked.
	d.SetTableCapacity(8192)
	big := decLit(nil, decIncremental, 0, "c", strings.Repeat("z", 5000), wire.HuffmanNever)
	if err := d.Decode(big, codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	if size, _ := d.TableSize(); size != 34+5033 {
		t.Errorf("size %d after a 5033-octet entry joined b (34) in a table of 8192", size)
	}
}

func TestDecoderSetMaxStringLength(t *testing.T) {
	var d Decoder
	long := decLit(nil, decWithout, 0, "n", strings.Repeat("v", 9), wire.HuffmanNever)
	if err := d.Decode(long, codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	d.SetMaxStringLength(9)
	if err := d.Decode(long, codectest.Discard{}); err != nil {
		t.Fatalf("9 bytes with a bound of 9: %v", err)
	}
	// Between two fragments of a section.
	if err := d.Write(long[:4], codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	d.SetMaxStringLength(8)
	err := d.Write(long[4:], codectest.Discard{})
	if !errors.Is(err, fastpath.ErrStringTooLong) {
		t.Fatalf("9 bytes with a bound of 8 set mid-section: %v", err)
	}
	// 0 is the default again: the section size.
	var e Decoder
	e.SetMaxStringLength(8)
	e.SetMaxStringLength(0)
	if err := e.Decode(long, codectest.Discard{}); err != nil {
		t.Fatalf("after SetMaxStringLength(0): %v", err)
	}
}

func TestIndexError(t *testing.T) {
	cases := []struct {
		block []byte
		index uint64
	}{
		{decBytes(0x80), 0},
		{decBytes(0xbe), 62},
		{decLit(nil, decWithout, 70, "", "v", wire.HuffmanNever), 70},
		{decIndexed(nil, 1<<40), 1 << 40},
	}
	for _, c := range cases {
		var d Decoder
		err := d.Decode(c.block, codectest.Discard{})
		var ie *IndexError
		if !errors.As(err, &ie) || ie.Index != c.index || !errors.Is(err, fastpath.ErrInvalidIndex) {
			t.Errorf("%x: %v, want an IndexError for %d", c.block, err, c.index)
			continue
		}
		if want := fmt.Sprintf("invalid index %d", c.index); ie.Error() != want || !strings.Contains(err.Error(), want) {
			t.Errorf("%x: message %q", c.block, err)
		}
	}
}

// A literal whose name index names no entry fails as soon as the index is
// read, also when a fragment ended inside the index: the same error as
// whole, not a truncation when the section ends.
func TestIndexErrorCut(t *testing.T) {
	block := decLit(nil, decWithout, 70, "", "value", wire.HuffmanNever)
	var d Decoder
	if err := d.Write(block[:1], codectest.Discard{}); err != nil {
		t.Fatal(err)
	}
	err := d.Write(block[1:3], codectest.Discard{})
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Index != 70 {
		t.Fatalf("index completed by the second fragment: %v, want an IndexError for 70", err)
	}
}
