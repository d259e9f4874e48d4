//go:build interop && cgo

package interop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
)

// TestHPACKSplitFieldToNghttp2 sends a 40 KiB cookie through 16 KiB
// frames: hqpack's encoder splits the field across HEADERS and
// CONTINUATION payloads (RFC 9113 §4.3), and nghttp2's decoder, fed piece
// by piece, gets every field, this section's and the next one's.
func TestHPACKSplitFieldToNghttp2(t *testing.T) {
	inf, err := inflaterAt(4096)
	if err != nil {
		t.Fatal(err)
	}
	defer inf.Close()
	var enc hpack.Encoder
	cookie := strings.Repeat("k=v; ", 8<<10)
	for k, fs := range [][]Field{
		{{Name: ":status", Value: "200"}, {Name: "set-cookie", Value: cookie}, {Name: "cookie", Value: cookie[:1000]}, {Name: "x-after", Value: "1"}},
		{{Name: ":status", Value: "200"}, {Name: "x-after", Value: "1"}},
	} {
		var l fastpath.FieldList
		for _, f := range fs {
			l.Add(f.Name, f.Value, 0)
		}
		buf := make([]byte, 16<<10)
		var pieces [][]byte
		n, res := enc.Begin(buf, &l)
		for ; res == fastpath.MoreFields; n, res = enc.Continue(buf) {
			pieces = append(pieces, append([]byte(nil), buf[:n]...))
		}
		if res != fastpath.Done {
			t.Fatalf("section %d: %v", k, res)
		}
		pieces = append(pieces, append([]byte(nil), buf[:n]...))
		if k == 0 && len(pieces) < 3 {
			t.Fatalf("section %d: %d pieces", k, len(pieces))
		}
		got, err := inf.DecodePieces(pieces)
		if err != nil {
			t.Fatalf("section %d: nghttp2: %v", k, err)
		}
		for i := range got {
			got[i].NeverIndex = false // the policy may protect the short cookie
		}
		if fmt.Sprint(got) != fmt.Sprint(fs) {
			t.Fatalf("section %d: nghttp2 decoded %.200v, want %.200v", k, got, fs)
		}
	}
}
