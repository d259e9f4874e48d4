package hpack

import (
	"encoding/hex"
	"errors"
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// FuzzDecoder decodes arbitrary input as a few sections, whole and cut into
// fragments, under small limits with validation on: no panic, the same
// accept/reject and fields either way, the fragment buffer within its
// bound, and after a connection error only fastpath.ErrClosed.
func FuzzDecoder(f *testing.F) {
	for _, ex := range loadRFC7541(f) {
		w, _ := hex.DecodeString(ex.WireHex)
		f.Add(w, uint8(3), uint16(ex.Settings.HeaderTableSize))
	}
	f.Add(decBytes(0x20, 0x3f, 0xe1, 0x1f, 0x82), uint8(1), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8, table uint16) {
		cfg := DecoderConfig{
			MaxTableSize:    int(table % 5000),
			MaxSectionSize:  2000,
			MaxStringLength: 300,
			MaxFields:       40,
			Validate:        cut&0x80 != 0,
		}
		if cfg.MaxTableSize == 0 {
			cfg.MaxTableSize = NoTable
		}
		cfg.InitialTableSize = cfg.MaxTableSize
		var whole, frag Decoder
		whole.Init(cfg)
		frag.Init(cfg)
		step := 1 + int(cut&0x3f)
		// Sections end at each 0xff 0xff pair, an arbitrary cut.
		for i, section := range decSplitSections(data) {
			if i == 2 {
				whole.SetMaxTableSize(uint32(table) / 2)
				frag.SetMaxTableSize(uint32(table) / 2)
			}
			var got, gotFrag codectest.Recorder
			err := whole.Decode(section, &got)
			var ferr error
			for p := section; len(p) > 0 && ferr == nil; p = p[min(step, len(p)):] {
				ferr = frag.Write(p[:min(step, len(p))], &gotFrag)
				if len(frag.buf) > 2*(cfg.MaxStringLength+16)+1 {
					t.Fatalf("fragment buffer %d bytes", len(frag.buf))
				}
			}
			if ferr == nil {
				ferr = frag.End()
			}
			if (err == nil) != (ferr == nil) || !slices.Equal(got.Fields, gotFrag.Fields) {
				t.Fatalf("section %d: whole %v, fragmented %v\n%v\n%v", i, err, ferr, got.Fields, gotFrag.Fields)
			}
			// A connection error closes the decoder; a malformed field
			// (validation) ends only the section.
			var e *Error
			if errors.As(err, &e) && e.ConnectionError() {
				if later := whole.End(); !errors.Is(later, fastpath.ErrClosed) {
					t.Fatalf("after %v: %v", err, later)
				}
				return
			}
		}
	})
}

func decSplitSections(data []byte) [][]byte {
	var out [][]byte
	for {
		i := 0
		for i+1 < len(data) && !(data[i] == 0xff && data[i+1] == 0xff) {
			i++
		}
		if i+1 >= len(data) {
			return append(out, data)
		}
		out = append(out, data[:i])
		data = data[i+2:]
	}
}
