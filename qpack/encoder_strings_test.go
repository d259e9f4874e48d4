package qpack

import (
	"path/filepath"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/corpustest"
)

// TestEncoderKeepsNoStrings checks that a written section leaves none of
// the caller's strings in the plan's lines (remembered or not), written
// by AppendSection, Plan and AppendPlanned, or Begin and Continue.
func TestEncoderKeepsNoStrings(t *testing.T) {
	dir := corpustest.Dir(t, "qifs")
	var fl fastpath.FieldList
	enc := new(Encoder)
	for _, s := range etSettings {
		for _, q := range etQIFNames {
			lists := etReadQIF(t, filepath.Join(dir, "qifs", "qifs", q+".qif"))
			for mode := 0; mode < 3; mode++ {
				enc.Init(s.config())
				var sec []byte
				for i, l := range lists {
					fl.Reset()
					for _, f := range l {
						fl.Add(f.Name, f.Value, f.Flags)
					}
					switch mode {
					case 0:
						sec = enc.AppendSection(uint64(i+1), sec[:0], &fl)
					case 1:
						enc.Plan(uint64(i+1), &fl)
						sec = enc.AppendPlanned(sec[:0])
					case 2:
						buf := make([]byte, 7)
						_, res := enc.Begin(uint64(i+1), buf, &fl)
						for res == fastpath.MoreFields {
							_, res = enc.Continue(buf)
						}
					}
					enc.AppendEncoderStream(nil)
					for j, f := range enc.pl.fields[:cap(enc.pl.fields)] {
						if f.name != "" || f.value != "" {
							t.Fatalf("%s mode %d list %d line %d kind %d holds %q %q", q, mode, i, j, f.kind, f.name, f.value)
						}
					}
				}
			}
		}
	}
}
