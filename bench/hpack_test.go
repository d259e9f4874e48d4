package bench

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	xnethpack "github.com/hqpack/hqpack/compat/xnet-hpack"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// HPACK: hqpack beside golang.org/x/net/http2/hpack. Encoders are warm (one
// encoder across iterations, as on a connection) and write into a reused
// buffer. Decoders are reused too and decode the same bytes; see each
// benchmark for what the table holds.

// headerField is x/net's HeaderField or the drop-in's
// (compat/xnet-hpack): the same struct.
type headerField interface {
	~struct {
		Name, Value string
		Sensitive   bool
	}
}

// fieldWriter is an encoder with x/net's API: x/net's own (impl=xnet), or
// hqpack's drop-in for it (impl=hqpack-xnet).
type fieldWriter[F headerField] interface{ WriteField(F) error }

// xnetEncode writes fs with an x/net-shaped encoder into buf, which it
// empties first. A field with an empty value is content-length: its value
// is made with strconv.Itoa each time, as a server does.
func xnetEncode[F headerField](b *testing.B, e fieldWriter[F], buf *bytes.Buffer, fs []field) {
	buf.Reset()
	for _, f := range fs {
		v := f.value
		if v == "" {
			v = strconv.Itoa(responseContentLength)
		}
		if err := e.WriteField(F{Name: f.name, Value: v}); err != nil {
			b.Fatal(err)
		}
	}
}

// xnetEncodeSections encodes sections in turn, one per iteration, with the
// encoder newEncoder makes, warmed by the first.
func xnetEncodeSections[F headerField, E fieldWriter[F]](b *testing.B, newEncoder func(io.Writer) E, sections ...[]field) {
	var buf bytes.Buffer
	e := newEncoder(&buf)
	xnetEncode[F](b, e, &buf, sections[0])
	b.ReportAllocs()
	i := 1
	for b.Loop() {
		xnetEncode[F](b, e, &buf, sections[i%len(sections)])
		i++
	}
}

// xnetEncodeRows adds the rows of the encoders with x/net's API: x/net's
// (impl=xnet) and hqpack's drop-in (impl=hqpack-xnet), encoding sections
// in turn.
func xnetEncodeRows(b *testing.B, sections ...[]field) {
	b.Run("impl=xnet", func(b *testing.B) {
		xnetEncodeSections[xhpack.HeaderField](b, xhpack.NewEncoder, sections...)
	})
	b.Run("impl=hqpack-xnet", func(b *testing.B) {
		xnetEncodeSections[xnethpack.HeaderField](b, xnethpack.NewEncoder, sections...)
	})
}

// hqpackEncode encodes l into the fixed buffer dst (a HEADERS payload) and
// returns the section.
func hqpackEncode(b *testing.B, e *hpack.Encoder, dst []byte, l *fastpath.FieldList) []byte {
	n, res := e.Begin(dst, l)
	if res != fastpath.Done {
		b.Fatalf("Begin: %v", res)
	}
	return dst[:n]
}

// hqpackEncodeRows adds the hqpack rows of an encode benchmark: impl=hqpack
// builds the FieldList for every section (Reset, then Add), as a server
// does for every response; impl=hqpack-rewind builds it once and rewinds
// it, which leaves the encoder's own time.
func hqpackEncodeRows(b *testing.B, build func(*fastpath.FieldList)) {
	b.Run("impl=hqpack", func(b *testing.B) {
		var l fastpath.FieldList
		e := newHPACKEncoder(hpack.Config{})
		dst := make([]byte, 16<<10)
		build(&l)
		hqpackEncode(b, e, dst, &l) // warm: the table holds the fields
		b.ReportAllocs()
		for b.Loop() {
			build(&l)
			hqpackEncode(b, e, dst, &l)
		}
	})
	b.Run("impl=hqpack-rewind", func(b *testing.B) {
		var l fastpath.FieldList
		e := newHPACKEncoder(hpack.Config{})
		dst := make([]byte, 16<<10)
		build(&l)
		hqpackEncode(b, e, dst, &l)
		b.ReportAllocs()
		for b.Loop() {
			l.Rewind()
			hqpackEncode(b, e, dst, &l)
		}
	})
}

// BenchmarkHPACKEncodeResponse encodes the 7-field response: hqpack from a
// FieldList with a raw Content-Length, into a fixed HEADERS buffer; x/net
// and the drop-in with strconv.Itoa for content-length, as a server does
// today, into a reused bytes.Buffer.
func BenchmarkHPACKEncodeResponse(b *testing.B) {
	hqpackEncodeRows(b, buildResponse)
	xnetEncodeRows(b, response)
}

// BenchmarkHPACKEncodeRequest encodes the 13-field request on a warm
// encoder (a client's second request).
func BenchmarkHPACKEncodeRequest(b *testing.B) {
	hqpackEncodeRows(b, buildRequest)
	xnetEncodeRows(b, request)
}

// requestPaths is the request with :path cycling through 16 values, one
// per section: a client browsing a site. No section repeats the one before,
// so hqpack's encoder takes its general path (every field looked up),
// which a repeated section skips. The strings are made before the loop.
func requestPaths() [][]field {
	var rs [][]field
	for i := range 16 {
		r := append([]field(nil), request...)
		r[3].value = "/products/widgets?color=blue&page=" + strconv.Itoa(i+2)
		rs = append(rs, r)
	}
	return rs
}

// BenchmarkHPACKEncodeRequestPaths encodes the request with a new :path in
// each section (requestPaths).
func BenchmarkHPACKEncodeRequestPaths(b *testing.B) {
	rs := requestPaths()
	b.Run("impl=hqpack", func(b *testing.B) {
		var l fastpath.FieldList
		e := newHPACKEncoder(hpack.Config{})
		dst := make([]byte, 16<<10)
		build := func(i int) {
			l.Reset()
			for _, f := range rs[i%len(rs)] {
				l.Add(f.name, f.value, 0)
			}
		}
		build(0)
		hqpackEncode(b, e, dst, &l)
		b.ReportAllocs()
		i := 1
		for b.Loop() {
			build(i)
			hqpackEncode(b, e, dst, &l)
			i++
		}
	})
	xnetEncodeRows(b, rs...)
}

// xnetSections returns fs encoded by x/net's encoder (which indexes every
// field) twice on one connection: the first section is literals entering
// the table, the second all indexed. x/net's encoder is the neutral
// choice: both decoders read a third party's bytes.
func xnetSections(b *testing.B, fs []field) (first, second []byte) {
	var buf bytes.Buffer
	e := xhpack.NewEncoder(&buf)
	xnetEncode[xhpack.HeaderField](b, e, &buf, fs)
	first = bytes.Clone(buf.Bytes())
	xnetEncode[xhpack.HeaderField](b, e, &buf, fs)
	return first, bytes.Clone(buf.Bytes())
}

// emptyTable is two Dynamic Table Size Updates, to 0 and back to 4096: at
// the start of a section they leave the decoder's table empty (RFC 7541
// §4.2), so a reused decoder decodes the section as a fresh connection's
// first. Both implementations read these 4 bytes; neither is rebuilt.
var emptyTable = []byte{0x20, 0x3f, 0xe1, 0x1f}

// benchHPACKDecode decodes block in each iteration with decoders primed by
// decoding prime (if any), then block, once: see benchHPACKDecodeTurns.
func benchHPACKDecode(b *testing.B, prime, block []byte, fs []field) {
	benchHPACKDecodeTurns(b, [][]byte{prime}, [][]byte{block}, fs)
}

// benchHPACKDecodeTurns decodes one of blocks in each iteration, in turn,
// with decoders primed by decoding primes, then each block, once: hqpack
// into a countSink (zero copy) and into a fastpath.SinkList (copies every
// name and value into its arena), x/net and the drop-in
// (compat/xnet-hpack) into an emit func that counts the strings it is
// given. Every block must decode to fs's counts.
func benchHPACKDecodeTurns(b *testing.B, primes, blocks [][]byte, fs []field) {
	w := want(fs)
	warm := append(append([][]byte(nil), primes...), blocks...)
	b.Run("impl=hqpack", func(b *testing.B) {
		var d hpack.Decoder
		d.Init(hpack.DecoderConfig{})
		var s countSink
		for _, p := range warm {
			if err := d.Decode(p, &s); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s = countSink{}
			if err := d.Decode(blocks[i%len(blocks)], &s); err != nil {
				b.Fatal(err)
			}
			i++
		}
		if s.fieldStats != w {
			b.Fatalf("decoded %+v, want %+v", s.fieldStats, w)
		}
	})
	b.Run("impl=hqpack-sinklist", func(b *testing.B) {
		var d hpack.Decoder
		d.Init(hpack.DecoderConfig{})
		var s fastpath.SinkList
		for _, p := range warm {
			if err := d.Decode(p, &s); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s.Reset()
			if err := d.Decode(blocks[i%len(blocks)], &s); err != nil {
				b.Fatal(err)
			}
			i++
		}
		if s.Len() != w.fields || s.Bytes() != w.bytes {
			b.Fatalf("decoded %d fields of %d bytes, want %+v", s.Len(), s.Bytes(), w)
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var s fieldStats
		d := xhpack.NewDecoder(hpack.DefaultTableSize, countEmit[xhpack.HeaderField](&s))
		xnetDecodeTurns(b, d, &s, warm, blocks, w)
	})
	b.Run("impl=hqpack-xnet", func(b *testing.B) {
		var s fieldStats
		d := xnethpack.NewDecoder(hpack.DefaultTableSize, countEmit[xnethpack.HeaderField](&s))
		xnetDecodeTurns(b, d, &s, warm, blocks, w)
	})
}

// countEmit returns an x/net-shaped decoder's emit func that counts the
// fields and strings it is given into s.
func countEmit[F headerField](s *fieldStats) func(F) {
	return func(f F) {
		h := struct {
			Name, Value string
			Sensitive   bool
		}(f)
		s.fields++
		s.bytes += len(h.Name) + len(h.Value)
	}
}

// xnetDecoder is a decoder with x/net's API: x/net's own, or the drop-in.
type xnetDecoder interface {
	Write([]byte) (int, error)
	Close() error
}

// xnetDecodeTurns is benchHPACKDecodeTurns's loop for an x/net-shaped
// decoder whose emit func counts into s.
func xnetDecodeTurns(b *testing.B, d xnetDecoder, s *fieldStats, warm, blocks [][]byte, w fieldStats) {
	decode := func(block []byte) {
		if _, err := d.Write(block); err != nil {
			b.Fatal(err)
		}
		if err := d.Close(); err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range warm {
		decode(p)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		*s = fieldStats{}
		decode(blocks[i%len(blocks)])
		i++
	}
	if *s != w {
		b.Fatalf("decoded %+v, want %+v", *s, w)
	}
}

// BenchmarkHPACKDecodeRequestCold decodes the request as the first section
// of a connection: every field a literal that enters the table (Huffman
// strings, literal names for the sec-fetch-* and upgrade-insecure-requests
// fields). The section starts with emptyTable, so one reused decoder of
// each implementation starts every iteration with an empty table: no
// decoder construction is counted, for either.
func BenchmarkHPACKDecodeRequestCold(b *testing.B) {
	first, _ := xnetSections(b, request)
	block := append(bytes.Clone(emptyTable), first...)
	benchHPACKDecode(b, nil, block, request)
}

// BenchmarkHPACKDecodeRequestColdEvicted is the cold decode with the caches
// evicted before each iteration (evictCaches), as for the first request of
// a connection on a server doing other work. ns/op includes the eviction;
// the decoding alone is decode-ns/op.
func BenchmarkHPACKDecodeRequestColdEvicted(b *testing.B) {
	first, _ := xnetSections(b, request)
	block := append(bytes.Clone(emptyTable), first...)
	w := want(request)
	b.Run("impl=hqpack", func(b *testing.B) {
		var d hpack.Decoder
		d.Init(hpack.DecoderConfig{})
		var s countSink
		benchEvicted(b, func() {
			s = countSink{}
			if err := d.Decode(block, &s); err != nil {
				b.Fatal(err)
			}
		})
		if s.fieldStats != w {
			b.Fatalf("decoded %+v, want %+v", s.fieldStats, w)
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var s fieldStats
		d := xhpack.NewDecoder(hpack.DefaultTableSize, countEmit[xhpack.HeaderField](&s))
		benchEvicted(b, func() {
			s = fieldStats{}
			if _, err := d.Write(block); err != nil {
				b.Fatal(err)
			}
			if err := d.Close(); err != nil {
				b.Fatal(err)
			}
		})
		if s != w {
			b.Fatalf("decoded %+v, want %+v", s, w)
		}
	})
}

// BenchmarkHPACKDecodeRequestColdPlain is the cold decode without Huffman:
// the same fields, every one a literal that enters the table, its strings
// sent as they are (hqpack's encoder with IndexAll and HuffmanNever). It
// shows what the decoders spend apart from Huffman decoding.
func BenchmarkHPACKDecodeRequestColdPlain(b *testing.B) {
	e := newHPACKEncoder(hpack.Config{Huffman: fastpath.HuffmanNever, Indexing: fastpath.IndexAll})
	var l fastpath.FieldList
	buildRequest(&l)
	block := e.AppendSection(bytes.Clone(emptyTable), &l)
	benchHPACKDecode(b, nil, block, request)
}

// BenchmarkHPACKDecodeRequestWarm decodes the request's second section on
// a connection whose table holds every field: 13 indexed references.
func BenchmarkHPACKDecodeRequestWarm(b *testing.B) {
	first, second := xnetSections(b, request)
	benchHPACKDecode(b, first, second, request)
}

// BenchmarkHPACKDecodeRequestWarmTurns decodes, in turn, two all-indexed
// requests that differ in :path (its page number) on a connection whose
// table holds both: no section repeats the one before, so hqpack's decoder
// cannot deliver a section from memory (Decode's repeat) and decodes every
// line, as on a connection whose requests keep changing.
func BenchmarkHPACKDecodeRequestWarmTurns(b *testing.B) {
	rs := requestPaths()
	var buf bytes.Buffer
	e := xhpack.NewEncoder(&buf)
	var sections [][]byte
	for _, r := range [][]field{rs[0], rs[1], rs[0], rs[1]} {
		xnetEncode[xhpack.HeaderField](b, e, &buf, r)
		sections = append(sections, bytes.Clone(buf.Bytes()))
	}
	benchHPACKDecodeTurns(b, sections[:2], sections[2:], request)
}

// BenchmarkHPACKDecodeResponse decodes the response's second section from
// an hqpack server (default policy): everything indexed but content-length,
// which is a literal with a static name and Huffman-coded digits, as a
// client of such a server sees it on a warm connection.
func BenchmarkHPACKDecodeResponse(b *testing.B) {
	var l fastpath.FieldList
	e := newHPACKEncoder(hpack.Config{})
	buildResponse(&l)
	first := e.AppendSection(nil, &l)
	buildResponse(&l)
	second := e.AppendSection(nil, &l)
	benchHPACKDecode(b, first, second, responseStrings())
}

// newHPACKEncoder returns an hpack.Encoder initialized with c.
func newHPACKEncoder(c hpack.Config) *hpack.Encoder {
	e := new(hpack.Encoder)
	e.Init(c)
	return e
}
