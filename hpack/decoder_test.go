package hpack

import (
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/internal/codectest"
)

// TestDecodeRFC7541 decodes every example of RFC 7541 Appendix C, whole and
// one byte per Write, and checks the fields, the never-indexed flags, the
// static IDs and the dynamic table after each step.
func TestDecodeRFC7541(t *testing.T) {
	examples := loadRFC7541(t)
	for _, mode := range []string{"whole", "bytewise"} {
		var d Decoder
		for _, ex := range examples {
			if ex.FreshContext {
				d.Init(DecoderConfig{MaxTableSize: ex.Settings.HeaderTableSize, InitialTableSize: ex.Settings.HeaderTableSize})
			}
			wire, err := hex.DecodeString(ex.WireHex)
			if err != nil {
				t.Fatal(err)
			}
			var got codectest.Recorder
			if mode == "whole" {
				err = d.Decode(wire, &got)
			} else {
				for i := range wire {
					if err = d.Write(wire[i:i+1], &got); err != nil {
						break
					}
				}
				if err == nil {
					err = d.End()
				}
			}
			if err != nil {
				t.Fatalf("%s %s: %v", mode, ex.ID, err)
			}
			var want []codectest.Field // with the static IDs of their names
			for _, h := range ex.Headers {
				want = append(want, codectest.Want(h.Name, h.Value, h.NeverIndex))
			}
			if diff := cmp.Diff(want, got.Fields); diff != "" {
				t.Errorf("%s %s: fields (-want +got):\n%s", mode, ex.ID, diff)
			}
			type entry struct {
				Name, Value string
				Size        int
			}
			var wantTab, gotTab []entry
			for _, e := range ex.DynamicTableAfter {
				wantTab = append(wantTab, entry{e.Name, e.Value, e.Size})
			}
			for i := range d.TableLen() {
				n, v, _ := d.TableEntry(i)
				gotTab = append(gotTab, entry{string(n), string(v), len(n) + len(v) + 32})
			}
			if diff := cmp.Diff(wantTab, gotTab); diff != "" {
				t.Errorf("%s %s: table (-want +got):\n%s", mode, ex.ID, diff)
			}
			if size, _ := d.TableSize(); size != ex.DynamicTableSizeAfter {
				t.Errorf("%s %s: table size %d, want %d", mode, ex.ID, size, ex.DynamicTableSizeAfter)
			}
		}
	}
}
