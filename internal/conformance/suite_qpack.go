package conformance

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hqpack/hqpack/internal/wire"
	"github.com/hqpack/hqpack/qpack"
)

// RunQPACKDecode decodes every QIFS encoded file of qifs/encoded/qpack-05
// with our decoder at the settings in its name (SETTINGS_QPACK_MAX_TABLE_
// CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS), records in file order,
// blocked sections held until their inserts arrive, and checks stream n
// against list n of the QIF it encodes. examples/examples.out.220.100.1 is
// checked against the RFC 9204 examples (streams 4, 8, 12) and
// draft-examples.out against draft-examples.qif.
//
// Interop rule: many files insert before any Set Dynamic Table Capacity,
// as drafts before the RFC allowed (the initial capacity was the maximum).
// A file whose decoding fails with ErrCapacity on the encoder stream, and
// whose encoder stream does not start with Set Dynamic Table Capacity, is
// decoded again with DecoderConfig.InitialCapacity set to its capacity;
// the suite's notes count the files that needed it.
func RunQPACKDecode(c *Corpus) *Suite {
	s := newSuite("qpack-decode", "qifs qpack-05: every encoded file decodes to its QIF at the settings in its name", "file")
	root := c.path(qpack05Dir)
	impls, err := subdirs(root)
	if err != nil {
		s.count(qpack05Dir, err)
		return s
	}
	type job struct {
		impl, file string
		retried    bool
	}
	var jobs []*job
	for _, im := range impls {
		if im == "examples" {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, im))
		if err != nil {
			s.count(im, err)
			continue
		}
		for _, f := range files {
			jobs = append(jobs, &job{impl: im, file: f.Name()})
		}
	}
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		name := j.impl + "/" + j.file
		defer s.recoverCase(name)
		n, err := ParseQIFSName(j.file)
		if err != nil {
			s.count(name, err)
			return
		}
		lists, err := c.QIF(n.QIF)
		if err != nil {
			s.count(name, err)
			return
		}
		cfg := qpack.DecoderConfig{MaxTableCapacity: n.Capacity, MaxBlockedStreams: n.Blocked}
		j.retried, err = decodeFileCase(s, filepath.Join(root, j.impl, j.file), cfg, lists, nil)
		s.count(name, err)
	})
	// The RFC 9204 examples as qifs encodes them, and an older draft's.
	if ex, err := c.RFCExamples(); err != nil {
		s.count("examples/examples.out.220.100.1", err)
	} else {
		var lists []Headers
		for _, e := range ex.QPACK {
			for _, st := range e.Steps {
				if st.Stream.Kind == "section" {
					var h Headers
					for _, f := range st.Headers {
						h = append(h, Header{f.Name, f.Value})
					}
					lists = append(lists, h)
				}
			}
		}
		cfg := qpack.DecoderConfig{MaxTableCapacity: 220, MaxBlockedStreams: 100}
		err := safe(func() error {
			_, err := decodeFileCase(s, filepath.Join(root, "examples", "examples.out.220.100.1"), cfg, lists, []uint64{4, 8, 12})
			return err
		})
		s.count("examples/examples.out.220.100.1", err)
	}
	if lists, err := c.QIF("draft-examples"); err != nil {
		s.count("draft-examples.out", err)
	} else {
		cfg := qpack.DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 100}
		var retried bool
		err := safe(func() (err error) {
			retried, err = decodeFileCase(s, filepath.Join(root, "draft-examples.out"), cfg, lists, []uint64{4, 8, 12})
			return err
		})
		s.count("draft-examples.out (4096.100)", err)
		if retried {
			jobs = append(jobs, &job{impl: "draft-examples", file: "draft-examples.out", retried: true})
		}
	}
	needed := map[string][]string{}
	for _, j := range jobs {
		if j.retried {
			needed[j.impl] = append(needed[j.impl], j.file)
		}
	}
	var parts []string
	for _, im := range append(impls, "draft-examples") {
		if n := len(needed[im]); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", im, n))
		}
	}
	s.note("interop: files that insert before any Set Dynamic Table Capacity, decoded with InitialCapacity = capacity: %s", strings.Join(parts, ", "))
	return s
}

// decodeFileCase decodes the QIFS file at path, retrying with the interop
// option when the rule of RunQPACKDecode allows, and compares stream
// ids[i] (or i+1) with lists[i].
func decodeFileCase(s *Suite, path string, cfg qpack.DecoderConfig, lists []Headers, ids []uint64) (retried bool, err error) {
	recs, err := LoadRecords(path)
	if err != nil {
		return false, err
	}
	s.add(sectionCount(recs), payloadSize(recs))
	got, err := decodeRecords(recs, cfg)
	if err != nil && insertsBeforeCapacity(recs, err) && cfg.MaxTableCapacity > 0 {
		cfg.InitialCapacity = cfg.MaxTableCapacity
		retried = true
		got, err = decodeRecords(recs, cfg)
	}
	if err != nil {
		return retried, placeStream(err)
	}
	return retried, compareStreams(got, lists, ids)
}

// insertsBeforeCapacity reports whether err is the encoder-stream
// ErrCapacity of a file whose encoder stream does not start with Set
// Dynamic Table Capacity.
func insertsBeforeCapacity(recs []Record, err error) bool {
	var qe *qpack.Error
	if !errors.As(err, &qe) || qe.Code != qpack.ErrCodeEncoderStream || !errors.Is(err, qpack.ErrCapacity) {
		return false
	}
	for _, r := range recs {
		if r.Stream == 0 && len(r.Data) > 0 {
			return r.Data[0]&0xe0 != 0x20
		}
	}
	return false
}

// compareStreams checks that the decoded streams are exactly ids (1..n
// when nil) and carry lists, in order.
func compareStreams(got map[uint64]Headers, lists []Headers, ids []uint64) error {
	if ids == nil {
		for i := range lists {
			ids = append(ids, uint64(i+1))
		}
	}
	for i, id := range ids {
		h, ok := got[id]
		if !ok {
			return atf(fmt.Sprintf("stream %d", id), "no section (want list %d of %d)", i+1, len(lists))
		}
		if !equalHeaders(h, lists[i]) {
			return atf(fmt.Sprintf("stream %d", id), "%s", firstDifference(h, lists[i]))
		}
	}
	if len(got) != len(ids) {
		var extra []uint64
		for id := range got {
			if !slices.Contains(ids, id) {
				extra = append(extra, id)
			}
		}
		slices.Sort(extra)
		return fmt.Errorf("sections on unexpected streams %v", extra)
	}
	return nil
}

// placeStream moves a StreamError's stream to Failure.Where.
func placeStream(err error) error {
	if se, ok := err.(*StreamError); ok {
		where := fmt.Sprintf("stream %d", se.Stream)
		if se.Stream == 0 {
			where = "encoder stream"
		}
		return at(where, se.Err)
	}
	return err
}

func sectionCount(recs []Record) int {
	n := 0
	for _, r := range recs {
		if r.Stream != 0 {
			n++
		}
	}
	return n
}

// payloadSize is the bytes of a QIFS file without its record headers:
// encoder stream and sections.
func payloadSize(recs []Record) int64 {
	var n int64
	for _, r := range recs {
		n += int64(len(r.Data))
	}
	return n
}

func subdirs(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// QPACKSetting is one QIFS encoder setting.
type QPACKSetting struct {
	// Capacity is the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY, and the
	// capacity our encoder uses; Blocked is SETTINGS_QPACK_BLOCKED_STREAMS.
	Capacity, Blocked uint64
	// Ack is the QIFS ack mode: 1, each section is taken as acknowledged
	// once written (qpack.AckImmediate); 0, no acknowledgment ever
	// (qpack.AckNever).
	Ack int
}

func (q QPACKSetting) String() string { return fmt.Sprintf("%d.%d.%d", q.Capacity, q.Blocked, q.Ack) }

// encoderConfig returns our encoder's configuration for the setting.
func (q QPACKSetting) encoderConfig() qpack.EncoderConfig {
	cfg := qpack.EncoderConfig{MaxTableCapacity: q.Capacity, TableCapacity: q.Capacity, MaxBlockedStreams: q.Blocked, AckMode: qpack.AckNever}
	if q.Ack == 1 {
		cfg.AckMode = qpack.AckImmediate
	}
	return cfg
}

func (q QPACKSetting) decoderConfig() qpack.DecoderConfig {
	return qpack.DecoderConfig{MaxTableCapacity: q.Capacity, MaxBlockedStreams: q.Blocked}
}

// QPACKSettings are the settings the qifs corpus uses: capacity 0, 256,
// 512, 4096; blocked streams 0, 100; ack mode 0, 1.
var QPACKSettings = func() []QPACKSetting {
	var out []QPACKSetting
	for _, c := range []uint64{0, 256, 512, 4096} {
		for _, b := range []uint64{0, 100} {
			for _, a := range []int{0, 1} {
				out = append(out, QPACKSetting{c, b, a})
			}
		}
	}
	return out
}()

// RunQPACKEncode encodes every QIF of the corpus at every setting of
// QPACKSettings with our encoder (default policy), and decodes the result
// with our decoder with the encoder stream delivered late: it is held back
// and handed over in pieces, between and after the sections that need it,
// so that sections block and are unblocked (see decodeLate). At capacity 0
// every section is also decoded by github.com/quic-go/qpack. The
// compression table sets our bytes beside each implementation of
// qpack-05 at each setting, on the QIFs they encoded.
func RunQPACKEncode(c *Corpus) *Suite {
	s := newSuite("qpack-encode", "every QIF through our encoder at every corpus setting, encoder stream late, decoded by ours (and quic-go/qpack at capacity 0)", "QIF x setting")
	names, err := c.QIFNames()
	if err != nil || len(names) == 0 {
		s.count(qifDir, cmp.Or(err, fmt.Errorf("%s: no QIF files", c.path(qifDir))))
		return s
	}
	type job struct {
		qif     string
		set     QPACKSetting
		bytes   int64
		blocked int
		ok      bool
	}
	var jobs []*job
	for _, set := range QPACKSettings {
		for _, n := range names {
			jobs = append(jobs, &job{qif: n, set: set})
		}
	}
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		name := j.qif + ".qif @ " + j.set.String()
		defer s.recoverCase(name)
		lists, err := c.QIF(j.qif)
		if err != nil {
			s.count(name, err)
			return
		}
		recs := encodeRecords(lists, j.set.encoderConfig(), false)
		j.bytes = payloadSize(recs)
		s.add(len(lists), j.bytes)
		got, blocked, err := decodeLate(recs, j.set, int64(i))
		err = placeStream(err)
		j.blocked = blocked
		if err == nil {
			err = compareStreams(got, lists, nil)
		}
		if err == nil && j.set.Capacity == 0 {
			err = quicGoCheck(recs, lists)
		}
		j.ok = err == nil
		s.count(name, err)
	})
	blocked := 0
	for _, j := range jobs {
		blocked += j.blocked
	}
	s.note("late encoder stream: %d sections blocked and were unblocked", blocked)

	// The compression table: per setting, the QIFs the implementations
	// encoded at it.
	comp := &Compression{Raw: "sum over the header lists' fields of len(name) + len(value); bytes are encoder stream + field sections, without the QIFS record headers (12 bytes each)"}
	corpus := qifsTotals(c)
	for _, set := range QPACKSettings {
		qifs := map[string]bool{}
		for _, byQIF := range corpus[set.String()] {
			for q := range byQIF {
				qifs[q] = true
			}
		}
		if len(qifs) == 0 {
			continue
		}
		r := CompressionRow{Setting: set.String()}
		ours := ImplBytes{Name: "hqpack"}
		for _, j := range jobs {
			if j.set == set && qifs[j.qif] {
				ours.Bytes += j.bytes
				lists, _ := c.QIF(j.qif)
				r.Inputs++
				r.Sections += len(lists)
				for _, l := range lists {
					r.Raw += rawHeaders(l)
				}
			}
		}
		r.Impls = append(r.Impls, ours)
		impls := corpus[set.String()]
		var others []ImplBytes
		for im, byQIF := range impls {
			if len(byQIF) != len(qifs) {
				continue // not the same inputs
			}
			ib := ImplBytes{Name: im}
			over := 0
			for _, f := range byQIF {
				ib.Bytes += f.bytes
				over = max(over, f.dynamic)
			}
			if set.Ack == 0 && uint64(over) > set.Blocked {
				ib.Excluded = true
				ib.Note = fmt.Sprintf("breaks the blocked-streams limit: with no acknowledgment, up to %d sections of a file reference the dynamic table, limit %d", over, set.Blocked)
			}
			others = append(others, ib)
		}
		slices.SortFunc(others, func(a, b ImplBytes) int {
			return cmp.Or(cmp.Compare(a.Bytes, b.Bytes), strings.Compare(a.Name, b.Name))
		})
		r.Impls = append(r.Impls, others...)
		r.finish()
		comp.Rows = append(comp.Rows, r)
	}
	var behind []string
	for _, r := range comp.Rows {
		if ours, best, ok := r.ours(); ok && ours > best.Bytes {
			behind = append(behind, fmt.Sprintf("%s: hqpack %d, %s %d (%+d)", r.Setting, ours, best.Name, best.Bytes, ours-best.Bytes))
		}
	}
	if len(behind) == 0 {
		comp.Notes = append(comp.Notes, "hqpack is no larger than the best qualifying implementation at every setting")
	} else {
		comp.Notes = append(comp.Notes, "hqpack is BEHIND at: "+strings.Join(behind, "; "))
	}
	comp.Notes = append(comp.Notes, "* = excluded from smallest: with ack mode 0 nothing is ever acknowledged, so every section that references the dynamic table may stay blocked, and a file may have at most <blocked> of them (RFC 9204 §2.1.2)")
	for _, r := range comp.Rows {
		for _, im := range r.Impls[1:] {
			if im.Excluded && im.Bytes < r.Impls[0].Bytes {
				comp.Notes = append(comp.Notes, fmt.Sprintf("%s: %s* has %d bytes, %d fewer than hqpack, but %s", r.Setting, im.Name, im.Bytes, r.Impls[0].Bytes-im.Bytes, im.Note))
			}
		}
	}
	s.Compression = comp
	return s
}

// qifsFile is one implementation file's figures.
type qifsFile struct {
	bytes   int64
	dynamic int // sections with a Required Insert Count above 0
}

// qifsTotals reads the implementation files of qpack-05 and returns their
// figures by setting, implementation and QIF. Unreadable files are left
// out (RunQPACKDecode reports them).
func qifsTotals(c *Corpus) map[string]map[string]map[string]qifsFile {
	out := map[string]map[string]map[string]qifsFile{}
	root := c.path(qpack05Dir)
	impls, _ := subdirs(root)
	for _, im := range impls {
		if im == "examples" {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(root, im))
		for _, f := range files {
			n, err := ParseQIFSName(f.Name())
			if err != nil {
				continue
			}
			recs, err := LoadRecords(filepath.Join(root, im, f.Name()))
			if err != nil {
				continue
			}
			fig := qifsFile{bytes: payloadSize(recs)}
			for _, r := range recs {
				if r.Stream != 0 && len(r.Data) > 0 {
					if ric, _, err := wire.ReadInt(r.Data, 8); err == nil && ric != 0 {
						fig.dynamic++
					}
				}
			}
			set := n.Setting()
			if out[set] == nil {
				out[set] = map[string]map[string]qifsFile{}
			}
			if out[set][im] == nil {
				out[set][im] = map[string]qifsFile{}
			}
			out[set][im][n.QIF] = fig
		}
	}
	return out
}

// quicGoCheck decodes every section with quic-go/qpack (static only).
func quicGoCheck(recs []Record, lists []Headers) error {
	for _, r := range recs {
		if r.Stream == 0 {
			return atf("encoder stream", "%d bytes at capacity 0", len(r.Data))
		}
		h, err := quicGoDecode(r.Data)
		if err != nil {
			return at(fmt.Sprintf("stream %d", r.Stream), err)
		}
		if i := int(r.Stream) - 1; i >= len(lists) || !equalHeaders(h, lists[i]) {
			return atf(fmt.Sprintf("stream %d", r.Stream), "quic-go/qpack: %s", firstDifference(h, lists[min(i, len(lists)-1)]))
		}
	}
	return nil
}

// decodeLate decodes our encoder's records with the encoder stream held
// back: before a section, now and then, some of what is held is delivered;
// the rest comes after the last section. It returns the fields by stream
// and how many sections blocked.
//
// With ack mode 0 the encoder counts every section that references the
// dynamic table against the blocked-streams limit for good and never
// evicts an entry (nothing is ever acknowledged), so any delivery is sound:
// the held bytes go in pieces of random length, cut anywhere.
//
// With ack mode 1 the encoder took each section as acknowledged, and every
// insert as received, once written, so it evicts freely and does not count
// blocked streams. Late delivery then keeps to what that encoder can
// expect of a decoder that lags: whole instructions, one at a time, each
// unblocked section decoded as soon as its inserts are in (before a later
// insert evicts what it references); never more than Blocked sections
// held (everything is delivered first); and never so far behind that the
// section's Required Insert Count cannot be decoded (RFC 9204 §4.5.1.1:
// it must be at most the decoder's insert count + MaxEntries).
func decodeLate(recs []Record, set QPACKSetting, seed int64) (map[uint64]Headers, int, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9204))
	var dec qpack.Decoder
	dec.Init(set.decoderConfig())
	maxEntries := set.Capacity / 32
	got := map[uint64]Headers{}
	var pending []byte    // ack 0: bytes held
	var held [][]byte     // ack 1: instructions held
	var encInserts uint64 // inserts the encoder has written so far
	nblocked := 0
	read := func(b []byte) error {
		if err := dec.ReadEncoderStream(b); err != nil {
			return &StreamError{0, err}
		}
		return drainUnblocked(&dec, got)
	}
	// deliver hands over n bytes (ack 0) or n instructions (ack 1).
	deliver := func(n int) error {
		if set.Ack == 1 {
			for ; n > 0 && len(held) > 0; n-- {
				if err := read(held[0]); err != nil {
					return err
				}
				held = held[1:]
			}
			return nil
		}
		for n > 0 {
			k := 1 + rng.IntN(n)
			if err := read(pending[:k]); err != nil {
				return err
			}
			pending, n = pending[k:], n-k
		}
		return nil
	}
	all := func() int { return max(len(pending), len(held)) }
	for _, r := range recs {
		if r.Stream == 0 {
			if set.Ack == 0 {
				pending = append(pending, r.Data...)
				continue
			}
			ins, inserts, err := splitInstructions(r.Data)
			if err != nil {
				return nil, nblocked, &StreamError{0, err}
			}
			held = append(held, ins...)
			for _, in := range inserts {
				if in {
					encInserts++
				}
			}
			continue
		}
		if set.Ack == 1 {
			ric, ok := requiredInsertCount(r.Data, maxEntries, encInserts)
			if !ok || uint64(dec.BlockedStreams()) >= set.Blocked {
				if err := deliver(all()); err != nil {
					return nil, nblocked, err
				}
			}
			for len(held) > 0 && dec.InsertCount()+maxEntries < ric {
				if err := deliver(1); err != nil {
					return nil, nblocked, err
				}
			}
		}
		if n := all(); n > 0 && rng.IntN(3) == 0 {
			if err := deliver(rng.IntN(n + 1)); err != nil {
				return nil, nblocked, err
			}
		}
		h, blocked, err := decodeSection(&dec, r.Stream, r.Data)
		if err != nil {
			return nil, nblocked, &StreamError{r.Stream, err}
		}
		if blocked {
			nblocked++
		} else {
			got[r.Stream] = h
		}
	}
	if err := deliver(all()); err != nil {
		return nil, nblocked, err
	}
	if n := dec.BlockedStreams(); n > 0 {
		return nil, nblocked, fmt.Errorf("%d sections still blocked after the whole encoder stream", n)
	}
	return got, nblocked, nil
}
