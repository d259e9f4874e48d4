//go:build interop && cgo

package interop

import (
	"fmt"
	"github.com/hqpack/hqpack/internal/corpustest"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/conformance"
)

// stories loads raw-data stories first to last-1.
func stories(t *testing.T, first, last int) []*conformance.Story {
	t.Helper()
	dir := corpustest.Dir(t, "qifs")
	var ss []*conformance.Story
	for i := first; i < last; i++ {
		s, err := conformance.LoadStory(filepath.Join(dir, "hpack-test-case", "raw-data", fmt.Sprintf("story_%02d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	return ss
}

// qifFiles are the QIFs the QIFS encoders were run on.
var qifFiles = []string{"fb-req-hq", "fb-req", "fb-resp-hq", "fb-resp", "netbsd-hq", "netbsd"}

// qifs loads qifFiles.
func qifs(t *testing.T) map[string][]conformance.Headers {
	t.Helper()
	dir := corpustest.Dir(t, "qifs")
	m := map[string][]conformance.Headers{}
	for _, name := range qifFiles {
		lists, err := conformance.LoadQIF(filepath.Join(dir, "qifs", "qifs", name+".qif"))
		if err != nil {
			t.Fatal(err)
		}
		m[name] = lists
	}
	return m
}

// flagged reports whether the tests send the j-th field of list i as
// never-indexed on request (beside what the encoders' policies add): a
// spread of names, values and positions.
func flagged(i, j int) bool { return (i*7+j*3)%11 == 0 }

// peerNever is the policy hqpack, nghttp2 and nghttp3 share: authorization
// and cookies shorter than 20 bytes go never-indexed.
func peerNever(h conformance.Header) bool {
	return h.Name == "authorization" || h.Name == "cookie" && len(h.Value) < 20
}

// fields returns list i as Fields, with the never-indexed requests of
// flagged.
func fields(i int, hs conformance.Headers) []Field {
	fs := make([]Field, len(hs))
	for j, h := range hs {
		fs[j] = Field{h.Name, h.Value, flagged(i, j)}
	}
	return fs
}

// fill puts list i into l for hqpack's encoders: flagged fields
// NeverIndex, a content-length of plain digits through the raw
// Content-Length fast path.
func fill(l *fastpath.FieldList, i int, hs conformance.Headers) {
	l.Reset()
	for j, h := range hs {
		var f fastpath.Flags
		if flagged(i, j) {
			f = fastpath.NeverIndex
		}
		if n, ok := rawLength(h); ok && f == 0 {
			l.AddContentLength(n)
			continue
		}
		l.Add(h.Name, h.Value, f)
	}
}

// rawLength returns the number of a content-length whose value is its
// canonical decimal form.
func rawLength(h conformance.Header) (int64, bool) {
	if h.Name != "content-length" {
		return 0, false
	}
	n, err := strconv.ParseInt(h.Value, 10, 64)
	return n, err == nil && n >= 0 && strconv.FormatInt(n, 10) == h.Value
}

// sinkFields copies what a SinkList received.
func sinkFields(s *fastpath.SinkList) []Field {
	fs := make([]Field, s.Len())
	for i := range fs {
		name, value, f := s.At(i)
		fs[i] = Field{string(name), string(value), f&fastpath.NeverIndex != 0}
	}
	return fs
}

// sameFields compares two decodings of one section.
func sameFields(got, want []Field) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d fields, want %d", len(got), len(want))
	}
	for j := range want {
		if got[j] != want[j] {
			return fmt.Errorf("field %d: %+v, want %+v", j, got[j], want[j])
		}
	}
	return nil
}

// checkList compares a decoded list with list i as sent: names and
// values exactly, and the never-indexed bit. The flagged fields must carry
// it; with strict, the others must carry it exactly where the policy that
// hqpack and nghttp2 share puts it (nghttp3's policy differs: its output
// is compared with its own decoder's instead).
func checkList(i int, want conformance.Headers, got []Field, strict bool) error {
	if len(got) != len(want) {
		return fmt.Errorf("list %d: %d fields, want %d", i, len(got), len(want))
	}
	for j, h := range want {
		g := got[j]
		if g.Name != h.Name || g.Value != h.Value {
			return fmt.Errorf("list %d field %d: %q: %q, want %q: %q", i, j, g.Name, g.Value, h.Name, h.Value)
		}
		never := flagged(i, j)
		if strict {
			never = never || peerNever(h)
		}
		if never && !g.NeverIndex || strict && g.NeverIndex != never {
			return fmt.Errorf("list %d field %d (%s): never-indexed %v, want %v", i, j, h.Name, g.NeverIndex, never)
		}
	}
	return nil
}

// inflaterAt returns an nghttp2 inflater whose table size setting is size.
func inflaterAt(size int) (*HPACKInflater, error) {
	inf, err := NewHPACKInflater()
	if err != nil {
		return nil, err
	}
	if err := inf.SetMaxTableSize(size); err != nil {
		inf.Close()
		return nil, err
	}
	return inf, nil
}
