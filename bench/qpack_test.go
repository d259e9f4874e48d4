package bench

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
	quicgo "github.com/quic-go/qpack"
)

// QPACK: hqpack beside github.com/quic-go/qpack v0.6.0, which has only the
// static table, so impl=hqpack and impl=quicgo are both static-only.
// impl=hqpack-dyn rows use a 4096-byte dynamic table on a warm connection,
// for the record: quic-go has nothing to compare them with.

// qpackStream is the request stream every section goes on.
const qpackStream = 4

// dynConfig is the encoder side of a connection whose peer allows a
// 4096-byte table and 100 blocked streams, acknowledging on its decoder
// stream.
var dynConfig = qpack.EncoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 100, TableCapacity: 4096}

// dynDecoderConfig is the matching decoder side.
var dynDecoderConfig = qpack.DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 100}

// dynConn is a warm QPACK connection with a dynamic table: an encoder and
// the peer's decoder, with the streams between them delivered.
type dynConn struct {
	enc     qpack.Encoder
	dec     qpack.Decoder
	section []byte // the last section encoded, once warm
	ack     []byte // the decoder stream the peer sends for it
}

// warmConn encodes the section build fills, over and over, until the
// encoder has nothing more to insert, each time passing the encoder stream
// and the section to the decoder and its decoder stream back.
func warmConn(b *testing.B, build func(*fastpath.FieldList)) *dynConn {
	c := new(dynConn)
	c.enc.Init(dynConfig)
	c.dec.Init(dynDecoderConfig)
	var l fastpath.FieldList
	var s countSink
	for range 16 {
		build(&l)
		c.section = c.enc.AppendSection(qpackStream, c.section[:0], &l)
		es := c.enc.AppendEncoderStream(nil)
		if err := c.dec.ReadEncoderStream(es); err != nil {
			b.Fatal(err)
		}
		if blocked, err := c.dec.DecodeSection(qpackStream, c.section, &s); err != nil || blocked {
			b.Fatalf("DecodeSection: blocked %v, %v", blocked, err)
		}
		c.ack = c.dec.AppendDecoderStream(c.ack[:0])
		if err := c.enc.ReadDecoderStream(c.ack); err != nil {
			b.Fatal(err)
		}
		if len(es) == 0 && len(c.ack) > 0 {
			return c // steady: no inserts, and a section that uses the table
		}
	}
	b.Fatal("the dynamic-table connection did not settle")
	return nil
}

// BenchmarkQPACKEncodeResponse encodes the 7-field response: hqpack from a
// FieldList built per response with a raw Content-Length, quic-go with
// strconv.Itoa for content-length into a reused bytes.Buffer.
func BenchmarkQPACKEncodeResponse(b *testing.B) {
	benchQPACKEncode(b, buildResponse, responseStrings())
}

// BenchmarkQPACKEncodeRequest encodes the 13-field request.
func BenchmarkQPACKEncodeRequest(b *testing.B) {
	benchQPACKEncode(b, buildRequest, request)
}

func benchQPACKEncode(b *testing.B, build func(*fastpath.FieldList), fs []field) {
	b.Run("impl=hqpack", func(b *testing.B) {
		var e qpack.Encoder // static-only
		var l fastpath.FieldList
		dst := make([]byte, 0, 16<<10)
		build(&l)
		dst = e.AppendSection(qpackStream, dst[:0], &l) // warm, as the others
		b.ReportAllocs()
		for b.Loop() {
			build(&l)
			dst = e.AppendSection(qpackStream, dst[:0], &l)
		}
	})
	b.Run("impl=hqpack-rewind", func(b *testing.B) {
		// The list built once and rewound: the encoder's own time.
		var e qpack.Encoder
		var l fastpath.FieldList
		dst := make([]byte, 0, 16<<10)
		build(&l)
		dst = e.AppendSection(qpackStream, dst[:0], &l)
		b.ReportAllocs()
		for b.Loop() {
			l.Rewind()
			dst = e.AppendSection(qpackStream, dst[:0], &l)
		}
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		var buf bytes.Buffer
		e := quicgo.NewEncoder(&buf)
		cl := responseContentLength
		// Where content-length is, found once: the loop formats it and
		// compares no names.
		cli := slices.IndexFunc(fs, func(f field) bool { return f.name == "content-length" })
		write := func() {
			buf.Reset()
			for i, f := range fs {
				if i == cli {
					f.value = strconv.Itoa(cl)
				}
				if err := e.WriteField(quicgo.HeaderField{Name: f.name, Value: f.value}); err != nil {
					b.Fatal(err)
				}
			}
			if err := e.Close(); err != nil {
				b.Fatal(err)
			}
		}
		write()
		b.ReportAllocs()
		for b.Loop() {
			write()
		}
	})
	b.Run("impl=hqpack-dyn", func(b *testing.B) {
		// Each iteration: the section, the (empty, once warm) encoder
		// stream, and the peer's Section Acknowledgment read back, which
		// a server must process for the entries to stay usable.
		c := warmConn(b, build)
		var l fastpath.FieldList
		dst := make([]byte, 0, 16<<10)
		es := make([]byte, 0, 64)
		b.ReportAllocs()
		for b.Loop() {
			build(&l)
			dst = c.enc.AppendSection(qpackStream, dst[:0], &l)
			es = c.enc.AppendEncoderStream(es[:0])
			if err := c.enc.ReadDecoderStream(c.ack); err != nil {
				b.Fatal(err)
			}
		}
		if !bytes.Equal(dst, c.section) || len(es) != 0 {
			b.Fatal("the warm section changed")
		}
	})
}

// BenchmarkQPACKDecodeRequest decodes the request, as hqpack's static-only
// encoder writes it (Huffman when shorter; quic-go's own encoder always
// codes).
func BenchmarkQPACKDecodeRequest(b *testing.B) {
	benchQPACKDecode(b, buildRequest, request)
}

// BenchmarkQPACKDecodeResponse decodes the response, as hqpack's
// static-only encoder writes it.
func BenchmarkQPACKDecodeResponse(b *testing.B) {
	benchQPACKDecode(b, buildResponse, responseStrings())
}

// benchQPACKDecode decodes the section build fills: hqpack into a
// countSink (zero copy), quic-go by calling its DecodeFunc to io.EOF
// (strings, as it makes them), both counting what they get.
func benchQPACKDecode(b *testing.B, build func(*fastpath.FieldList), fs []field) {
	w := want(fs)
	var l fastpath.FieldList
	var e qpack.Encoder
	build(&l)
	section := e.AppendSection(qpackStream, nil, &l)
	b.Run("impl=hqpack", func(b *testing.B) {
		var d qpack.Decoder // static-only
		var s countSink
		b.ReportAllocs()
		for b.Loop() {
			s = countSink{}
			if _, err := d.DecodeSection(qpackStream, section, &s); err != nil {
				b.Fatal(err)
			}
		}
		if s.fieldStats != w {
			b.Fatalf("decoded %+v, want %+v", s.fieldStats, w)
		}
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		d := quicgo.NewDecoder()
		var s fieldStats
		b.ReportAllocs()
		for b.Loop() {
			s = fieldStats{}
			next := d.Decode(section)
			for {
				f, err := next()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				s.fields++
				s.bytes += len(f.Name) + len(f.Value)
			}
		}
		if s != w {
			b.Fatalf("decoded %+v, want %+v", s, w)
		}
	})
	b.Run("impl=hqpack-dyn", func(b *testing.B) {
		// The warm section of a connection with a 4096-byte table, and
		// its Section Acknowledgment, which the decoder queues.
		c := warmConn(b, build)
		var s countSink
		ack := make([]byte, 0, 16)
		b.ReportAllocs()
		for b.Loop() {
			s = countSink{}
			if _, err := c.dec.DecodeSection(qpackStream, c.section, &s); err != nil {
				b.Fatal(err)
			}
			ack = c.dec.AppendDecoderStream(ack[:0])
		}
		if s.fieldStats != w || !bytes.Equal(ack, c.ack) {
			b.Fatalf("decoded %+v (ack %x), want %+v (ack %x)", s.fieldStats, ack, w, c.ack)
		}
	})
}
