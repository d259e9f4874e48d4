package bench

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/qpack"
	quicgo "github.com/quic-go/qpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// The Varying rows: a real server's sections differ from one message to
// the next. A response has a new Date string and a new Content-Length
// every iteration; a request a new :path and cookie. The variants are made
// before the timer, varyingRing of them, used in turn: more than the
// encoders' address memos (64 fields) and hqpack's QPACK decoder's memo of
// Huffman literals (8 KiB) hold, so that no variant is remembered from its
// last turn.

// varyingRing is the number of variants of each Varying row.
const varyingRing = 256

// benchRing calls step with each variant in turn: once before the timer
// (the first message of a warm connection's ring), then once per
// iteration. It returns the variant of the last call.
func benchRing(b *testing.B, step func(k int)) (last int) {
	step(0)
	b.ReportAllocs()
	for b.Loop() {
		last = (last + 1) % varyingRing
		step(last)
	}
	return last
}

// dated is a response variant: its Date (a string of its own) and its
// Content-Length.
type dated struct {
	date string
	cl   int
}

// datedResponses returns varyingRing responses a second apart, with
// lengths of 3 to 6 digits.
func datedResponses() []dated {
	t0 := time.Date(2025, 12, 2, 9, 38, 12, 0, time.UTC)
	ds := make([]dated, varyingRing)
	for i := range ds {
		ds[i] = dated{t0.Add(time.Duration(i) * time.Second).Format(http.TimeFormat), 137 + i*i*7919%400000}
	}
	return ds
}

// BenchmarkHPACKEncodeResponseVarying encodes the response with a new Date
// and Content-Length each time: hqpack with the length raw, x/net with
// strconv.Itoa's string, as in HPACKEncodeResponse.
func BenchmarkHPACKEncodeResponseVarying(b *testing.B) {
	ds := datedResponses()
	b.Run("impl=hqpack", func(b *testing.B) {
		var l fastpath.FieldList
		e := newHPACKEncoder(hpack.Config{})
		dst := make([]byte, 16<<10)
		benchRing(b, func(k int) {
			buildResponseWith(&l, ds[k].date, int64(ds[k].cl))
			hqpackEncode(b, e, dst, &l)
		})
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var buf bytes.Buffer
		e := xhpack.NewEncoder(&buf)
		fs := append([]field(nil), response...)
		benchRing(b, func(k int) {
			datedFields(fs, ds[k])
			xnetEncode(b, e, &buf, fs)
		})
	})
}

// datedFields sets the response fs to d, content-length formatted by
// strconv.Itoa as a server using a peer's encoder does.
func datedFields(fs []field, d dated) {
	fs[2].value = strconv.Itoa(d.cl)
	fs[3].value = d.date
}

// BenchmarkQPACKEncodeResponseVarying encodes the response with a new Date
// and Content-Length each time, static table only: hqpack with the length
// raw, quic-go with strconv.Itoa's string.
func BenchmarkQPACKEncodeResponseVarying(b *testing.B) {
	ds := datedResponses()
	b.Run("impl=hqpack", func(b *testing.B) {
		var e qpack.Encoder
		var l fastpath.FieldList
		dst := make([]byte, 0, 16<<10)
		benchRing(b, func(k int) {
			buildResponseWith(&l, ds[k].date, int64(ds[k].cl))
			dst = e.AppendSection(qpackStream, dst[:0], &l)
		})
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		var buf bytes.Buffer
		e := quicgo.NewEncoder(&buf)
		fs := append([]field(nil), response...)
		benchRing(b, func(k int) {
			datedFields(fs, ds[k])
			quicgoEncode(b, e, &buf, fs)
		})
	})
}

// quicgoEncode writes fs with quic-go's encoder into buf, which it empties
// first.
func quicgoEncode(b *testing.B, e *quicgo.Encoder, buf *bytes.Buffer, fs []field) {
	buf.Reset()
	for _, f := range fs {
		if err := e.WriteField(quicgo.HeaderField{Name: f.name, Value: f.value}); err != nil {
			b.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		b.Fatal(err)
	}
}

// varyingRequests returns varyingRing requests, each with a :path and a
// cookie of its own (the cookie's session id and analytics ids differ).
func varyingRequests() [][]field {
	rs := make([][]field, varyingRing)
	for i := range rs {
		r := append([]field(nil), request...)
		k := uint64(i + 1)
		r[3].value = fmt.Sprintf("/products/%s/item-%d?color=blue&page=%d", []string{"widgets", "gadgets", "tools", "parts"}[i%4], 1000+i*37, i%9+1)
		r[12].value = fmt.Sprintf("session_id=%016x%016x; theme=dark; _ga=GA1.1.%d.%d", k*0x9e3779b97f4a7c15, k*0xc2b2ae3d27d4eb4f, 1234567890+i*7919, 1733130000+i*61)
		rs[i] = r
	}
	return rs
}

// xnetRing encodes rs in turn on one x/net encoder, the first preceded by
// Dynamic Table Size Updates to 0 and back to 4096 (see emptyTable), and
// returns the blocks. Each block after the first meets the table the
// blocks before it left, so a decoder can decode them in turn, round after
// round, as one connection: the first block of each round, a fresh
// table's, is one in varyingRing.
func xnetRing(b *testing.B, rs [][]field) [][]byte {
	var buf bytes.Buffer
	e := xhpack.NewEncoder(&buf)
	e.SetMaxDynamicTableSize(0)
	e.SetMaxDynamicTableSize(hpack.DefaultTableSize)
	blocks := make([][]byte, len(rs))
	for i, r := range rs {
		xnetEncode(b, e, &buf, r)
		blocks[i] = bytes.Clone(buf.Bytes())
	}
	if !bytes.HasPrefix(blocks[0], emptyTable) {
		b.Fatalf("x/net's first block starts %x, not with the size updates %x", blocks[0][:4], emptyTable)
	}
	return blocks
}

// BenchmarkHPACKDecodeRequestVarying decodes a request with a new :path and
// cookie each time, on a warm connection: x/net's blocks (xnetRing), where
// :path and cookie are literals that enter the table, with Huffman strings,
// and the other fields are indexed while the table holds them (the new
// entries push them out now and then, and they come back as literals).
// Both decoders decode the ring twice before the timer, checked field by
// field.
func BenchmarkHPACKDecodeRequestVarying(b *testing.B) {
	rs := varyingRequests()
	blocks := xnetRing(b, rs)
	b.Run("impl=hqpack", func(b *testing.B) {
		var d hpack.Decoder
		d.Init(hpack.DecoderConfig{})
		var check fastpath.SinkList
		checkRing(b, rs, func(block []byte) []field {
			check.Reset()
			if err := d.Decode(block, &check); err != nil {
				b.Fatal(err)
			}
			return sinkFields(&check)
		}, blocks)
		var s countSink
		k := benchRing(b, func(k int) {
			s = countSink{}
			if err := d.Decode(blocks[k], &s); err != nil {
				b.Fatal(err)
			}
		})
		if w := want(rs[k]); s.fieldStats != w {
			b.Fatalf("decoded %+v, want %+v", s.fieldStats, w)
		}
	})
	b.Run("impl=xnet", func(b *testing.B) {
		var got []field
		var s fieldStats
		d := xhpack.NewDecoder(hpack.DefaultTableSize, nil)
		decode := func(block []byte) {
			if _, err := d.Write(block); err != nil {
				b.Fatal(err)
			}
			if err := d.Close(); err != nil {
				b.Fatal(err)
			}
		}
		d.SetEmitFunc(func(f xhpack.HeaderField) { got = append(got, field{f.Name, f.Value}) })
		checkRing(b, rs, func(block []byte) []field {
			got = got[:0]
			decode(block)
			return got
		}, blocks)
		d.SetEmitFunc(func(f xhpack.HeaderField) {
			s.fields++
			s.bytes += len(f.Name) + len(f.Value)
		})
		k := benchRing(b, func(k int) {
			s = fieldStats{}
			decode(blocks[k])
		})
		if w := want(rs[k]); s != w {
			b.Fatalf("decoded %+v, want %+v", s, w)
		}
	})
}

// checkRing decodes the ring of blocks twice with decode, which returns
// the fields of a block, and checks them against rs.
func checkRing(b *testing.B, rs [][]field, decode func([]byte) []field, blocks [][]byte) {
	for round := range 2 {
		for i, block := range blocks {
			got := decode(block)
			if !slices.Equal(got, rs[i]) {
				b.Fatalf("round %d, request %d: decoded %q, want %q", round, i, got, rs[i])
			}
		}
	}
}

// sinkFields copies the fields of s.
func sinkFields(s *fastpath.SinkList) []field {
	fs := make([]field, s.Len())
	for i := range fs {
		name, value, _ := s.At(i)
		fs[i] = field{string(name), string(value)}
	}
	return fs
}

// BenchmarkQPACKDecodeRequestVarying decodes a request with a new :path and
// cookie each time, static table only, as hqpack's static-only encoder
// writes it (Huffman when shorter): hqpack's decoder and quic-go's, each
// checked on the whole ring before the timer.
func BenchmarkQPACKDecodeRequestVarying(b *testing.B) {
	rs := varyingRequests()
	sections := make([][]byte, len(rs))
	var e qpack.Encoder
	var l fastpath.FieldList
	for i, r := range rs {
		l.Reset()
		for _, f := range r {
			l.Add(f.name, f.value, 0)
		}
		sections[i] = e.AppendSection(qpackStream, nil, &l)
	}
	b.Run("impl=hqpack", func(b *testing.B) {
		var d qpack.Decoder
		var check fastpath.SinkList
		checkRing(b, rs, func(section []byte) []field {
			check.Reset()
			if _, err := d.DecodeSection(qpackStream, section, &check); err != nil {
				b.Fatal(err)
			}
			return sinkFields(&check)
		}, sections)
		var s countSink
		k := benchRing(b, func(k int) {
			s = countSink{}
			if _, err := d.DecodeSection(qpackStream, sections[k], &s); err != nil {
				b.Fatal(err)
			}
		})
		if w := want(rs[k]); s.fieldStats != w {
			b.Fatalf("decoded %+v, want %+v", s.fieldStats, w)
		}
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		d := quicgo.NewDecoder()
		var got []field
		decode := func(section []byte, emit func(quicgo.HeaderField)) {
			next := d.Decode(section)
			for {
				f, err := next()
				if err == io.EOF {
					return
				}
				if err != nil {
					b.Fatal(err)
				}
				emit(f)
			}
		}
		keep := func(f quicgo.HeaderField) { got = append(got, field{f.Name, f.Value}) }
		checkRing(b, rs, func(section []byte) []field {
			got = got[:0]
			decode(section, keep)
			return got
		}, sections)
		var s fieldStats
		count := func(f quicgo.HeaderField) {
			s.fields++
			s.bytes += len(f.Name) + len(f.Value)
		}
		k := benchRing(b, func(k int) {
			s = fieldStats{}
			decode(sections[k], count)
		})
		if w := want(rs[k]); s != w {
			b.Fatalf("decoded %+v, want %+v", s, w)
		}
	})
}
