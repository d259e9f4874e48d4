package hpack

import (
	"encoding/hex"
	"encoding/json"
	"github.com/hqpack/hqpack/internal/corpustest"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hqpack/hqpack/internal/codectest"
)

type decStory struct {
	Cases []struct {
		Seqno           int                 `json:"seqno"`
		Wire            string              `json:"wire"`
		Headers         []map[string]string `json:"headers"`
		HeaderTableSize *int                `json:"header_table_size"`
	} `json:"cases"`
}

// TestDecodeCorpus decodes every story of every encoder folder of
// hpack-test-case, one decoder per story and cases in order, and checks
// each case's fields. Each case is decoded once whole and, by a second
// decoder, in random fragments.
func TestDecodeCorpus(t *testing.T) {
	root := filepath.Join(corpustest.Dir(t, "hpack-test-case"), "hpack-test-case")
	folders, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	stories, cases := 0, 0
	for _, folder := range folders {
		if !folder.IsDir() || folder.Name() == "raw-data" {
			continue
		}
		files, err := filepath.Glob(filepath.Join(root, folder.Name(), "story_*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no stories (%v)", folder.Name(), err)
		}
		for _, file := range files {
			name := folder.Name() + "/" + filepath.Base(file)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var s decStory
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var whole, frag Decoder
			var got, gotFrag codectest.Recorder
			for _, c := range s.Cases {
				if c.HeaderTableSize != nil {
					whole.SetMaxTableSize(uint32(*c.HeaderTableSize))
					frag.SetMaxTableSize(uint32(*c.HeaderTableSize))
				}
				w, err := hex.DecodeString(c.Wire)
				if err != nil {
					t.Fatalf("%s case %d: %v", name, c.Seqno, err)
				}
				var want []codectest.Field
				for _, h := range c.Headers {
					for k, v := range h {
						want = append(want, codectest.Want(k, v, false))
					}
				}
				got.Fields = got.Fields[:0]
				if err := whole.Decode(w, &got); err != nil {
					t.Fatalf("%s case %d: %v", name, c.Seqno, err)
				}
				if !slices.Equal(want, got.Fields) {
					t.Fatalf("%s case %d (-want +got):\n%s", name, c.Seqno, cmp.Diff(want, got.Fields))
				}
				gotFrag.Fields = gotFrag.Fields[:0]
				for p := w; len(p) > 0; {
					n := min(len(p), 1+r.IntN(40))
					if err := frag.Write(p[:n], &gotFrag); err != nil {
						t.Fatalf("%s case %d fragmented: %v", name, c.Seqno, err)
					}
					p = p[n:]
				}
				if err := frag.End(); err != nil {
					t.Fatalf("%s case %d fragmented: %v", name, c.Seqno, err)
				}
				if !slices.Equal(want, gotFrag.Fields) {
					t.Fatalf("%s case %d fragmented (-want +got):\n%s", name, c.Seqno, cmp.Diff(want, gotFrag.Fields))
				}
				cases++
			}
			stories++
		}
	}
	if stories < 382 { // 12 folders of 32 stories, two of them without story_31
		t.Fatalf("decoded only %d stories", stories)
	}
	t.Logf("%d stories, %d cases", stories, cases)
}
