package qpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/memscan"
)

// secrets are a connection's private strings, and their Huffman codes.
var secrets = func() [][]byte {
	var out [][]byte
	for _, s := range []string{"sessionid=7f3a9c1e5b2d", "Bearer eyJhbGciOiJIUzI1NiJ9", "/account/42/statement"} {
		out = append(out, []byte(s), hpack.AppendHuffman(nil, s))
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
// time how fast its own cookie decodes.
func TestInitForgets(t *testing.T) {
	for _, cfg := range []EncoderConfig{
		{},
		{Huffman: fastpath.HuffmanNever},
		{MaxTableCapacity: 4096, MaxBlockedStreams: 100, TableCapacity: 4096, Indexing: IndexAll},
	} {
		var e Encoder
		e.Init(cfg)
		var d Decoder
		dcfg := DecoderConfig{MaxTableCapacity: cfg.MaxTableCapacity, MaxBlockedStreams: cfg.MaxBlockedStreams}
		d.Init(dcfg)
		for i := range uint64(3) {
			sections := [][]byte{e.AppendSection(4*i, nil, secretList())}
			frame := make([]byte, 9)
			n, res := e.Begin(4*i+1, frame, secretList())
			var pieces []byte
			for ; res == MoreFields; n, res = e.Continue(frame) {
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
		if memscan.Find(&e, secrets...) == "" && memscan.Find(&d, secrets...) == "" {
			t.Fatal("the scan does not see the connection's strings")
		}
		e.Init(cfg)
		d.Init(dcfg)
		if where := memscan.Find(&e, secrets...); where != "" {
			t.Errorf("%+v: after Init the encoder holds a secret at %s", cfg, where)
		}
		if where := memscan.Find(&d, secrets...); where != "" {
			t.Errorf("%+v: after Init the decoder holds a secret at %s", cfg, where)
		}
	}
}
