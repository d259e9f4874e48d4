//go:build interop && cgo

package interop

import (
	"testing"

	"github.com/hqpack/hqpack/bench/trace"
	"github.com/hqpack/hqpack/internal/conformance"
)

// The trace benchmarks of package bench with rows for nghttp2 and nghttp3
// added, so that one run prints hqpack, the Go peer and the C peer:
//
//	go test -tags interop ./interop -run '^$' -bench Trace
//
// The C rows run each whole trace in one cgo call (trace.go); their
// encoders are recorded first through the wrappers (nghttp2.go,
// nghttp3.go), and the one-call run must write the same bytes.

func BenchmarkHPACKTraceEncode(b *testing.B) {
	trace.HPACKEncode(b, trace.EncoderRow{
		Impl:  "nghttp2",
		New:   func() trace.ListEncoder { return new(nghttp2ListEncoder) },
		Trace: newNghttp2TraceEncoder,
	})
}

func BenchmarkHPACKTraceDecode(b *testing.B) {
	trace.HPACKDecode(b, trace.DecoderRow{Impl: "nghttp2", Trace: newNghttp2TraceDecoder})
}

func BenchmarkQPACKTraceEncode(b *testing.B) {
	trace.QPACKEncode(b, trace.EncoderRow{
		Impl:  "nghttp3",
		New:   func() trace.ListEncoder { return new(nghttp3ListEncoder) },
		Trace: newNghttp3TraceEncoder,
	})
}

func BenchmarkQPACKTraceDecode(b *testing.B) {
	trace.QPACKDecode(b, trace.DecoderRow{Impl: "nghttp3", Trace: newNghttp3TraceDecoder})
}

// plainFields returns hs as Fields, none never-indexed.
func plainFields(hs conformance.Headers) []Field {
	fs := make([]Field, len(hs))
	for j, h := range hs {
		fs[j] = Field{Name: h.Name, Value: h.Value}
	}
	return fs
}

// nghttp2ListEncoder is nghttp2's encoder one list at a time, for the
// recording run: a new deflater with a 4096-byte table per connection, as
// hq2_trace_deflate makes.
type nghttp2ListEncoder struct{ d *HPACKDeflater }

func (n *nghttp2ListEncoder) Start(trace.Setting) (err error) {
	n.Close()
	n.d, err = NewHPACKDeflater(4096)
	return err
}

func (n *nghttp2ListEncoder) Encode(_ int, l *trace.List) ([]byte, []byte, error) {
	block, err := n.d.Encode(plainFields(l.Fields))
	return block, nil, err
}

func (n *nghttp2ListEncoder) ReadDecoderStream([]byte) error { return nil }

func (n *nghttp2ListEncoder) Close() {
	if n.d != nil {
		n.d.Close()
		n.d = nil
	}
}

// nghttp3ListEncoder is nghttp3's encoder one list at a time, for the
// recording run, made as hq3_trace_encode makes it.
type nghttp3ListEncoder struct{ e *QPACKEncoder }

func (n *nghttp3ListEncoder) Start(s trace.Setting) (err error) {
	n.Close()
	n.e, err = NewQPACKEncoder(int(s.Capacity), int(s.Blocked))
	return err
}

func (n *nghttp3ListEncoder) Encode(i int, l *trace.List) ([]byte, []byte, error) {
	return n.e.Encode(int64(trace.StreamID(i)), plainFields(l.Fields))
}

func (n *nghttp3ListEncoder) ReadDecoderStream(ds []byte) error { return n.e.ReadDecoderStream(ds) }

func (n *nghttp3ListEncoder) Close() {
	if n.e != nil {
		n.e.Close()
		n.e = nil
	}
}
