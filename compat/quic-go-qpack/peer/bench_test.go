package peer

import (
	"bytes"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	ours "github.com/hqpack/hqpack/compat/quic-go-qpack"
	"github.com/hqpack/hqpack/internal/conformance"
	quicgo "github.com/quic-go/qpack"
)

// The benchmarks run the drop-in and quic-go/qpack on the same trace: the
// six QIFS header lists (fb-req, fb-resp and netbsd, each also in its -hq
// form; 1,568 lists), every string a separate copy, as a server receives
// them. Metrics are per list.

// trace returns the lists, in file order, and their sections as quic-go
// encodes them (the drop-in writes the same bytes).
func trace(b *testing.B) ([][]ours.HeaderField, [][]quicgo.HeaderField, [][]byte) {
	all := qifLists(b)
	var lists []conformance.Headers
	for _, name := range sortedKeys(all) {
		if !strings.HasPrefix(name, "draft-") {
			lists = append(lists, all[name]...)
		}
	}
	o, q := fresh(lists)
	sections := make([][]byte, len(q))
	for i, l := range q {
		var buf bytes.Buffer
		e := quicgo.NewEncoder(&buf)
		for _, f := range l {
			if err := e.WriteField(f); err != nil {
				b.Fatal(err)
			}
		}
		sections[i] = buf.Bytes()
	}
	return o, q, sections
}

func perList(b *testing.B, lists int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lists), "ns/list")
}

// BenchmarkTraceEncode encodes every list of the trace into a reused
// buffer, one WriteField per field, as quic-go's HTTP/3 does.
func BenchmarkTraceEncode(b *testing.B) {
	o, q, sections := trace(b)
	b.Run("impl=hqpack", func(b *testing.B) {
		var buf bytes.Buffer
		traceEncode(b, ours.NewEncoder(&buf), &buf, o, sections)
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		var buf bytes.Buffer
		traceEncode(b, quicgo.NewEncoder(&buf), &buf, q, sections)
	})
}

// encoder is what both packages' Encoders do.
type encoder[F any] interface {
	WriteField(F) error
	Close() error
}

func traceEncode[F any](b *testing.B, e encoder[F], buf *bytes.Buffer, lists [][]F, sections [][]byte) {
	b.ReportAllocs()
	for b.Loop() {
		for i, l := range lists {
			buf.Reset()
			for _, f := range l {
				e.WriteField(f)
			}
			e.Close()
			if buf.Len() != len(sections[i]) {
				b.Fatalf("list %d: %d bytes, want %d", i, buf.Len(), len(sections[i]))
			}
		}
	}
	perList(b, len(lists))
}

// decodeOurs and decodeQuicGo decode a section into fields (reused), as
// quic-go's HTTP/3 does before it builds the http.Header.
func decodeOurs(d *ours.Decoder, p []byte, fields []ours.HeaderField) ([]ours.HeaderField, error) {
	next := d.Decode(p)
	fields = fields[:0]
	for {
		f, err := next()
		if err == io.EOF {
			return fields, nil
		}
		if err != nil {
			return fields, err
		}
		fields = append(fields, f)
	}
}

func decodeQuicGo(d *quicgo.Decoder, p []byte, fields []quicgo.HeaderField) ([]quicgo.HeaderField, error) {
	next := d.Decode(p)
	fields = fields[:0]
	for {
		f, err := next()
		if err == io.EOF {
			return fields, nil
		}
		if err != nil {
			return fields, err
		}
		fields = append(fields, f)
	}
}

// BenchmarkTraceDecode decodes every section of the trace with one
// Decoder, checking each list's field count.
func BenchmarkTraceDecode(b *testing.B) {
	o, _, sections := trace(b)
	b.Run("impl=hqpack", func(b *testing.B) {
		d := ours.NewDecoder()
		var fields []ours.HeaderField
		var err error
		b.ReportAllocs()
		for b.Loop() {
			for i, p := range sections {
				if fields, err = decodeOurs(d, p, fields); err != nil || len(fields) != len(o[i]) {
					b.Fatalf("list %d: %d fields, %v", i, len(fields), err)
				}
			}
		}
		perList(b, len(sections))
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		d := quicgo.NewDecoder()
		var fields []quicgo.HeaderField
		var err error
		b.ReportAllocs()
		for b.Loop() {
			for i, p := range sections {
				if fields, err = decodeQuicGo(d, p, fields); err != nil || len(fields) != len(o[i]) {
					b.Fatalf("list %d: %d fields, %v", i, len(fields), err)
				}
			}
		}
		perList(b, len(sections))
	})
}

// BenchmarkDecodeParallel shares one Decoder among GOMAXPROCS goroutines,
// as quic-go's HTTP/3 shares one per connection among its streams; each
// goroutine decodes the trace's sections in turn. An op is one section.
func BenchmarkDecodeParallel(b *testing.B) {
	o, _, sections := trace(b)
	b.Run("impl=hqpack", func(b *testing.B) {
		d := ours.NewDecoder()
		var start atomic.Int64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var fields []ours.HeaderField
			var err error
			i := int(start.Add(97)) % len(sections)
			for pb.Next() {
				if fields, err = decodeOurs(d, sections[i], fields); err != nil || len(fields) != len(o[i]) {
					b.Errorf("list %d: %d fields, %v", i, len(fields), err)
					return
				}
				if i++; i == len(sections) {
					i = 0
				}
			}
		})
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		d := quicgo.NewDecoder()
		var start atomic.Int64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var fields []quicgo.HeaderField
			var err error
			i := int(start.Add(97)) % len(sections)
			for pb.Next() {
				if fields, err = decodeQuicGo(d, sections[i], fields); err != nil || len(fields) != len(o[i]) {
					b.Errorf("list %d: %d fields, %v", i, len(fields), err)
					return
				}
				if i++; i == len(sections) {
					i = 0
				}
			}
		})
	})
}
