package qpack

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// etVocabulary: names and values that repeat, so that the dynamic table is
// used, evicted and refreshed; plus random values that never repeat.
var (
	etNames = []string{":method", ":path", ":authority", ":status", "content-type", "cookie",
		"authorization", "user-agent", "x-request-id", "x-trace", "cache-control", "date", "vary", "set-cookie"}
	etValues = []string{"", "GET", "POST", "/", "/index.html", "200", "404", "text/html; charset=utf-8",
		"www.example.com", "a=b", "session=0123456789abcdef0123", "no-cache", "Mozilla/5.0 (X11; Linux x86_64)",
		"Fri, 01 Dec 2017 02:47:59 GMT", "Accept-Encoding", strings.Repeat("v", 90)}
)

// etRandomSection makes a random field section.
func etRandomSection(r *rand.Rand) []etField {
	n := r.Intn(12)
	fields := make([]etField, 0, n)
	for range n {
		var f etField
		switch k := r.Intn(20); {
		case k == 0:
			f = etField{Raw: true, CL: r.Int63n(100000)}
			if r.Intn(2) == 0 {
				f.CL = 0
			}
		case k == 1:
			f = etField{Name: fmt.Sprintf("x-%d", r.Intn(30)), Value: fmt.Sprintf("%x", r.Int63())}
		default:
			f = etField{Name: etNames[r.Intn(len(etNames))], Value: etValues[r.Intn(len(etValues))]}
			if r.Intn(3) == 0 {
				f.Value = fmt.Sprintf("v%d", r.Intn(8))
			}
		}
		f.Flags = codectest.RandFlags(r, 16)
		fields = append(fields, f)
	}
	return fields
}

// etExpect is what the decoder must deliver for fields: raw lengths as
// strings, never-indexed where the flags or fastpath.IndexDefault say so.
func etExpect(fields []etField, x fastpath.Indexing) []codectest.Field {
	var w []codectest.Field
	for _, f := range fields {
		g := codectest.Field{Name: f.Name, Value: f.Value, Never: f.Flags&fastpath.NeverIndex != 0}
		if f.Raw {
			g.Name, g.Value = "content-length", itoa(f.CL)
		} else if !g.Never && g.Name != "content-length" {
			g.Never = decide(x, f.Flags, staticNameIndex(f.Name), len(f.Value)) == fastpath.NeverIndex
		}
		w = append(w, g)
	}
	return w
}

func staticNameIndex(name string) int {
	_, sn := static.LookupQPACK(name, "")
	return sn
}

// etRoundTrip is one simulated connection: the encoder's sections and
// encoder stream reach our decoder late and in pieces, and the decoder
// stream comes back (or not) late and in pieces.
type etRoundTrip struct {
	t        *testing.T
	r        *rand.Rand
	enc      *Encoder
	dec      *Decoder
	feedAcks bool

	es, ds   []byte // in flight: encoder stream, decoder stream
	queued   map[uint64][][]byte
	want     map[uint64][][]codectest.Field
	held     map[uint64]bool // a section of the stream is blocked
	cancel   map[uint64]bool
	decoded  int
	failures []string
}

func (rt *etRoundTrip) fail(format string, args ...any) {
	rt.failures = append(rt.failures, fmt.Sprintf(format, args...))
}

// deliverES hands the decoder a random part (or all) of the encoder stream.
func (rt *etRoundTrip) deliverES(all bool) {
	for len(rt.es) > 0 {
		n := len(rt.es)
		if !all {
			n = rt.r.Intn(len(rt.es) + 1)
		}
		if err := rt.dec.ReadEncoderStream(rt.es[:n]); err != nil {
			rt.fail("ReadEncoderStream: %v", err)
		}
		rt.es = rt.es[n:]
		for {
			id, ok := rt.dec.NextUnblocked()
			if !ok {
				break
			}
			rt.decodeHeld(id)
		}
		if !all {
			return
		}
	}
}

func (rt *etRoundTrip) check(id uint64, got []codectest.Field) {
	rt.decoded++
	want := rt.want[id][0]
	rt.want[id] = rt.want[id][1:]
	if diff := cmp.Diff(want, got); diff != "" {
		rt.fail("stream %d (-want +got):\n%s", id, diff)
	}
}

func (rt *etRoundTrip) decodeHeld(id uint64) {
	s := codectest.Recorder{NoIDs: true}
	blocked, err := rt.dec.DecodeUnblocked(id, &s)
	if err != nil || blocked {
		rt.fail("DecodeUnblocked(%d): %v, %v", id, blocked, err)
		return
	}
	rt.held[id] = false
	rt.check(id, s.Fields)
}

// deliverSection hands the decoder the next section of stream id, unless
// one of the stream's sections is still blocked (a stream is read in
// order).
func (rt *etRoundTrip) deliverSection(id uint64) {
	if rt.held[id] || len(rt.queued[id]) == 0 {
		return
	}
	sec := rt.queued[id][0]
	rt.queued[id] = rt.queued[id][1:]
	s := codectest.Recorder{NoIDs: true}
	blocked, err := rt.dec.DecodeSection(id, sec, &s)
	if err != nil {
		rt.fail("DecodeSection(%d): %v", id, err)
		return
	}
	if blocked {
		rt.held[id] = true
		return
	}
	rt.check(id, s.Fields)
}

// deliverDS hands the encoder a random part (or all) of the decoder stream.
func (rt *etRoundTrip) deliverDS(all bool) {
	rt.ds = rt.dec.AppendDecoderStream(rt.ds)
	if !rt.feedAcks {
		rt.ds = rt.ds[:0]
		return
	}
	n := len(rt.ds)
	if !all {
		n = rt.r.Intn(len(rt.ds) + 1)
	}
	if err := rt.enc.ReadDecoderStream(rt.ds[:n]); err != nil {
		rt.fail("ReadDecoderStream: %v", err)
	}
	rt.ds = rt.ds[n:]
}

type etRTConfig struct {
	Seed     int64
	Capacity uint64
	Blocked  uint64
	Mode     int // 0 acks fed back, 1 acks withheld, 2 AckImmediate, 3 AckNever
	Huffman  fastpath.HuffmanPolicy
}

func etRunRoundTrip(t *testing.T, c etRTConfig) []string {
	r := rand.New(rand.NewSource(c.Seed))
	cfg := etDynamic(c.Capacity, c.Blocked)
	cfg.Huffman = c.Huffman
	switch c.Mode {
	case 2:
		cfg.AckMode = AckImmediate
	case 3:
		cfg.AckMode = AckNever
	}
	if r.Intn(4) == 0 {
		cfg.Indexing = fastpath.IndexAll
	}
	rt := &etRoundTrip{t: t, r: r, enc: etEncoder(cfg), dec: new(Decoder), feedAcks: c.Mode == 0,
		queued: map[uint64][][]byte{}, want: map[uint64][][]codectest.Field{}, held: map[uint64]bool{}, cancel: map[uint64]bool{}}
	rt.dec.Init(DecoderConfig{MaxTableCapacity: c.Capacity, MaxBlockedStreams: c.Blocked})
	ordered := c.Mode == 2 // AckImmediate: the encoder stream must precede each section
	var streams []uint64
	for i := range 40 {
		id := uint64(4 * (i % 13))
		if r.Intn(4) == 0 && len(streams) > 0 {
			id = streams[r.Intn(len(streams))] // a second section (trailers)
		}
		if rt.cancel[id] {
			continue
		}
		fields := etRandomSection(r)
		sec := rt.enc.AppendSection(id, nil, newEtFields(fields))
		rt.es = rt.enc.AppendEncoderStream(rt.es)
		rt.queued[id] = append(rt.queued[id], sec)
		rt.want[id] = append(rt.want[id], etExpect(fields, cfg.Indexing))
		streams = append(streams, id)
		if ordered {
			rt.deliverES(true)
			rt.deliverSection(id)
			rt.deliverDS(false)
			continue
		}
		for range r.Intn(3) {
			switch r.Intn(4) {
			case 0:
				rt.deliverES(false)
			case 1, 2:
				rt.deliverSection(streams[r.Intn(len(streams))])
			case 3:
				rt.deliverDS(false)
			}
		}
		if c.Mode == 0 && r.Intn(40) == 0 && !rt.held[id] && len(rt.queued[id]) > 0 {
			// The peer resets the stream before reading its sections.
			rt.cancel[id] = true
			rt.queued[id], rt.want[id] = nil, nil
			if err := rt.dec.CancelStream(id); err != nil {
				rt.fail("CancelStream: %v", err)
			}
		}
		if len(rt.failures) > 0 {
			return rt.failures
		}
	}
	// Deliver everything.
	for range 4 {
		rt.deliverES(true)
		for id := range rt.queued {
			for len(rt.queued[id]) > 0 && !rt.held[id] {
				rt.deliverSection(id)
			}
		}
		rt.deliverDS(true)
	}
	for id, w := range rt.want {
		if len(w) > 0 {
			rt.fail("stream %d: %d sections never decoded", id, len(w))
		}
	}
	if c.Mode == 0 && len(rt.failures) == 0 && rt.enc.Outstanding() != 0 {
		rt.fail("all acknowledged, but %d sections outstanding", rt.enc.Outstanding())
	}
	return rt.failures
}

func TestEncoderRoundTrip(t *testing.T) {
	props := etProperties(300, 60)
	props.Property("sections decode to their fields, whatever the delivery", prop.ForAll(
		func(c etRTConfig) string {
			f := etRunRoundTrip(t, c)
			if len(f) > 0 {
				return strings.Join(f, "\n")
			}
			return ""
		},
		gopter.CombineGens(
			gen.Int64(),
			gen.OneConstOf(uint64(0), uint64(256), uint64(512), uint64(4096)),
			gen.OneConstOf(uint64(0), uint64(1), uint64(100)),
			gen.IntRange(0, 3),
			gen.OneConstOf(fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever),
		).Map(func(v []any) etRTConfig {
			return etRTConfig{v[0].(int64), v[1].(uint64), v[2].(uint64), v[3].(int), v[4].(fastpath.HuffmanPolicy)}
		}),
	))
	props.TestingRun(t)
}
