package conformance

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/hqpack/hqpack/hpack"
)

//go:generate go run ./internal/genvectors testdata/vectors

// The module's own vectors: hand-written header lists (testdata/vectors/
// *.qif) and what our encoders made of them, checked in, so that a change
// in encoder output is seen. `go generate ./internal/conformance` regenerates them,
// deliberately.
//
//go:embed testdata/vectors
var vectorFiles embed.FS

//go:embed testdata/rfc-examples.json
var rfcExamplesJSON []byte

// Vectors returns the module's vector folder: the header lists
// (<list>.qif), hpack/<list>.<table size>.json (hpack-test-case stories)
// and qpack/<list>.out.<capacity>.<blocked>.<ack> (QIFS encoded files).
func Vectors() fs.FS {
	sub, err := fs.Sub(vectorFiles, "testdata/vectors")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// EmbeddedRFCExamples returns the copy of rfc-examples.json the module
// embeds.
func EmbeddedRFCExamples() (*RFCExamples, error) {
	ex, err := ReadRFCExamples(rfcExamplesJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded rfc-examples.json: %w", err)
	}
	return ex, nil
}

// vectorLists are the header lists the vectors encode.
var vectorLists = []string{"requests", "responses"}

// vectorTableSizes are the HPACK vectors' SETTINGS_HEADER_TABLE_SIZE.
var vectorTableSizes = []int{0, 256, 4096, 16384}

func hpackVectorName(list string, size int) string {
	return fmt.Sprintf("hpack/%s.%d.json", list, size)
}

func qpackVectorName(list string, set QPACKSetting) string {
	return fmt.Sprintf("qpack/%s.out.%s", list, set)
}

// vectorStory is list encoded at table size size, as a story: the size is
// acknowledged before the first case.
func vectorStory(list string, lists []Headers, size int) *Story {
	st := &Story{
		Description: fmt.Sprintf("hqpack vectors: %s.qif through hqpack's HPACK encoder (default policy) at SETTINGS_HEADER_TABLE_SIZE %d. Regenerate with go generate ./internal/conformance.", list, size),
		Context:     map[string]string{"requests": "request", "responses": "response"}[list],
	}
	for _, h := range lists {
		st.Cases = append(st.Cases, Case{Headers: h})
	}
	if len(st.Cases) > 0 {
		st.Cases[0].HeaderTableSize = &size
	}
	return st
}

func hpackVectorConfig(size int) hpack.Config { return hpack.Config{TableLimit: sizeConfig(size)} }

// WriteVectors regenerates the vectors in dir from its header lists.
func WriteVectors(dir string) error {
	for _, list := range vectorLists {
		lists, err := LoadQIF(filepath.Join(dir, list+".qif"))
		if err != nil {
			return err
		}
		for _, size := range vectorTableSizes {
			st := vectorStory(list, lists, size)
			if err := Deflate(st, hpackVectorConfig(size)); err != nil {
				return err
			}
			b, err := st.Marshal()
			if err != nil {
				return err
			}
			if err := writeFile(filepath.Join(dir, filepath.FromSlash(hpackVectorName(list, size))), b); err != nil {
				return err
			}
		}
		for _, set := range QPACKSettings {
			b := EncodeQIF(lists, set.encoderConfig())
			if err := writeFile(filepath.Join(dir, filepath.FromSlash(qpackVectorName(list, set))), b); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeFile(name string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o644)
}

// RunVectors checks the vectors in fsys (Vectors() for the module's own):
// every vector decodes, with our decoder (and x/net's for HPACK), to its
// header list, and our encoder, from the list, writes the vector's bytes
// exactly, through the string path and through the raw Content-Length
// path alike. A vector missing, or a file no vector setting names, fails.
func RunVectors(fsys fs.FS) (hpackSuite, qpackSuite *Suite) {
	hs := newSuite("hpack-vectors", "the module's HPACK vectors decode to their lists and re-encode to the same bytes", "file")
	qs := newSuite("qpack-vectors", "the module's QPACK vectors decode to their lists and re-encode to the same bytes", "file")
	known := map[string]bool{}
	for _, list := range vectorLists {
		lists, err := readQIFFile(fsys, list+".qif")
		for _, size := range vectorTableSizes {
			name := hpackVectorName(list, size)
			known[name] = true
			if err != nil {
				hs.count(name, err)
				continue
			}
			hs.count(name, safe(func() error { return checkHPACKVector(hs, fsys, name, lists, size) }))
		}
		for _, set := range QPACKSettings {
			name := qpackVectorName(list, set)
			known[name] = true
			if err != nil {
				qs.count(name, err)
				continue
			}
			qs.count(name, safe(func() error { return checkQPACKVector(qs, fsys, name, lists, set) }))
		}
	}
	for dir, s := range map[string]*Suite{"hpack": hs, "qpack": qs} {
		ents, _ := fs.ReadDir(fsys, dir)
		for _, e := range ents {
			if name := path.Join(dir, e.Name()); !known[name] {
				s.count(name, errors.New("not a vector of this version: remove it, or regenerate with go generate ./internal/conformance"))
			}
		}
	}
	return hs, qs
}

func readQIFFile(fsys fs.FS, name string) ([]Headers, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	lists, err := ReadQIF(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return lists, nil
}

func checkHPACKVector(s *Suite, fsys fs.FS, name string, lists []Headers, size int) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	st, err := ReadStory(b)
	if err != nil {
		return err
	}
	if len(st.Cases) != len(lists) {
		return fmt.Errorf("%d cases for %d header lists", len(st.Cases), len(lists))
	}
	want := vectorStory("", lists, size)
	for i, c := range st.Cases {
		if !equalHeaders(c.Headers, lists[i]) {
			return atf(fmt.Sprintf("case %d", i), "headers differ from the list: %s", firstDifference(c.Headers, lists[i]))
		}
		if i == 0 && (c.HeaderTableSize == nil || *c.HeaderTableSize != size) || i > 0 && c.HeaderTableSize != nil {
			return atf(fmt.Sprintf("case %d", i), "header_table_size is not that of the file name (%d, first case only)", size)
		}
	}
	blocks, err := storyWires(st)
	if err != nil {
		return placeCase(err)
	}
	var n int64
	for _, b := range blocks {
		n += int64(len(b))
	}
	s.add(len(blocks), n)
	if err := checkEncodedStory(want, blocks); err != nil {
		return err
	}
	for _, raw := range []bool{false, true} {
		again := encodeStory(want, hpackVectorConfig(size), raw)
		for i := range blocks {
			if err := compareBytes(again[i], blocks[i]); err != nil {
				return atf(fmt.Sprintf("case %d", i), "re-encoded%s: %v", rawNote(raw), err)
			}
		}
	}
	return nil
}

func checkQPACKVector(s *Suite, fsys fs.FS, name string, lists []Headers, set QPACKSetting) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	recs, err := ReadRecords(b)
	if err != nil {
		return err
	}
	s.add(sectionCount(recs), payloadSize(recs))
	got, err := decodeRecords(recs, set.decoderConfig())
	if err != nil {
		return placeStream(err)
	}
	if err := compareStreams(got, lists, nil); err != nil {
		return err
	}
	for _, raw := range []bool{false, true} {
		again := encodeRecords(lists, set.encoderConfig(), raw)
		for i := range max(len(again), len(recs)) {
			if i >= len(again) || i >= len(recs) {
				return fmt.Errorf("re-encoded%s: %d records, want %d", rawNote(raw), len(again), len(recs))
			}
			a, r := again[i], recs[i]
			where := fmt.Sprintf("record %d (stream %d)", i, r.Stream)
			if a.Stream != r.Stream {
				return atf(where, "re-encoded%s: stream %d", rawNote(raw), a.Stream)
			}
			if err := compareBytes(a.Data, r.Data); err != nil {
				return atf(where, "re-encoded%s: %v", rawNote(raw), err)
			}
		}
	}
	return nil
}

func rawNote(raw bool) string {
	if raw {
		return " (raw Content-Length)"
	}
	return ""
}
