package qpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/memscan"
)

// Nothing of a connection survives Init: not in a table, a cache or a
// buffer's spare capacity. A server that pools encoders and decoders must
// not keep one client's cookies in the next client's, nor let that client
// time how fast its own cookie decodes.
func TestInitForgets(t *testing.T) {
	for _, cfg := range []EncoderConfig{
		{},
		{Huffman: fastpath.HuffmanNever},
		{MaxTableCapacity: 4096, MaxBlockedStreams: 100, TableCapacity: 4096, Indexing: fastpath.IndexAll},
	} {
		var e Encoder
		e.Init(cfg)
		var d Decoder
		dcfg := DecoderConfig{MaxTableCapacity: cfg.MaxTableCapacity, MaxBlockedStreams: cfg.MaxBlockedStreams}
		d.Init(dcfg)
		for i := range uint64(3) {
			sections := [][]byte{e.AppendSection(4*i, nil, memscan.SecretList())}
			frame := make([]byte, 9)
			n, res := e.Begin(4*i+1, frame, memscan.SecretList())
			var pieces []byte
			for ; res == fastpath.MoreFields; n, res = e.Continue(frame) {
				pieces = append(pieces, frame[:n]...)
			}
			sections = append(sections, append(pieces, frame[:n]...))
			if err := d.ReadEncoderStream(e.AppendEncoderStream(nil)); err != nil {
				t.Fatal(err)
			}
			for k, sec := range sections {
				var got fastpath.SinkList
				if _, err := d.DecodeSection(4*i+uint64(k), sec, &got); err != nil {
					t.Fatal(err)
				}
			}
			if err := e.ReadDecoderStream(d.AppendDecoderStream(nil)); err != nil {
				t.Fatal(err)
			}
		}
		// Each side holds some before Init, or the scan would show nothing;
		// static-only, the decoder keeps them in its memo of Huffman strings
		// (in the table with one), and without Huffman codes not at all.
		keeps := cfg.TableCapacity > 0 || cfg.Huffman != fastpath.HuffmanNever
		if memscan.Find(&e, memscan.Secrets...) == "" || keeps && memscan.Find(&d, memscan.Secrets...) == "" {
			t.Fatalf("%+v: the scan does not see the connection's strings", cfg)
		}
		if cfg.TableCapacity == 0 && cfg.Huffman != fastpath.HuffmanNever && (d.memo == nil || memscan.Find(d.memo, memscan.Secrets...) == "") {
			t.Fatalf("%+v: the decoder's memo holds no string", cfg)
		}
		e.Init(cfg)
		d.Init(dcfg)
		if where := memscan.Find(&e, memscan.Secrets...); where != "" {
			t.Errorf("%+v: after Init the encoder holds a secret at %s", cfg, where)
		}
		if where := memscan.Find(&d, memscan.Secrets...); where != "" {
			t.Errorf("%+v: after Init the decoder holds a secret at %s", cfg, where)
		}
	}
}
