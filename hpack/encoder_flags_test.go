package hpack

import (
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
)

// Our decoder's flags go back into our encoder unchanged: never indexed
// stays never indexed, whatever the policy.
func TestEncoderReencodeOurFlags(t *testing.T) {
	var l fastpath.FieldList
	l.Add("password", "secret", fastpath.NeverIndex)
	l.Add("x-public", "data", 0)
	block := newEncoder(Config{}).AppendSection(nil, &l)
	var d Decoder
	var got fastpath.SinkList
	if err := d.Decode(block, &got); err != nil {
		t.Fatal(err)
	}
	var again fastpath.FieldList
	for i := range got.Len() {
		n, v, f := got.At(i)
		again.Add(string(n), string(v), f)
	}
	block = newEncoder(Config{Indexing: fastpath.IndexAll}).AppendSection(nil, &again)
	fields, err := xhpack.NewDecoder(4096, nil).DecodeFull(block)
	if err != nil {
		t.Fatal(err)
	}
	if !fields[0].Sensitive || fields[1].Sensitive {
		t.Errorf("after re-encoding: %v", fields)
	}
}
