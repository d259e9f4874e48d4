//go:build interop && cgo

package interop

import (
	"fmt"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/conformance"
)

// hpackSizes are the SETTINGS_HEADER_TABLE_SIZE values both ends agree on
// at the start of a connection.
var hpackSizes = []int{0, 256, 4096, 16384}

// settingAt returns the SETTINGS_HEADER_TABLE_SIZE in force at case i of
// n on a connection that started with size: a third of the way in it drops
// to a third, two thirds in it goes back, so both ends pass through a
// lowered setting (which the next block must start by signalling) and a
// raised one.
func settingAt(size, i, n int) (setting int, changed bool) {
	switch {
	case size == 0:
		return 0, false
	case i == n/3:
		return size / 3, true
	case i == 2*n/3:
		return size, true
	}
	return 0, false
}

// hqpackTableSize turns a size into the hpack configs' convention.
func hqpackTableSize(n int) int {
	if n == 0 {
		return hpack.NoTable
	}
	return n
}

// TestHPACKToNghttp2 encodes every raw-data story with hqpack's encoder at
// every table size and Huffman policy, the setting changing twice on the
// way, and decodes it with nghttp2's decoder: the same fields, and the
// never-indexed bit on every field sent that way.
func TestHPACKToNghttp2(t *testing.T) {
	ss := stories(t, 0, 32)
	for _, size := range hpackSizes {
		for h, name := range map[fastpath.HuffmanPolicy]string{fastpath.HuffmanAuto: "auto", fastpath.HuffmanAlways: "always", fastpath.HuffmanNever: "never"} {
			t.Run(fmt.Sprintf("size=%d/huffman=%s", size, name), func(t *testing.T) {
				for k, s := range ss {
					if err := hqpackToNghttp2(s, size, h); err != nil {
						t.Fatalf("story_%02d: %v", k, err)
					}
				}
			})
		}
	}
}

func hqpackToNghttp2(s *conformance.Story, size int, h fastpath.HuffmanPolicy) error {
	enc := newHPACKEncoder(hpack.Config{TableLimit: hqpackTableSize(size), Huffman: h})
	enc.SetMaxTableSize(uint32(size))
	inf, err := inflaterAt(size)
	if err != nil {
		return err
	}
	defer inf.Close()
	var l fastpath.FieldList
	for i := range s.Cases {
		hs := s.Cases[i].Headers
		if n, ok := settingAt(size, i, len(s.Cases)); ok {
			enc.SetMaxTableSize(uint32(n))
			if err := inf.SetMaxTableSize(n); err != nil {
				return err
			}
		}
		fill(&l, i, hs)
		got, err := inf.Decode(enc.AppendSection(nil, &l))
		if err != nil {
			return fmt.Errorf("case %d: %w", i, err)
		}
		if err := checkList(i, hs, got, true); err != nil {
			return err
		}
	}
	return nil
}

// TestNghttp2ToHPACK encodes every raw-data story with nghttp2's encoder
// at every table size, the setting changing twice on the way, and decodes
// it with hqpack's decoder.
func TestNghttp2ToHPACK(t *testing.T) {
	ss := stories(t, 0, 32)
	for _, size := range hpackSizes {
		t.Run(fmt.Sprintf("size=%d", size), func(t *testing.T) {
			for k, s := range ss {
				if _, err := nghttp2ToHPACK(s, size); err != nil {
					t.Fatalf("story_%02d: %v", k, err)
				}
			}
		})
	}
}

// nghttp2ToHPACK returns the bytes nghttp2 wrote.
func nghttp2ToHPACK(s *conformance.Story, size int) (int, error) {
	def, err := NewHPACKDeflater(size)
	if err != nil {
		return 0, err
	}
	defer def.Close()
	if err := def.SetMaxTableSize(size); err != nil {
		return 0, err
	}
	var dec hpack.Decoder
	dec.Init(hpack.DecoderConfig{MaxTableSize: hqpackTableSize(size)})
	var sink fastpath.SinkList
	total := 0
	for i := range s.Cases {
		hs := s.Cases[i].Headers
		if n, ok := settingAt(size, i, len(s.Cases)); ok {
			if err := def.SetMaxTableSize(n); err != nil {
				return 0, err
			}
			dec.SetMaxTableSize(uint32(n))
		}
		block, err := def.Encode(fields(i, hs))
		if err != nil {
			return 0, fmt.Errorf("case %d: %w", i, err)
		}
		total += len(block)
		sink.Reset()
		if err := dec.Decode(block, &sink); err != nil {
			return 0, fmt.Errorf("case %d: %w", i, err)
		}
		if err := checkList(i, hs, sinkFields(&sink), true); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// TestHPACKCompressionBesideNghttp2 encodes raw-data stories 00-30 and
// 00-31 at table size 4096 with both encoders' defaults (no never-indexed
// requests) and requires hqpack to write no more bytes than nghttp2.
func TestHPACKCompressionBesideNghttp2(t *testing.T) {
	ss := stories(t, 0, 32)
	var ours, theirs [32]int
	for k, s := range ss {
		enc := newHPACKEncoder(hpack.Config{})
		var l fastpath.FieldList
		def, err := NewHPACKDeflater(4096)
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Cases {
			hs := s.Cases[i].Headers
			l.Reset()
			fs := make([]Field, len(hs))
			for j, h := range hs {
				l.Add(h.Name, h.Value, 0)
				fs[j] = Field{Name: h.Name, Value: h.Value}
			}
			ours[k] += len(enc.AppendSection(nil, &l))
			b, err := def.Encode(fs)
			if err != nil {
				t.Fatal(err)
			}
			theirs[k] += len(b)
		}
		def.Close()
	}
	for _, n := range []int{31, 32} {
		o, th := 0, 0
		for k := range n {
			o += ours[k]
			th += theirs[k]
		}
		t.Logf("stories 00-%02d at 4096: hqpack %d bytes, nghttp2 (libnghttp2 %s) %d (%+d)", n-1, o, Nghttp2Version(), th, o-th)
		if o > th {
			t.Errorf("stories 00-%02d: hqpack wrote %d bytes, more than nghttp2's %d", n-1, o, th)
		}
	}
}

// newHPACKEncoder returns an hpack.Encoder initialized with c.
func newHPACKEncoder(c hpack.Config) *hpack.Encoder {
	e := new(hpack.Encoder)
	e.Init(c)
	return e
}
