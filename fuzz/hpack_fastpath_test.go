package fuzz

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
)

// FuzzHPACKFastPath is DESIGN.md's equivalence for HPACK: for arbitrary
// field lists with raw Content-Lengths, encoder settings, peer table-size
// changes and a buffer size, the fast path (raw Content-Length) and the
// string path (its decimal string) give, call by call of Begin and
// Continue, the same result, the same bytes, the same enumerator position
// and the same encoder state. The pieces also make what AppendSection
// makes, and decode to the list.
func FuzzHPACKFastPath(f *testing.F) {
	f.Add([]byte{0x00, 0x04, 0x10, 0x02, 0x00, 0x00, 0x03, 0x00})
	f.Add([]byte{0x09, 0x05, 0x01, 0x04, 0x05, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x03, 0x00, 0x00})
	f.Add([]byte{0x12, 0x06, 0x02, 0x04, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06})
	f.Add([]byte{0x0b, 0x07, 0x03, 0x00, 0x01, 0x05, 0x00, 0x06, 0x03, 0x08, 0x00, 0x04, 0x05, 0x02, 0x03, 0x09, 0x31, 0x32, 0x33})
	f.Add([]byte{0x1c, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00})
	f.Add(repeatSeed)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := script{data}
		cfg := s.byte()
		conf := hpack.Config{
			TableLimit: []int{0, hpack.NoTable, 256, 100, 64, 8192, 4096, 1000}[cfg&7],
			Huffman:    fastpath.HuffmanPolicy(cfg >> 3 % 3),
			Indexing:   fastpath.Indexing(cfg >> 5 % 3),
		}
		size := s.pick(256)
		steps := readHPACKSteps(&s)
		fast, str, whole := newHPACKEncoder(conf), newHPACKEncoder(conf), newHPACKEncoder(conf)
		var dec hpack.Decoder
		dec.Init(hpack.DecoderConfig{MaxSectionSize: 1 << 22})
		var block, ref []byte
		for i, st := range steps {
			for _, v := range st.settings {
				fast.SetMaxTableSize(v)
				str.SetMaxTableSize(v)
				whole.SetMaxTableSize(v)
				dec.SetMaxTableSize(v)
			}
			lf, ls := lists(st.fields)
			where := fmt.Sprintf("%+v, buffer %d, section %d", conf, size, i)
			block = hpackEquivalent(t, where, fast, str, lf, ls, size, block[:0])
			lw, _ := lists(st.fields)
			if ref = whole.AppendSection(ref[:0], lw); !bytes.Equal(block, ref) {
				t.Fatalf("%s: pieces % x, AppendSection % x", where, block, ref)
			}
			var got sink
			if err := dec.Decode(block, &got); err != nil || !neverByPolicy(got.got, expected(st.fields), conf.Indexing == fastpath.IndexDefault) {
				t.Fatalf("%s: % x decodes to %v, %v; want %v", where, block, got.got, err, expected(st.fields))
			}
		}
	})
}

// hpackEquivalent encodes one section on both paths, call by call, in
// buffers of size bytes (0: one large buffer), and returns the section.
func hpackEquivalent(t *testing.T, where string, fast, str *hpack.Encoder, lf, ls *fastpath.FieldList, size int, block []byte) []byte {
	if size == 0 {
		size = 1 << 16
	}
	bf, bs := make([]byte, size), make([]byte, size)
	nf, rf := fast.Begin(bf, lf)
	ns, rs := str.Begin(bs, ls)
	for call := 0; ; call++ {
		switch {
		case rf != rs || nf != ns || !bytes.Equal(bf[:nf], bs[:ns]):
			t.Fatalf("%s, call %d: fast path %v % x, string path %v % x", where, call, rf, bf[:nf], rs, bs[:ns])
		case lf.Pos() != ls.Pos():
			t.Fatalf("%s, call %d: fast path at field %d, string path at %d", where, call, lf.Pos(), ls.Pos())
		}
		if a, b := hpackState(fast), hpackState(str); !slices.Equal(a, b) {
			t.Fatalf("%s, call %d: encoder state\nfast path:   %v\nstring path: %v", where, call, a, b)
		}
		if rf != fastpath.Done && (rf != fastpath.MoreFields || nf == 0) {
			t.Fatalf("%s, call %d: %v with %d bytes written into a %d-byte buffer", where, call, rf, nf, len(bf))
		}
		block = append(block, bf[:nf]...)
		if rf == fastpath.Done {
			return block
		}
		nf, rf = fast.Continue(bf)
		ns, rs = str.Continue(bs)
	}
}

// hpackState is what an Encoder shows of its state.
func hpackState(e *hpack.Encoder) []string {
	size, c := e.TableSize()
	st := []string{fmt.Sprintf("size %d capacity %d", size, c)}
	for i := range e.TableLen() {
		n, v, _ := e.TableEntry(i)
		st = append(st, string(n)+": "+string(v))
	}
	return st
}
