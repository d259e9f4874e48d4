package qpack

import (
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// xDecodeAll drains an XDecoder's DecodeFunc.
func xDecodeAll(d *XDecoder, section []byte) ([][2]string, error) {
	next := d.Decode(section)
	out := [][2]string{}
	for {
		hf, err := next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, [2]string{hf.Name, hf.Value})
	}
}

// TestXDecoderLikeQuicGo: the adapter agrees with quic-go/qpack on random
// static-only sections (up to the two prefix differences documented on
// XDecoder), and one XDecoder serves every section, as quic-go's does.
func TestXDecoderLikeQuicGo(t *testing.T) {
	d := NewDecoder()
	p := decProperties(t, 1000)
	p.Property("adapter == quic-go", prop.ForAll(
		func(lines [][]byte) bool {
			section := cat(append([][]byte{{0, 0}}, lines...)...)
			ours, errOurs := xDecodeAll(d, section)
			theirs, errTheirs := quicGoDecode(section)
			if (errOurs == nil) != (errTheirs == nil) || (errOurs == nil && !cmp.Equal(ours, theirs)) {
				t.Logf("section %x: ours %v %v, quic-go %v %v", section, ours, errOurs, theirs, errTheirs)
				return false
			}
			return true
		},
		gen.SliceOf(genFieldLine()),
	))
	p.TestingRun(t)
}

func TestXDecoder(t *testing.T) {
	d := NewDecoder()
	good := cat(sectionPrefix(0, 0, 0), indexedStatic(17), literalStaticRef(1, "/", false, true), literalName("x-a", "b", true, false))
	want := [][2]string{{":method", "GET"}, {":path", "/"}, {"x-a", "b"}}
	got, err := xDecodeAll(d, good)
	if err != nil || !cmp.Equal(got, want) {
		t.Fatalf("%v %v", got, err)
	}
	// Fields before an error come first, then the error, then it repeats.
	bad := cat(sectionPrefix(0, 0, 0), indexedStatic(17), indexedStatic(99))
	next := d.Decode(bad)
	if hf, err := next(); err != nil || hf.Name != ":method" {
		t.Fatalf("%v %v", hf, err)
	}
	for i := 0; i < 2; i++ {
		if _, err := next(); !errors.Is(err, ErrInvalidIndex) {
			t.Fatalf("%v, want ErrInvalidIndex", err)
		}
	}
	// A dynamic reference is an error, and the next section decodes.
	if _, err := xDecodeAll(d, []byte{0x02, 0x00, 0x80}); !errors.Is(err, ErrRequiredInsertCount) {
		t.Fatalf("%v, want ErrRequiredInsertCount", err)
	}
	if got, err := xDecodeAll(d, good); err != nil || !cmp.Equal(got, want) {
		t.Fatalf("after an error: %v %v", got, err)
	}
	// The empty section.
	if _, err := xDecodeAll(d, nil); !errors.Is(err, ErrTruncated) {
		t.Fatalf("%v, want ErrTruncated", err)
	}
}
