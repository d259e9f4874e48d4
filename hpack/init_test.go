package hpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/memscan"
)

// secrets are a connection's private strings, and their Huffman codes.
var secrets = func() [][]byte {
	var out [][]byte
	for _, s := range []string{"sessionid=7f3a9c1e5b2d", "Bearer eyJhbGciOiJIUzI1NiJ9", "/account/42/statement"} {
		out = append(out, []byte(s), AppendHuffman(nil, s))
	}
	return out
}()

func secretList() *fastpath.FieldList {
	var l fastpath.FieldList
	l.Add(":path", "/account/42/statement", 0)
	l.Add("cookie", "sessionid=7f3a9c1e5b2d", 0)
	l.Add("authorization", "Bearer eyJhbGciOiJIUzI1NiJ9", 0)
	l.Add("x-id", "sessionid=7f3a9c1e5b2d", fastpath.Index)
	l.AddContentLength(1234)
	return &l
}

// Nothing of a connection survives Init: not in a table, a cache or a
// buffer's spare capacity. A server that pools encoders and decoders must
// not keep one client's cookies in the next client's, nor let that client
// time how fast its own cookie encodes.
func TestInitForgets(t *testing.T) {
	for _, cfg := range []Config{{}, {Huffman: fastpath.HuffmanNever}, {Indexing: IndexAll}} {
		var e Encoder
		e.Init(cfg)
		var d Decoder
		for range 3 {
			var got fastpath.SinkList
			if err := d.Decode(e.AppendSection(nil, secretList()), &got); err != nil {
				t.Fatal(err)
			}
			frame := make([]byte, 9)
			n, res := e.Begin(frame, secretList())
			for ; res == MoreFields; n, res = e.Continue(frame) {
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
		if memscan.Find(&e, secrets...) == "" && memscan.Find(&d, secrets...) == "" {
			t.Fatal("the scan does not see the connection's strings")
		}
		e.Init(Config{})
		d.Init(DecoderConfig{})
		if where := memscan.Find(&e, secrets...); where != "" {
			t.Errorf("%+v: after Init the encoder holds a secret at %s", cfg, where)
		}
		if where := memscan.Find(&d, secrets...); where != "" {
			t.Errorf("%+v: after Init the decoder holds a secret at %s", cfg, where)
		}
	}
}
