package conformance

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hqpack/hqpack/hpack"
)

// RunHPACKDecode decodes every story of every encoder folder of
// hpack-test-case with our decoder, cases in order with one decoder per
// story, header_table_size applied before its case, and checks each header
// block against its headers.
func RunHPACKDecode(c *Corpus) *Suite {
	s := newSuite("hpack-decode", "hpack-test-case: every story of every encoder folder decodes to its headers", "story")
	folders, err := c.HPACKFolders()
	if err != nil {
		s.count(hpackDir, err)
		return s
	}
	type job struct {
		folder string
		file   StoryFile
	}
	var jobs []job
	for _, f := range folders {
		files, err := c.Stories(f)
		if err != nil {
			s.count(f, err)
			continue
		}
		for _, sf := range files {
			jobs = append(jobs, job{f, sf})
		}
	}
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		name := j.folder + "/" + j.file.Name
		defer s.recoverCase(name)
		s.count(name, decodeStoryCase(s, j.file))
	})
	s.note("%d folders: %s", len(folders), strings.Join(folders, ", "))
	return s
}

func decodeStoryCase(s *Suite, sf StoryFile) error {
	if sf.Err != nil {
		return sf.Err
	}
	blocks, err := storyWires(sf.Story)
	if err != nil {
		return placeCase(err)
	}
	var n int64
	for _, b := range blocks {
		n += int64(len(b))
	}
	s.add(len(blocks), n)
	got, err := decodeBlocks(sf.Story, blocks, 4096)
	if err != nil {
		return placeCase(err)
	}
	return compareStory(sf.Story, got)
}

// compareStory checks decoded header lists against a story's headers.
func compareStory(st *Story, got []Headers) error {
	for i, c := range st.Cases {
		if !equalHeaders(got[i], c.Headers) {
			return atf(fmt.Sprintf("case %d", i), "%s", firstDifference(got[i], c.Headers))
		}
	}
	return nil
}

// placeCase moves a CaseError's seqno to Failure.Where.
func placeCase(err error) error {
	if ce, ok := err.(*CaseError); ok {
		return at(fmt.Sprintf("case %d", ce.Seqno), ce.Err)
	}
	return err
}

// hpackEncodeSizes are the SETTINGS_HEADER_TABLE_SIZE values the encode
// suite runs at; the first is the one compared with the corpus.
var hpackEncodeSizes = []int{4096, 0, 256, 16384}

// hpackRef is the reference figure: nghttp2 1.52 (Debian's
// libnghttp2) on raw-data stories 00-30 at table size 4096.
const hpackRef = 346823

// RunHPACKEncode encodes every raw-data story with our encoder (default
// policy) at table sizes 4096, 0, 256 and 16384, and decodes every header
// block with our decoder and with golang.org/x/net/http2/hpack. The table
// size is both ends' SETTINGS_HEADER_TABLE_SIZE, acknowledged before the
// first block: the encoder's limit is that size and it announces it with a
// Dynamic Table Size Update. Each implementation folder whose settings
// differ from 4096 throughout (header_table_size changes) is also matched:
// our encoder runs with the folder's header_table_size sequence. The
// compression table sets our bytes beside each folder's on the same
// stories at the same settings.
func RunHPACKEncode(c *Corpus) *Suite {
	s := newSuite("hpack-encode", "raw-data stories through our encoder at table size 4096, 0, 256, 16384 (and each folder's settings), decoded by ours and by x/net/http2/hpack", "story x setting")
	raw, err := c.Stories("raw-data")
	if err != nil {
		s.count("raw-data", err)
		return s
	}
	folders, err := c.HPACKFolders()
	if err != nil {
		s.count(hpackDir, err)
		return s
	}
	type folderData struct {
		name    string
		files   map[string]*Story
		special bool // header_table_size other than 4096 somewhere
	}
	var fds []folderData
	for _, f := range folders {
		files, err := c.Stories(f)
		if err != nil {
			continue // hpack-decode reports it
		}
		fd := folderData{name: f, files: map[string]*Story{}}
		for _, sf := range files {
			if sf.Err != nil {
				continue
			}
			fd.files[sf.Name] = sf.Story
			for _, cs := range sf.Story.Cases {
				if cs.HeaderTableSize != nil && *cs.HeaderTableSize != 4096 {
					fd.special = true
				}
			}
		}
		fds = append(fds, fd)
	}

	// One job per story and setting: a table size, or a folder's sequence.
	type job struct {
		story   int
		size    int    // when folder is ""
		folder  string // a special folder whose settings are matched
		wire    int64  // our bytes, set by the job
		encoded bool
	}
	var jobs []*job
	for _, size := range hpackEncodeSizes {
		for i := range raw {
			jobs = append(jobs, &job{story: i, size: size})
		}
	}
	for _, fd := range fds {
		if !fd.special {
			continue
		}
		for i, sf := range raw {
			if fd.files[sf.Name] != nil {
				jobs = append(jobs, &job{story: i, folder: fd.name})
			}
		}
	}
	parallel(len(jobs), func(k int) {
		j := jobs[k]
		sf := raw[j.story]
		name := "raw-data/" + sf.Name
		if j.folder != "" {
			name += " @ " + j.folder + " settings"
		} else {
			name += fmt.Sprintf(" @ table size %d", j.size)
		}
		defer s.recoverCase(name)
		if sf.Err != nil {
			s.count(name, sf.Err)
			return
		}
		in := settingsStory(sf.Story, j.size)
		if j.folder != "" {
			for _, fd := range fds {
				if fd.name == j.folder {
					in = settingsFrom(sf.Story, fd.files[sf.Name])
				}
			}
		}
		limit := 4096
		if j.folder == "" {
			limit = j.size
		}
		blocks := encodeStory(in, hpack.Config{TableLimit: sizeConfig(limit)}, false)
		for _, b := range blocks {
			j.wire += int64(len(b))
		}
		j.encoded = true
		s.add(len(blocks), j.wire)
		s.count(name, checkEncodedStory(in, blocks))
	})

	// The compression table.
	comp := &Compression{Raw: "sum over the header blocks' fields of len(name) + len(value), in bytes (no 32-byte entry overhead, no framing)"}
	ourWire := func(size int, folder string, story int) (int64, bool) {
		for _, j := range jobs {
			if j.story == story && j.size == size && j.folder == folder {
				return j.wire, j.encoded
			}
		}
		return 0, false
	}
	// Stories every plain-4096 folder has, for a like-for-like row.
	common := map[string]bool{}
	for _, sf := range raw {
		common[sf.Name] = sf.Err == nil
	}
	for _, fd := range fds {
		if fd.special {
			continue
		}
		for n := range common {
			if fd.files[n] == nil {
				common[n] = false
			}
		}
	}
	row := func(setting string, stories []int, size int, folder string, others []folderData) CompressionRow {
		r := CompressionRow{Setting: setting, Inputs: len(stories)}
		ours := ImplBytes{Name: "hqpack"}
		for _, i := range stories {
			w, _ := ourWire(size, folder, i)
			ours.Bytes += w
			st := raw[i].Story
			r.Sections += len(st.Cases)
			r.Raw += rawSize(st)
		}
		r.Impls = append(r.Impls, ours)
		var impls []ImplBytes
		for _, fd := range others {
			im := ImplBytes{Name: fd.name}
			for _, i := range stories {
				fs := fd.files[raw[i].Name]
				im.Bytes += wireSize(fs)
				if !sameHeaders(fs, raw[i].Story) {
					im.Excluded, im.Note = true, "headers differ from raw-data in "+raw[i].Name
				}
			}
			impls = append(impls, im)
		}
		slices.SortStableFunc(impls, func(a, b ImplBytes) int { return cmp.Compare(a.Bytes, b.Bytes) })
		r.Impls = append(r.Impls, impls...)
		r.finish()
		return r
	}
	var plain []folderData
	var stories []int
	for i, sf := range raw {
		if common[sf.Name] {
			stories = append(stories, i)
		}
	}
	for _, fd := range fds {
		if !fd.special {
			plain = append(plain, fd)
		}
	}
	r := row(fmt.Sprintf("table size 4096, %s", storyRange(raw, stories)), stories, 4096, "", plain)
	comp.Rows = append(comp.Rows, r)
	standing(comp, r)
	for _, fd := range fds {
		if !fd.special {
			continue
		}
		var st []int
		for i, sf := range raw {
			if sf.Err == nil && fd.files[sf.Name] != nil {
				st = append(st, i)
			}
		}
		r := row(fmt.Sprintf("%s settings, %s", fd.name, storyRange(raw, st)), st, 0, fd.name, []folderData{fd})
		comp.Rows = append(comp.Rows, r)
		standing(comp, r)
	}
	var all []int
	for i, sf := range raw {
		if sf.Err == nil {
			all = append(all, i)
		}
	}
	for _, size := range hpackEncodeSizes[1:] {
		comp.Rows = append(comp.Rows, row(fmt.Sprintf("table size %d, %s", size, storyRange(raw, all)), all, size, "", nil))
	}
	// The target: stories 00-30 at 4096, against nghttp2 1.52.
	var ref int64
	refOK := true
	for i := 0; i < 31 && i < len(raw); i++ {
		w, ok := ourWire(4096, "", i)
		ref += w
		refOK = refOK && ok
	}
	if refOK && len(raw) >= 31 {
		verdict := "meets it"
		if ref > hpackRef {
			verdict = fmt.Sprintf("BEHIND by %d bytes", ref-hpackRef)
		}
		comp.Notes = append(comp.Notes, fmt.Sprintf("target: raw-data story_00-30 at 4096, hqpack %d bytes vs nghttp2 1.52 (Debian libnghttp2, not in the corpus) %d: %s", ref, hpackRef, verdict))
	}
	s.Compression = comp
	return s
}

// standing notes where hqpack stands on a row.
func standing(comp *Compression, r CompressionRow) {
	ours, best, ok := r.ours()
	if !ok {
		return
	}
	if ours <= best.Bytes {
		comp.Notes = append(comp.Notes, fmt.Sprintf("%s: hqpack %d bytes, best other %s %d (%+d)", r.Setting, ours, best.Name, best.Bytes, ours-best.Bytes))
	} else {
		comp.Notes = append(comp.Notes, fmt.Sprintf("%s: hqpack BEHIND: %d bytes, %s %d (%+d)", r.Setting, ours, best.Name, best.Bytes, ours-best.Bytes))
	}
}

// storyRange names a set of stories: "story_00-31 (32 stories)".
func storyRange(raw []StoryFile, idx []int) string {
	if len(idx) == 0 {
		return "no stories"
	}
	first := strings.TrimSuffix(raw[idx[0]].Name, ".json")
	last := strings.TrimPrefix(strings.TrimSuffix(raw[idx[len(idx)-1]].Name, ".json"), "story_")
	return fmt.Sprintf("%s-%s (%d stories)", first, last, len(idx))
}

// settingsStory returns a copy of a raw-data story whose first case
// carries header_table_size size.
func settingsStory(st *Story, size int) *Story {
	out := &Story{Cases: make([]Case, len(st.Cases))}
	for i, c := range st.Cases {
		out.Cases[i] = Case{Headers: c.Headers}
	}
	if len(out.Cases) > 0 {
		out.Cases[0].HeaderTableSize = &size
	}
	return out
}

// settingsFrom returns a copy of a raw-data story with the
// header_table_size sequence of another folder's same story.
func settingsFrom(st, from *Story) *Story {
	out := &Story{Cases: make([]Case, len(st.Cases))}
	for i, c := range st.Cases {
		out.Cases[i] = Case{Headers: c.Headers}
		if i < len(from.Cases) {
			out.Cases[i].HeaderTableSize = from.Cases[i].HeaderTableSize
		}
	}
	return out
}

// checkEncodedStory decodes our header blocks with our decoder and with
// x/net's, and compares both with the story's headers.
func checkEncodedStory(st *Story, blocks [][]byte) error {
	got, err := decodeBlocks(st, blocks, 4096)
	if err != nil {
		return placeCase(err)
	}
	if err := compareStory(st, got); err != nil {
		return err
	}
	got, err = xnetDecodeBlocks(st, blocks)
	if err != nil {
		return placeCase(err)
	}
	if err := compareStory(st, got); err != nil {
		return fmt.Errorf("x/net/http2/hpack: %w", err)
	}
	return nil
}

// rawSize is the raw size of a story's header lists: len(name) +
// len(value) over every field of every case.
func rawSize(st *Story) int64 {
	var n int64
	for _, c := range st.Cases {
		n += rawHeaders(c.Headers)
	}
	return n
}

func rawHeaders(h Headers) int64 {
	var n int64
	for _, f := range h {
		n += int64(len(f.Name) + len(f.Value))
	}
	return n
}

// wireSize is the number of wire bytes of a story (hex digits / 2).
func wireSize(st *Story) int64 {
	var n int64
	for _, c := range st.Cases {
		n += int64(len(c.Wire) / 2)
	}
	return n
}

// sameHeaders reports whether two stories carry the same header lists.
func sameHeaders(a, b *Story) bool {
	if len(a.Cases) != len(b.Cases) {
		return false
	}
	for i := range a.Cases {
		if !equalHeaders(a.Cases[i].Headers, b.Cases[i].Headers) {
			return false
		}
	}
	return true
}
