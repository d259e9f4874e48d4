package qpack

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/corpustest"
)

// TestWireGolden pins the encoder's wire output: the sections and encoder
// stream it writes for the six QIFs, at every corpus setting, under every
// Huffman and indexing policy, driven four ways (AppendSection, Plan and
// AppendPlanned, Begin and Continue through a 7-byte buffer, and with acks
// read back from a decoder stream). A speed or memory change must leave
// every line as it is; a change meant to alter the output rewrites the file
// (-update-golden, codectest.Golden) and says why in its commit.
func TestWireGolden(t *testing.T) {
	dir := corpustest.Dir(t, "qifs")
	var all [][][]etField
	for _, q := range etQIFNames {
		all = append(all, etReadQIF(t, filepath.Join(dir, "qifs", "qifs", q+".qif")))
	}
	var got []string
	enc := new(Encoder) // reused across connections: Init must reset it all
	var fl fastpath.FieldList
	for _, s := range etSettings {
		for _, hp := range []fastpath.HuffmanPolicy{fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever} {
			for _, ix := range []fastpath.Indexing{fastpath.IndexDefault, fastpath.IndexAll} {
				for mode := 0; mode < 4; mode++ {
					h := sha256.New()
					n := 0
					for _, lists := range all {
						cfg := s.config()
						cfg.Huffman, cfg.Indexing = hp, ix
						var dec *Decoder
						if mode == 3 {
							cfg.AckMode = AckDecoderStream
							dec = new(Decoder)
							dec.Init(DecoderConfig{MaxTableCapacity: uint64(s.capacity), MaxBlockedStreams: uint64(s.blocked)})
						}
						enc.Init(cfg)
						var sec []byte
						for i, l := range lists {
							id := uint64(i + 1)
							switch mode {
							case 0:
								sec = enc.AppendSection(id, sec[:0], newEtFields(l))
							case 1, 3:
								fl.Reset()
								for _, f := range l {
									fl.Add(f.Name, f.Value, f.Flags)
								}
								if mode == 1 {
									want := enc.Plan(id, &fl)
									sec = enc.AppendPlanned(sec[:0])
									if want != len(sec) {
										t.Fatalf("Plan said %d bytes, AppendPlanned wrote %d", want, len(sec))
									}
								} else {
									sec = enc.AppendSection(id, sec[:0], &fl)
								}
							case 2:
								sec = sec[:0]
								buf := make([]byte, 7)
								k, res := enc.Begin(id, buf, newEtFields(l))
								sec = append(sec, buf[:k]...)
								for res == fastpath.MoreFields {
									k, res = enc.Continue(buf)
									sec = append(sec, buf[:k]...)
								}
								if res != fastpath.Done {
									t.Fatalf("Begin/Continue ended with %v", res)
								}
							}
							es := enc.AppendEncoderStream(nil)
							h.Write(es)
							h.Write([]byte{0xff})
							h.Write(sec)
							h.Write([]byte{0xfe})
							n += len(es) + len(sec)
							if dec != nil {
								if err := dec.ReadEncoderStream(es); err != nil {
									t.Fatal(err)
								}
								if _, err := dec.DecodeSection(id, sec, codectest.Discard{}); err != nil {
									t.Fatal(err)
								}
								if err := enc.ReadDecoderStream(dec.AppendDecoderStream(nil)); err != nil {
									t.Fatal(err)
								}
							}
						}
					}
					got = append(got, fmt.Sprintf("%d.%d.%d huffman=%d indexing=%d mode=%d bytes=%d sha256=%x",
						s.capacity, s.blocked, s.ack, hp, ix, mode, n, h.Sum(nil)[:12]))
				}
			}
		}
	}
	codectest.Golden(t, filepath.Join("testdata", "wire-golden.txt"), got)
}
