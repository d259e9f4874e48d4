package memscan

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

// Secrets are a connection's private strings, each as sent and
// Huffman-coded: what Find looks for in a codec after Init.
var Secrets = func() [][]byte {
	var out [][]byte
	for _, s := range []string{"sessionid=7f3a9c1e5b2d", "Bearer eyJhbGciOiJIUzI1NiJ9", "/account/42/statement"} {
		out = append(out, []byte(s), wire.AppendHuffman(nil, s))
	}
	return out
}()

// SecretList returns a field section that carries every secret: as a
// literal, as an indexed field, and beside a raw Content-Length.
func SecretList() *fastpath.FieldList {
	var l fastpath.FieldList
	l.Add(":path", "/account/42/statement", 0)
	l.Add("cookie", "sessionid=7f3a9c1e5b2d", 0)
	l.Add("authorization", "Bearer eyJhbGciOiJIUzI1NiJ9", 0)
	l.Add("x-id", "sessionid=7f3a9c1e5b2d", fastpath.Index)
	l.AddContentLength(1234)
	return &l
}
