package hpack

import (
	"errors"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/internal/wire"
	xhpack "golang.org/x/net/http2/hpack"
)

// TestXDecoder checks the x/net-shaped adapter against x/net's Decoder,
// call by call, with the same calls.
func TestXDecoder(t *testing.T) {
	type call struct {
		name string
		do   func(d *XDecoder, x *xhpack.Decoder) (error, error)
	}
	var ours, theirs []HeaderField
	ad := NewDecoder(4096, func(f HeaderField) { ours = append(ours, f) })
	xd := xhpack.NewDecoder(4096, func(f xhpack.HeaderField) {
		theirs = append(theirs, HeaderField{f.Name, f.Value, f.Sensitive})
	})
	write := func(p []byte) func(d *XDecoder, x *xhpack.Decoder) (error, error) {
		return func(d *XDecoder, x *xhpack.Decoder) (error, error) {
			n, err := d.Write(p)
			xn, xerr := x.Write(p)
			if err == nil && xerr == nil && n != xn {
				t.Errorf("Write: %d bytes, x/net %d", n, xn)
			}
			return err, xerr
		}
	}
	closeBoth := func(d *XDecoder, x *xhpack.Decoder) (error, error) { return d.Close(), x.Close() }
	section := decLit(nil, decIncremental, 0, "custom-key", "custom-header", wire.HuffmanAlways)
	section = decLit(section, decNever, 4, "", "/secret", wire.HuffmanNever)
	section = decBytes(section, 0x82, 0xbe)
	calls := []call{
		{"first half", write(section[:7])},
		{"second half", write(section[7:])},
		{"close", closeBoth},
		{"emit off", func(d *XDecoder, x *xhpack.Decoder) (error, error) {
			d.SetEmitEnabled(false)
			x.SetEmitEnabled(false)
			if d.EmitEnabled() != x.EmitEnabled() {
				t.Error("EmitEnabled differs")
			}
			return nil, nil
		}},
		{"silent section", write(decLit(nil, decIncremental, 0, "quiet", "entry", wire.HuffmanNever))},
		{"close", closeBoth},
		{"emit on", func(d *XDecoder, x *xhpack.Decoder) (error, error) {
			d.SetEmitEnabled(true)
			x.SetEmitEnabled(true)
			return nil, nil
		}},
		{"indexed after silent", write(decBytes(0xbe, 0xbf))},
		{"close", closeBoth},
		{"table size", func(d *XDecoder, x *xhpack.Decoder) (error, error) {
			d.SetMaxDynamicTableSize(60)
			x.SetMaxDynamicTableSize(60)
			return nil, nil
		}},
		{"evicted", write(decBytes(0xbf))},
		{"truncated", write(decBytes(0x41))},
		{"close truncated", closeBoth},
	}
	for _, c := range calls {
		ours, theirs = nil, nil
		err, xerr := c.do(ad, xd)
		if (err == nil) != (xerr == nil) {
			t.Fatalf("%s: hqpack %v, x/net %v", c.name, err, xerr)
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
			break
		}
	}
}

func TestXDecoderLimits(t *testing.T) {
	// A table of 0: nothing is kept, and references fail.
	d := NewDecoder(0, nil)
	if _, err := d.DecodeFull(decLit(nil, decIncremental, 0, "a", "b", wire.HuffmanNever)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeFull(decBytes(0xbe)); !errors.Is(err, ErrInvalidIndex) {
		t.Fatalf("reference with no table: %v", err)
	}
	d = NewDecoder(4096, nil)
	d.SetMaxStringLength(8)
	long := decLit(nil, decWithout, 0, "n", strings.Repeat("v", 9), wire.HuffmanNever)
	if _, err := d.DecodeFull(long); !errors.Is(err, ErrStringTooLong) {
		t.Fatalf("long string: %v", err)
	}
	if _, err := d.Write(decBytes(0x82)); !errors.Is(err, ErrClosed) {
		t.Fatalf("after an error: %v", err)
	}
	// No section limit by default, as in x/net.
	d = NewDecoder(4096, nil)
	big := decLit(nil, decIncremental, 0, "x", strings.Repeat("v", 4000), wire.HuffmanNever)
	for range 100 {
		big = decBytes(big, 0xbe)
	}
	if hf, err := d.DecodeFull(big); err != nil || len(hf) != 101 {
		t.Fatalf("large section: %d fields, %v", len(hf), err)
	}
	// Bounds on size updates.
	d = NewDecoder(4096, nil)
	d.SetAllowedMaxDynamicTableSize(8192)
	if _, err := d.DecodeFull(decUpdate(nil, 8192)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeFull(decUpdate(nil, 8193)); !errors.Is(err, ErrSizeUpdate) {
		t.Fatalf("update above the allowed size: %v", err)
	}
	// SetEmitFunc replaces the function.
	n := 0
	d = NewDecoder(4096, nil)
	d.SetEmitFunc(func(HeaderField) { n++ })
	if _, err := d.Write(decBytes(0x82, 0x84)); err != nil || d.Close() != nil || n != 2 {
		t.Fatalf("SetEmitFunc: %d fields, %v", n, err)
	}
}
