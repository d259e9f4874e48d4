package hpack

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
	"github.com/hqpack/hqpack/internal/wire"
)

// tentry is a dynamic-table entry as tests compare them.
type tentry struct{ Name, Value string }

// entries returns e's dynamic table, newest first.
// newEncoder returns an Encoder initialized with c.
func newEncoder(c Config) *Encoder {
	e := new(Encoder)
	e.Init(c)
	return e
}

func entries(e *Encoder) []tentry {
	var out []tentry
	for i := 0; ; i++ {
		n, v, ok := e.table.Get(uint64(i))
		if !ok {
			return out
		}
		out = append(out, tentry{string(n), string(v)})
	}
}

// tableState is what the peer could ever notice of an encoder: its table
// and the size updates it still owes.
type tableState struct {
	Entries             []tentry
	Size, Capacity      int
	Limit, Peer, Target int
	Cur, SizeMin        int
	SizePending         bool
}

func tableOf(e *Encoder) tableState {
	return tableState{
		Entries: entries(e), Size: e.table.Size(), Capacity: e.table.Capacity(),
		Limit: e.limit, Peer: e.peer, Target: e.target, Cur: e.cur, SizeMin: e.sizeMin,
		SizePending: e.sizePending,
	}
}

// encState is all of an encoder's state: its table, and where it is in a
// section.
type encState struct {
	Entries                []tentry
	Size, Capacity         int
	Limit, Peer, Target    int
	Cur, SizeMin           int
	SizePending, Have, End bool
	Started                bool
}

func stateOf(e *Encoder) encState {
	return encState{
		Entries: entries(e), Size: e.table.Size(), Capacity: e.table.Capacity(),
		Limit: e.limit, Peer: e.peer, Target: e.target, Cur: e.cur, SizeMin: e.sizeMin,
		SizePending: e.sizePending, Have: e.have, End: e.end, Started: e.started,
	}
}

// tfield is one field of a test list; raw >= 0 makes it a raw Content-Length.
type tfield struct {
	Name, Value string
	Flags       fastpath.Flags
	Raw         int64
}

func (f tfield) String() string {
	if f.Raw >= 0 {
		return fmt.Sprintf("content-length=%d(raw)", f.Raw)
	}
	return fmt.Sprintf("%s=%q/%d", f.Name, f.Value, f.Flags&7)
}

func str(name, value string) tfield { return tfield{name, value, 0, -1} }

// fastList builds the list with raw Content-Lengths; stringList with their
// decimal strings and the same flags (the string path).
func fastList(fs []tfield) *fastpath.FieldList {
	l := new(fastpath.FieldList)
	fillList(l, fs)
	return l
}

// fillList adds fs to l.
func fillList(l *fastpath.FieldList, fs []tfield) {
	for _, f := range fs {
		if f.Raw >= 0 {
			l.AddContentLength(f.Raw)
		} else {
			l.Add(f.Name, f.Value, f.Flags)
		}
	}
}

// xdecode decodes one block with x/net's decoder, whose table size is
// allowed to go up to allowed. x/net rejects a second size update when its
// table is not empty (golang/go#29187), which RFC 7541 §4.2 requires when
// the size went down and up again: a block that starts with two updates has
// them applied here, after the same checks.
func xdecode(dec *xhpack.Decoder, block []byte, allowed uint32) ([]xhpack.HeaderField, error) {
	dec.SetAllowedMaxDynamicTableSize(allowed)
	var sizes []uint64
	rest := block
	for len(rest) > 0 && rest[0]&0xe0 == 0x20 {
		v, n, err := wire.ReadInt(rest, 5)
		if err != nil {
			return nil, err
		}
		sizes, rest = append(sizes, v), rest[n:]
	}
	if len(sizes) < 2 {
		return dec.DecodeFull(block)
	}
	if len(sizes) > 2 {
		return nil, fmt.Errorf("%d size updates", len(sizes))
	}
	for _, v := range sizes {
		if v > uint64(allowed) {
			return nil, fmt.Errorf("size update %d over %d", v, allowed)
		}
		dec.SetMaxDynamicTableSize(uint32(v))
	}
	return dec.DecodeFull(rest)
}

// unit is one representation of a block; size updates belong to the unit
// that follows them, as the encoder never separates them.
type unit struct{ start, end int }

// units splits a block into representations by parsing only their lengths.
func units(block []byte) ([]unit, error) {
	var out []unit
	start := 0
	for p := 0; p < len(block); {
		b := block[p]
		var prefix uint8
		var strs int
		switch {
		case b&0x80 != 0:
			prefix = 7
		case b&0xc0 == 0x40:
			prefix, strs = 6, 1
		case b&0xe0 == 0x20:
			prefix = 5
		default:
			prefix, strs = 4, 1
		}
		idx, n, err := wire.ReadInt(block[p:], prefix)
		if err != nil {
			return nil, err
		}
		p += n
		if strs == 1 && idx == 0 {
			strs = 2
		}
		for range strs {
			if p >= len(block) {
				return nil, errors.New("truncated")
			}
			l, n, err := wire.ReadInt(block[p:], 7)
			if err != nil {
				return nil, err
			}
			p += n + int(l)
			if p > len(block) {
				return nil, errors.New("truncated string")
			}
		}
		if b&0xe0 == 0x20 {
			continue // a size update: glued to what follows
		}
		out = append(out, unit{start, p})
		start = p
	}
	if start != len(block) {
		out = append(out, unit{start, len(block)}) // trailing size updates
	}
	return out, nil
}

// framed encodes fields with Begin/Continue into a buffer of size bufSize
// and returns the concatenated chunks, each chunk's length and result.
// It fails the test if the framing contract is broken.
func framed(t testing.TB, e *Encoder, fields fastpath.Enumerator, bufSize int) (out []byte, res fastpath.Result) {
	t.Helper()
	dst := make([]byte, bufSize)
	n, res := e.Begin(dst, fields)
	for i := 0; ; i++ {
		if n > bufSize || (res == fastpath.BufferTooSmall && (n != 0 || bufSize != 0)) || (res == fastpath.MoreFields && n == 0) {
			t.Fatalf("chunk %d: n=%d res=%v with a %d-byte buffer", i, n, res, bufSize)
		}
		out = append(out, dst[:n]...)
		if res != fastpath.MoreFields {
			return out, res
		}
		n, res = e.Continue(dst)
	}
}

// scenario is a run of sections through one encoder: its configuration, the
// peer's table-size settings before each section, and the fields.
type scenario struct {
	Config   Config
	Peer     [][]uint32 // SetMaxTableSize calls before each section
	Sections [][]tfield
}

func (s scenario) String() string {
	return fmt.Sprintf("config %+v, peer %v, sections %v", s.Config, s.Peer, s.Sections)
}

var (
	tableLimits = []int{NoTable, 256, DefaultTableSize, 16384}
	peerSizes   = []uint32{0, 100, 256, 1000, 4096, 16384}
	huffmans    = []fastpath.HuffmanPolicy{fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever}
	indexings   = []fastpath.Indexing{fastpath.IndexDefault, fastpath.IndexAll, fastpath.IndexNone}
	// Content-Length boundaries: digit-count and Huffman-length changes.
	contentLengths = []int64{0, 9, 10, 299, 300, 1024, math.MaxInt64}
	// Names the policies treat specially, and common ones.
	commonNames = []string{
		":status", ":path", ":method", ":authority", ":scheme", "content-type", "content-length",
		"cookie", "set-cookie", "authorization", "location", "etag", "age", "if-none-match",
		"if-modified-since", "date", "server", "cache-control", "vary", "user-agent", "accept",
		"accept-encoding", "x-request-id", "Content-Type", "X-Mixed-Case",
	}
	commonValues = []string{"", "200", "404", "GET", "/", "/index.html", "gzip, deflate", "text/html", "https", "no-cache", "1024"}
)

// genScenario generates scenarios: every setting, warm tables, fields of
// every kind with every flag, raw Content-Lengths at boundaries and random.
func genScenario(p *gopter.GenParameters) *gopter.GenResult {
	r := p.Rng
	var s scenario
	s.Config = Config{
		TableLimit: tableLimits[r.Intn(len(tableLimits))],
		Huffman:    huffmans[r.Intn(len(huffmans))],
		Indexing:   indexings[r.Intn(len(indexings))],
	}
	if r.Intn(4) == 0 {
		s.Config.InitialTableSize = []int{NoTable, 256, 16384}[r.Intn(3)]
	}
	sections := 1 + r.Intn(4)
	for range sections {
		var peer []uint32
		for range []int{0, 0, 0, 1, 2}[r.Intn(5)] {
			peer = append(peer, peerSizes[r.Intn(len(peerSizes))])
		}
		s.Peer = append(s.Peer, peer)
		var fs []tfield
		for range r.Intn(12) {
			fs = append(fs, genField(r))
		}
		s.Sections = append(s.Sections, fs)
	}
	return gopter.NewGenResult(s, gopter.NoShrinker)
}

// forScenarios checks property on runs generated scenarios.
func forScenarios(t *testing.T, runs int, name string, property func(scenario) string) {
	t.Helper()
	properties := gopter.NewProperties(propParams(runs))
	properties.Property(name, prop.ForAll(property, gopter.Gen(genScenario)))
	properties.TestingRun(t)
}

func genField(r *rand.Rand) tfield {
	f := tfield{Raw: -1}
	switch r.Intn(6) {
	case 0:
		f.Name, f.Raw = "content-length", contentLengths[r.Intn(len(contentLengths))]
		if r.Intn(2) == 0 {
			f.Raw = r.Int63n(1 << uint(r.Intn(63)))
		}
		return f
	case 1, 2:
		f.Name = commonNames[r.Intn(len(commonNames))]
	default:
		f.Name = genString(r, 1+r.Intn(20), true)
	}
	if r.Intn(2) == 0 {
		f.Value = commonValues[r.Intn(len(commonValues))]
	} else {
		f.Value = genString(r, []int{5, 25, 300}[r.Intn(3)], false)
	}
	f.Flags = codectest.RandFlags(r, 8)
	return f
}

// genString returns a string of up to max bytes: names are tokens, some
// uppercase; values are mostly printable, sometimes any byte.
func genString(r *rand.Rand, max int, name bool) string {
	const token = "abcdefghijklmnopqrstuvwxyz0123456789-_ABCXYZ"
	const text = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=;,/:.-_\"'%&?"
	n := r.Intn(max + 1)
	if name && n == 0 {
		n = 1
	}
	b := make([]byte, n)
	binary := !name && r.Intn(8) == 0
	for i := range b {
		switch {
		case name:
			b[i] = token[r.Intn(len(token))]
		case binary:
			b[i] = byte(r.Intn(256))
		default:
			b[i] = text[r.Intn(len(text))]
		}
	}
	return string(b)
}

// asciiLower lowercases A-Z only, as the encoder does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// propParams returns gopter parameters with n successful tests.
func propParams(n int) *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = n
	return p
}

// collect is a Sink that keeps fields in x/net's form: the encoder tests
// compare them with x/net's decoder's (codectest.Recorder keeps IDs).
type collect []xhpack.HeaderField

func (c *collect) Field(name, value []byte, f fastpath.Flags) error {
	*c = append(*c, xhpack.HeaderField{Name: string(name), Value: string(value), Sensitive: f&fastpath.NeverIndex != 0})
	return nil
}

// ourDecoder returns our decoder as the peer of an encoder whose peer
// setting starts at initial, with no section limit.
func ourDecoder(initial int) *Decoder {
	d := new(Decoder)
	if initial == 0 {
		initial = NoTable
	}
	d.Init(DecoderConfig{MaxTableSize: initial, InitialTableSize: initial, MaxSectionSize: math.MaxInt})
	return d
}

// ourDecode decodes one block with our decoder.
func ourDecode(d *Decoder, block []byte) ([]xhpack.HeaderField, error) {
	var c collect
	err := d.Decode(block, &c)
	return c, err
}
