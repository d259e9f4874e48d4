package hpack

import (
	"encoding/json"
	"fmt"
	"github.com/hqpack/hqpack/internal/corpustest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
)

// nghttp2Bytes is what nghttp2 1.52 writes for raw-data stories 00-30 at
// table size 4096: the figure to beat.
const nghttp2Bytes = 346823

type storyCase struct {
	Headers []map[string]string `json:"headers"`
}

// rawStories returns the raw-data stories, by number.
func rawStories(t testing.TB) [][]storyCase {
	dir := filepath.Join(corpustest.Dir(t, "hpack-test-case/raw-data"), "hpack-test-case", "raw-data")
	var out [][]storyCase
	for i := 0; ; i++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("story_%02d.json", i)))
		if os.IsNotExist(err) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var s struct{ Cases []storyCase }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("story_%02d: %v", i, err)
		}
		out = append(out, s.Cases)
	}
	if len(out) != 32 {
		t.Fatalf("%d raw-data stories, want 32", len(out))
	}
	return out
}

// fill sets l to the case's headers (one-key objects).
func fill(l *fastpath.FieldList, c storyCase) {
	l.Reset()
	for _, h := range c.Headers {
		for name, value := range h {
			l.Add(name, value, 0)
		}
	}
}

// TestEncoderCompression measures the default policy on raw-data stories
// 00-30 at table size 4096, one encoder per story, against nghttp2.
func TestEncoderCompression(t *testing.T) {
	stories := rawStories(t)
	total := 0
	var l fastpath.FieldList
	var buf []byte
	for _, story := range stories[:31] {
		var e Encoder
		for _, c := range story {
			fill(&l, c)
			buf = e.AppendSection(buf[:0], &l)
			total += len(buf)
		}
	}
	t.Logf("raw-data stories 00-30, table 4096, default policy: %d bytes (nghttp2: %d)", total, nghttp2Bytes)
	if total > nghttp2Bytes {
		t.Errorf("%d bytes, more than nghttp2's %d", total, nghttp2Bytes)
	}
}

// TestEncoderCorpusRoundTrip encodes every raw-data story at every table
// size and Huffman policy and decodes it with x/net's decoder and ours.
func TestEncoderCorpusRoundTrip(t *testing.T) {
	stories := rawStories(t)
	for _, size := range []int{0, 256, 4096, 16384} {
		for _, h := range []fastpath.HuffmanPolicy{fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever} {
			total := 0
			var l fastpath.FieldList
			var buf []byte
			for si, story := range stories {
				c := Config{TableLimit: size, Huffman: h}
				if size == 0 {
					c.TableLimit = NoTable
				}
				e := newEncoder(c)
				e.SetMaxTableSize(uint32(size)) // the peer's setting
				dec := xhpack.NewDecoder(DefaultTableSize, nil)
				ours := ourDecoder(DefaultTableSize)
				ours.SetMaxTableSize(uint32(size))
				for ci, sc := range story {
					fill(&l, sc)
					buf = e.AppendSection(buf[:0], &l)
					total += len(buf)
					got, err := xdecode(dec, buf, uint32(size))
					if err != nil {
						t.Fatalf("table %d, %s, story %02d case %d: %v", size, huffmanName(h), si, ci, err)
					}
					var want []xhpack.HeaderField
					for _, hd := range sc.Headers {
						for n, v := range hd {
							// The default policy's never-indexed fields.
							sensitive := n == "authorization" || n == "cookie" && len(v) < 20
							want = append(want, xhpack.HeaderField{Name: n, Value: v, Sensitive: sensitive})
						}
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("table %d, %s, story %02d case %d (-want +got):\n%s", size, huffmanName(h), si, ci, diff)
					}
					got, err = ourDecode(ours, buf)
					if err != nil {
						t.Fatalf("table %d, %s, story %02d case %d: our decoder: %v", size, huffmanName(h), si, ci, err)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("table %d, %s, story %02d case %d, our decoder (-want +got):\n%s", size, huffmanName(h), si, ci, diff)
					}
				}
			}
			t.Logf("table %5d, %-13s: %d bytes", size, huffmanName(h), total)
		}
	}
}

func huffmanName(h fastpath.HuffmanPolicy) string {
	switch h {
	case fastpath.HuffmanAuto:
		return "HuffmanAuto"
	case fastpath.HuffmanAlways:
		return "HuffmanAlways"
	case fastpath.HuffmanNever:
		return "HuffmanNever"
	}
	return "?"
}
