package qpack

import (
	"encoding/binary"
	"fmt"
	"github.com/hqpack/hqpack/internal/corpustest"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/internal/wire"

	"github.com/hqpack/hqpack/internal/codectest"
)

// etSetting is one QIFS encoder setting: table capacity, max blocked
// streams and ack mode (1: immediate acknowledgment, 0: none).
type etSetting struct{ capacity, blocked, ack int }

func (s etSetting) String() string { return fmt.Sprintf("%d.%d.%d", s.capacity, s.blocked, s.ack) }

func (s etSetting) config() EncoderConfig {
	cfg := EncoderConfig{
		MaxTableCapacity:  uint64(s.capacity),
		TableCapacity:     uint64(s.capacity),
		MaxBlockedStreams: uint64(s.blocked),
		AckMode:           AckNever,
	}
	if s.ack == 1 {
		cfg.AckMode = AckImmediate
	}
	return cfg
}

var etSettings = func() []etSetting {
	var ss []etSetting
	for _, c := range []int{0, 256, 512, 4096} {
		for _, b := range []int{0, 100} {
			for _, a := range []int{0, 1} {
				ss = append(ss, etSetting{c, b, a})
			}
		}
	}
	return ss
}()

// etRecord is one record of a QIFS encoded file: stream 0 is the encoder
// stream, stream n the section of header list n.
type etRecord struct {
	stream uint64
	data   []byte
}

// etEncodeQIFS encodes lists as the QIFS encoders do: header list n on
// stream n, each section preceded by the encoder-stream bytes it needs.
func etEncodeQIFS(lists [][]etField, cfg EncoderConfig) []etRecord {
	enc := new(Encoder)
	enc.Init(cfg)
	var recs []etRecord
	for i, l := range lists {
		sec := enc.AppendSection(uint64(i+1), nil, newEtFields(l))
		if es := enc.AppendEncoderStream(nil); len(es) > 0 {
			recs = append(recs, etRecord{0, es})
		}
		recs = append(recs, etRecord{uint64(i + 1), sec})
	}
	return recs
}

// etDecodeQIFS decodes records with our decoder and returns the header
// lists by stream, and how many sections blocked. With late, encoder-stream
// records are held back and handed over later in random pieces, so that
// sections block and unblock; otherwise each is split in two, in order.
func etDecodeQIFS(t testing.TB, recs []etRecord, capacity, blocked int, late bool) (map[uint64][]codectest.Field, int) {
	t.Helper()
	r := rand.New(rand.NewSource(int64(len(recs))))
	dec := new(Decoder)
	dec.Init(DecoderConfig{MaxTableCapacity: uint64(capacity), MaxBlockedStreams: uint64(blocked)})
	got := map[uint64][]codectest.Field{}
	nblocked := 0
	var pending []byte
	deliver := func(n int) {
		for n > 0 {
			k := 1 + r.Intn(n)
			if err := dec.ReadEncoderStream(pending[:k]); err != nil {
				t.Fatalf("encoder stream: %v", err)
			}
			pending, n = pending[k:], n-k
			for {
				id, ok := dec.NextUnblocked()
				if !ok {
					break
				}
				s := codectest.Recorder{NoIDs: true}
				if _, err := dec.DecodeUnblocked(id, &s); err != nil {
					t.Fatalf("stream %d: %v", id, err)
				}
				got[id] = s.Fields
			}
		}
	}
	for _, rec := range recs {
		if rec.stream == 0 {
			pending = append(pending, rec.data...)
			if !late {
				deliver(len(pending))
			}
			continue
		}
		if late && r.Intn(4) == 0 {
			deliver(r.Intn(len(pending) + 1))
		}
		s := codectest.Recorder{NoIDs: true}
		blocked, err := dec.DecodeSection(rec.stream, rec.data, &s)
		if err != nil {
			t.Fatalf("stream %d: %v", rec.stream, err)
		}
		if blocked {
			nblocked++
		} else {
			got[rec.stream] = s.Fields
		}
	}
	deliver(len(pending))
	return got, nblocked
}

func etWant(l []etField) []codectest.Field {
	var w []codectest.Field
	for _, f := range l {
		w = append(w, codectest.Field{Name: f.Name, Value: f.Value})
	}
	return w
}

// etPayloadSizes reads a QIFS encoded file: payload bytes (without the
// 12-byte record headers) and the number of sections whose Required
// Insert Count is not zero.
func etPayloadSizes(t testing.TB, path string) (payload, dynSections int, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	for len(b) >= 12 {
		id := binary.BigEndian.Uint64(b)
		n := int(binary.BigEndian.Uint32(b[8:]))
		if len(b) < 12+n {
			t.Fatalf("%s: truncated record", path)
		}
		p := b[12 : 12+n]
		payload += n
		if id != 0 && len(p) > 0 {
			if v, _, err := wire.ReadInt(p, 8); err == nil && v != 0 {
				dynSections++
			}
		}
		b = b[12+n:]
	}
	return payload, dynSections, true
}

// etCorpusBest returns, per implementation in qpack-05 with all six files at
// the setting, its total payload, and whether it kept to the
// blocked-streams limit: with ack mode 0 nothing is ever acknowledged, so
// every section with dynamic references may stay blocked, and there may be
// at most MaxBlockedStreams of them per connection (file).
func etCorpusBest(t testing.TB, dir string, s etSetting) map[string]struct {
	total      int
	conformant bool
} {
	res := map[string]struct {
		total      int
		conformant bool
	}{}
	impls, _ := os.ReadDir(filepath.Join(dir, "qifs", "encoded", "qpack-05"))
	for _, im := range impls {
		if !im.IsDir() || im.Name() == "examples" {
			continue
		}
		total, conf, n := 0, true, 0
		for _, q := range etQIFNames {
			p, dyn, ok := etPayloadSizes(t, filepath.Join(dir, "qifs", "encoded", "qpack-05", im.Name(), q+".out."+s.String()))
			if !ok {
				break
			}
			n++
			total += p
			if s.ack == 0 && dyn > s.blocked {
				conf = false
			}
		}
		if n == len(etQIFNames) {
			res[im.Name()] = struct {
				total      int
				conformant bool
			}{total, conf}
		}
	}
	return res
}

// TestEncoderCompressionQIFS measures total bytes (encoder stream and
// sections) over the six QIFs at every QIFS setting, checks that every
// output decodes back to its QIF with our decoder, and logs the figures
// beside the best implementation in the corpus at the same setting.
func TestEncoderCompressionQIFS(t *testing.T) {
	dir := corpustest.Dir(t, "")
	lists := map[string][][]etField{}
	for _, q := range etQIFNames {
		lists[q] = etReadQIF(t, filepath.Join(dir, "qifs", "qifs", q+".qif"))
	}
	var report strings.Builder
	fmt.Fprintf(&report, "\n%-12s %10s %10s %10s  %s\n", "setting", "hqpack", "best", "hqpack-best", "corpus (* = exceeds the blocked-streams limit)")
	blockedSections := 0
	for _, s := range etSettings {
		total := 0
		for _, q := range etQIFNames {
			recs := etEncodeQIFS(lists[q], s.config())
			for _, r := range recs {
				total += len(r.data)
			}
			// Late delivery is sound unless the encoder assumed immediate
			// acknowledgments (it evicts what it thinks was received).
			late := s.ack == 0
			got, nb := etDecodeQIFS(t, recs, s.capacity, s.blocked, late)
			blockedSections += nb
			if s.capacity == 0 {
				for _, r := range recs {
					if r.stream != 0 {
						got[r.stream] = etQuicGoDecode(t, r.data)
					}
				}
			}
			for i, l := range lists[q] {
				g := got[uint64(i+1)]
				for j := range g {
					g[j].Never = false // the default policy sends short cookies never-indexed
				}
				if diff := cmp.Diff(etWant(l), g); diff != "" {
					t.Fatalf("%s %v list %d: (-want +got)\n%s", q, s, i+1, diff)
				}
			}
		}
		impls := etCorpusBest(t, dir, s)
		names := make([]string, 0, len(impls))
		for n := range impls {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return impls[names[i]].total < impls[names[j]].total })
		best := -1
		var row []string
		for _, n := range names {
			im := impls[n]
			mark := ""
			if !im.conformant {
				mark = "*"
			} else if best < 0 {
				best = im.total
			}
			row = append(row, fmt.Sprintf("%s%s %d", n, mark, im.total))
		}
		fmt.Fprintf(&report, "%-12v %10d %10d %+10d  %s\n", s, total, best, total-best, strings.Join(row, ", "))
		if best >= 0 && total > best {
			t.Errorf("%v: %d bytes, more than the best conformant implementation (%d)", s, total, best)
		}
	}
	t.Log(report.String())
	if blockedSections == 0 {
		t.Errorf("no section blocked: late delivery was not exercised")
	}
	t.Logf("%d sections blocked and were unblocked", blockedSections)
}
