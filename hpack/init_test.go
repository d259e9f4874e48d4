package hpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/memscan"
)

// Nothing of a connection survives Init: not in a table, a cache or a
// buffer's spare capacity. A server that pools encoders and decoders must
// not keep one client's cookies in the next client's, nor let that client
// time how fast its own cookie encodes.
func TestInitForgets(t *testing.T) {
	for _, cfg := range []Config{{}, {Huffman: fastpath.HuffmanNever}, {Indexing: fastpath.IndexAll}} {
		var e Encoder
		e.Init(cfg)
		var d Decoder
		for range 3 {
			var got fastpath.SinkList
			if err := d.Decode(e.AppendSection(nil, memscan.SecretList()), &got); err != nil {
				t.Fatal(err)
			}
			frame := make([]byte, 9)
			n, res := e.Begin(frame, memscan.SecretList())
			for ; res == fastpath.MoreFields; n, res = e.Continue(frame) {
				if err := d.Write(frame[:n], &got); err != nil {
					t.Fatal(err)
				}
			}
			if err := d.Write(frame[:n], &got); err != nil {
				t.Fatal(err)
			}
			if err := d.End(); err != nil {
				t.Fatal(err)
			}
		}
		// Each side holds some before Init, or the scan would show nothing.
		if memscan.Find(&e, memscan.Secrets...) == "" || memscan.Find(&d, memscan.Secrets...) == "" {
			t.Fatalf("%+v: the scan does not see the connection's strings on both sides", cfg)
		}
		e.Init(Config{})
		d.Init(DecoderConfig{})
		if where := memscan.Find(&e, memscan.Secrets...); where != "" {
			t.Errorf("%+v: after Init the encoder holds a secret at %s", cfg, where)
		}
		if where := memscan.Find(&d, memscan.Secrets...); where != "" {
			t.Errorf("%+v: after Init the decoder holds a secret at %s", cfg, where)
		}
	}
}
