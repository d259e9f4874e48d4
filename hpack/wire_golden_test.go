package hpack

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// enumOnly hides a *FieldList's type, so the encoder takes its generic
// Enumerator path.
type enumOnly struct{ fastpath.Enumerator }

// TestWireGolden pins the encoder's wire output: the header blocks it
// writes for the 32 raw-data stories under nine configurations, through
// Begin and Continue at three frame sizes (blocks split at every size the
// fields make), from a FieldList and from a bare Enumerator, with some
// fields never-indexed or not indexed, and with table size changes between
// sections. A speed or memory change must leave every line as it is; a
// change meant to alter the output rewrites the file (-update-golden,
// codectest.Golden) and says why in its commit.
func TestWireGolden(t *testing.T) {
	stories := rawStories(t)
	cfgs := []Config{
		{}, {Huffman: fastpath.HuffmanAlways}, {Huffman: fastpath.HuffmanNever},
		{TableLimit: 256}, {TableLimit: NoTable}, {Indexing: fastpath.IndexAll},
		{Indexing: fastpath.IndexNone}, {NamesAsGiven: true}, {TableLimit: 1000, InitialTableSize: 2000},
	}
	var got []string
	var e Encoder // reused: Init must reset it all
	var fl fastpath.FieldList
	for ci, cfg := range cfgs {
		for _, frame := range []int{16 << 10, 64, 5} {
			h := sha256.New()
			n := 0
			buf := make([]byte, frame)
			for _, story := range stories {
				e.Init(cfg)
				for i, c := range story {
					if ci%2 == 1 && i%7 == 3 {
						e.SetMaxTableSize(uint32(512 * (i % 9)))
					}
					fl.Reset()
					k := 0
					for _, hf := range c.Headers {
						for name, value := range hf {
							var flags fastpath.Flags
							switch k++; k % 11 {
							case 4:
								flags = fastpath.NeverIndex
							case 9:
								flags = fastpath.NoIndex
							}
							fl.Add(name, value, flags)
						}
					}
					var en fastpath.Enumerator = &fl
					if i%3 == 2 {
						en = enumOnly{&fl}
					}
					w, res := e.Begin(buf, en)
					h.Write(buf[:w])
					n += w
					for res == fastpath.MoreFields {
						w, res = e.Continue(buf)
						h.Write(buf[:w])
						n += w
					}
					if res != fastpath.Done {
						t.Fatalf("story case %d: Begin/Continue ended with %v", i, res)
					}
					h.Write([]byte{0xff})
				}
			}
			got = append(got, fmt.Sprintf("config=%d frame=%d bytes=%d sha256=%x", ci, frame, n, h.Sum(nil)[:12]))
		}
	}
	codectest.Golden(t, filepath.Join("testdata", "wire-golden.txt"), got)
}
