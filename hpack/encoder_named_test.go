package hpack

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// A static name inserted on request (fastpath.Index) is found again as an
// exact match, by value, however its strings are made.
func TestNamedFindsInserted(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add(":path", "/a", fastpath.Index)
	first := hex.EncodeToString(e.AppendSection(nil, &l))
	l.Reset()
	l.Add(strings.Clone(":path"), strings.Clone("/a"), 0)
	second := hex.EncodeToString(e.AppendSection(nil, &l))
	// Literal with incremental indexing, name index 4; then index 62.
	if first != "4402"+hex.EncodeToString([]byte("/a")) || second != "be" {
		t.Errorf("got %s then %s; want 44022f61 then be", first, second)
	}
}
