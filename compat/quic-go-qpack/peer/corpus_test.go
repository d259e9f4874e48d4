package peer

import (
	"github.com/hqpack/hqpack/internal/corpustest"
	"path/filepath"
	"strings"
	"testing"

	ours "github.com/hqpack/hqpack/compat/quic-go-qpack"
	"github.com/hqpack/hqpack/internal/conformance"
	quicgo "github.com/quic-go/qpack"
)

// qifLists returns the header lists of every QIF file in the corpus, by
// file name.
func qifLists(tb testing.TB) map[string][]conformance.Headers {
	files, err := filepath.Glob(filepath.Join(corpustest.Dir(tb, "qifs"), "qifs", "qifs", "*.qif"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no QIF files: %v", err)
	}
	all := make(map[string][]conformance.Headers)
	for _, f := range files {
		lists, err := conformance.LoadQIF(f)
		if err != nil {
			tb.Fatal(err)
		}
		all[strings.TrimSuffix(filepath.Base(f), ".qif")] = lists
	}
	return all
}

// staticSections returns the field sections of every static-only encoded
// file of the current format (capacity 0): other encoders' bytes.
func staticSections(tb testing.TB) map[string][][]byte {
	files, err := filepath.Glob(filepath.Join(corpustest.Dir(tb, "qifs"), "qifs", "encoded", "qpack-05", "*", "*.out.0.*"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no static-only encoded files: %v", err)
	}
	all := make(map[string][][]byte)
	for _, f := range files {
		recs, err := conformance.LoadRecords(f)
		if err != nil {
			tb.Fatal(err)
		}
		var secs [][]byte
		for _, r := range recs {
			if r.Stream != 0 {
				secs = append(secs, r.Data)
			}
		}
		rel, _ := filepath.Rel(filepath.Join(corpustest.Dir(tb, "qifs"), "qifs", "encoded"), f)
		all[rel] = secs
	}
	return all
}

// fresh returns lists as both packages' HeaderFields, every string a copy
// of its own, as a server gets them from each request it parses.
func fresh(lists []conformance.Headers) ([][]ours.HeaderField, [][]quicgo.HeaderField) {
	o := make([][]ours.HeaderField, len(lists))
	q := make([][]quicgo.HeaderField, len(lists))
	for i, l := range lists {
		for _, h := range l {
			n, v := strings.Clone(h.Name), strings.Clone(h.Value)
			o[i] = append(o[i], ours.HeaderField{Name: n, Value: v})
			q[i] = append(q[i], quicgo.HeaderField{Name: n, Value: v})
		}
	}
	return o, q
}
