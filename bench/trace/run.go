package trace

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/conformance"
)

// Setting is the connection of a QPACK trace: the decoder's
// SETTINGS_QPACK_MAX_TABLE_CAPACITY, which the encoder uses whole, and
// SETTINGS_QPACK_BLOCKED_STREAMS. The encoder stream reaches the decoder
// before each section, and the decoder stream reaches the encoder right
// after it (immediate acknowledgments), so no section blocks. HPACK traces
// use the zero Setting (their table is HTTP/2's 4096 bytes).
type Setting struct{ Capacity, Blocked uint64 }

// The two QPACK settings of the trace benchmarks.
var (
	Static  = Setting{}
	Dynamic = Setting{Capacity: 4096, Blocked: 100}
)

// String names s in the benchmarks' names: "static" or "4096-100-ack".
func (s Setting) String() string {
	if s.Capacity == 0 {
		return "static"
	}
	return fmt.Sprintf("%d-%d-ack", s.Capacity, s.Blocked)
}

// StreamID is the QPACK stream of the i-th list of a connection: the
// client-initiated bidirectional streams in order.
func StreamID(i int) uint64 { return 4 * uint64(i) }

// ListEncoder is an implementation's encoder driven one list at a time.
type ListEncoder interface {
	// Start begins a connection: a fresh or re-Init'ed encoder at s.
	Start(s Setting) error
	// Encode encodes l, the i-th list of the connection, and returns its
	// section and the encoder-stream bytes to send before it, both valid
	// until the next call.
	Encode(i int, l *List) (section, encoderStream []byte, err error)
	// ReadDecoderStream reads what the decoder sent back (QPACK).
	ReadDecoderStream(ds []byte) error
}

// ListDecoder is an implementation's decoder driven one list at a time.
type ListDecoder interface {
	// Start begins a connection: a fresh or re-Init'ed decoder at s.
	Start(s Setting) error
	// Decode decodes l's wire, the i-th list of the connection, into c:
	// for HPACK after applying its Size, for QPACK after reading its
	// encoder stream. It returns the decoder stream the decoder then has
	// to send (QPACK), valid until the next call.
	Decode(i int, l *List, c *Collector) (decoderStream []byte, err error)
}

// TraceEncoder encodes a whole trace per call, for rows whose codec is
// best called once per trace (the C libraries: one cgo call).
type TraceEncoder interface {
	// Encode encodes every list of the trace it was made for, each
	// connection on a fresh encoder, reading each list's recorded
	// DecoderStream back after it. It returns the bytes written (sections
	// and encoder stream) and, with keep, what each list wrote.
	Encode(keep bool) (n int, wires []Wire, err error)
	Close()
}

// TraceDecoder decodes a whole trace per call (see TraceEncoder).
type TraceDecoder interface {
	// Decode decodes every list of the trace it was made for into c.
	Decode(c *Collector) error
	Close()
}

// EncoderRow is an implementation's row in an encode trace benchmark.
type EncoderRow struct {
	Impl string // the row's name: impl=Impl
	// StaticOnly marks an encoder without a dynamic table (quic-go's): it
	// runs at the Static setting only.
	StaticOnly bool
	// New returns the implementation's encoder for the recording run,
	// whose output is decoded back and checked, and, unless Trace is set,
	// for the timed runs.
	New func() ListEncoder
	// Trace, if set, makes the runner of the timed runs for t, the
	// recorded trace (each list's Wire as New's encoder wrote it). Its
	// output is checked against the recording byte for byte.
	Trace func(t *Trace, s Setting) (TraceEncoder, error)
}

// DecoderRow is an implementation's row in a decode trace benchmark.
type DecoderRow struct {
	Impl string // the row's name: impl=Impl
	// StaticOnly marks a decoder without a dynamic table (quic-go's).
	StaticOnly bool
	// New returns the implementation's decoder, unless Trace is set.
	New func() ListDecoder
	// Trace, if set, makes the runner of every run, the checked one
	// included.
	Trace func(t *Trace, s Setting) (TraceDecoder, error)
}

// Collector receives what a decoder delivers: it counts the fields, their
// name and value bytes, and the decoder-stream bytes, and in a checked run
// keeps the fields too. It is the decoders' hqpack sink (names and values
// alias the decoder's memory, nothing is copied but in a checked run) and
// the peers' emit function.
type Collector struct {
	Fields, Bytes, Stream int // fields, their name and value bytes, decoder-stream bytes
	// Kept holds every field of the trace in order, in a checked run.
	Kept conformance.Headers
	keep bool
}

// Keeping reports whether c keeps the fields (a checked run).
func (c *Collector) Keeping() bool { return c.keep }

// Field is hqpack's Sink method.
func (c *Collector) Field(name, value []byte, _ fastpath.Flags) error {
	c.Fields++
	c.Bytes += len(name) + len(value)
	if c.keep {
		c.Kept = append(c.Kept, conformance.Header{Name: string(name), Value: string(value)})
	}
	return nil
}

// Add takes a field a peer decoded.
func (c *Collector) Add(name, value string) {
	c.Fields++
	c.Bytes += len(name) + len(value)
	if c.keep {
		c.Kept = append(c.Kept, conformance.Header{Name: name, Value: value})
	}
}

// tally is what a run produced, which every timed run must reproduce.
type tally struct{ fields, bytes, stream int }

func (c *Collector) tally() tally { return tally{c.Fields, c.Bytes, c.Stream} }

// loopEncoder runs a ListEncoder over a trace: the Go rows' timed runs.
type loopEncoder struct {
	e ListEncoder
	t *Trace
	s Setting
}

func (r *loopEncoder) Encode(keep bool) (int, []Wire, error) {
	n := 0
	var wires []Wire
	for ci := range r.t.Conns {
		conn := &r.t.Conns[ci]
		if err := r.e.Start(r.s); err != nil {
			return 0, nil, err
		}
		for i := range conn.Lists {
			l := &conn.Lists[i]
			sec, es, err := r.e.Encode(i, l)
			if err != nil {
				return 0, nil, fmt.Errorf("%s list %d: %w", conn.Name, i, err)
			}
			n += len(sec) + len(es)
			if keep {
				wires = append(wires, Wire{Section: bytes.Clone(sec), EncoderStream: bytes.Clone(es)})
			}
			if len(l.DecoderStream) > 0 {
				if err := r.e.ReadDecoderStream(l.DecoderStream); err != nil {
					return 0, nil, fmt.Errorf("%s list %d: %w", conn.Name, i, err)
				}
			}
		}
	}
	return n, wires, nil
}

func (r *loopEncoder) Close() { closeIf(r.e) }

// loopDecoder runs a ListDecoder over a trace: the Go rows.
type loopDecoder struct {
	d ListDecoder
	t *Trace
	s Setting
}

func (r *loopDecoder) Decode(c *Collector) error {
	for ci := range r.t.Conns {
		conn := &r.t.Conns[ci]
		if err := r.d.Start(r.s); err != nil {
			return err
		}
		for i := range conn.Lists {
			ds, err := r.d.Decode(i, &conn.Lists[i], c)
			if err != nil {
				return fmt.Errorf("%s list %d: %w", conn.Name, i, err)
			}
			c.Stream += len(ds)
		}
	}
	return nil
}

func (r *loopDecoder) Close() { closeIf(r.d) }

// closeIf closes what holds memory outside Go's heap (the C libraries'
// codecs).
func closeIf(v any) {
	if c, ok := v.(interface{ Close() }); ok {
		c.Close()
	}
}

// Record encodes t with e, each list decoded at once by ref, whose decoder
// stream goes back to e before the next list, and checks that ref decoded
// every list as it was. It returns t with each list's Wire: what e sent and
// what ref sent back.
func Record(t *Trace, s Setting, e ListEncoder, ref ListDecoder) (*Trace, error) {
	defer closeIf(e)
	defer closeIf(ref)
	rec := &Trace{Name: t.Name, Conns: make([]Conn, len(t.Conns)), Strings: t.Strings}
	c := &Collector{keep: true}
	for ci, conn := range t.Conns {
		if err := e.Start(s); err != nil {
			return nil, err
		}
		if err := ref.Start(s); err != nil {
			return nil, err
		}
		lists := slices.Clone(conn.Lists)
		for i := range lists {
			l := &lists[i]
			sec, es, err := e.Encode(i, l)
			if err != nil {
				return nil, fmt.Errorf("%s list %d: %w", conn.Name, i, err)
			}
			l.Wire = Wire{Section: bytes.Clone(sec), EncoderStream: bytes.Clone(es)}
			c.Kept = c.Kept[:0]
			ds, err := ref.Decode(i, l, c)
			if err != nil {
				return nil, fmt.Errorf("%s list %d: decoding back: %w", conn.Name, i, err)
			}
			if err := sameFields(c.Kept, l.Fields); err != nil {
				return nil, fmt.Errorf("%s list %d: decoded back: %w", conn.Name, i, err)
			}
			l.DecoderStream = bytes.Clone(ds)
			if len(ds) > 0 {
				if err := e.ReadDecoderStream(ds); err != nil {
					return nil, fmt.Errorf("%s list %d: %w", conn.Name, i, err)
				}
			}
		}
		rec.Conns[ci] = Conn{Name: conn.Name, Lists: lists}
	}
	return rec, nil
}

// sameFields compares decoded fields with the list's.
func sameFields(got, want conformance.Headers) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d fields, want %d", len(got), len(want))
	}
	for j := range want {
		if got[j] != want[j] {
			return fmt.Errorf("field %d: %q: %q, want %q: %q", j, got[j].Name, got[j].Value, want[j].Name, want[j].Value)
		}
	}
	return nil
}

// timed runs run b.N times in b.Loop and reports ns/list beside ns/op and
// allocs/op, which are per trace.
func timed(b *testing.B, lists int, run func()) {
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lists), "ns/list")
}

// benchEncode runs an encode row on in at s: the recording run (decoded
// back by ref and checked), a run of the timed runner that must write the
// recording's bytes (and warms it), then the timed runs, each of which
// must write as many bytes.
func benchEncode(b *testing.B, in *Trace, s Setting, row EncoderRow, ref func() ListDecoder) {
	rec, err := Record(in, s, row.New(), ref())
	if err != nil {
		b.Fatalf("%s: %v", row.Impl, err)
	}
	want := 0
	var wires []Wire
	for _, conn := range rec.Conns {
		for _, l := range conn.Lists {
			want += len(l.Section) + len(l.EncoderStream)
			wires = append(wires, Wire{Section: l.Section, EncoderStream: l.EncoderStream})
		}
	}
	var r TraceEncoder
	if row.Trace != nil {
		if r, err = row.Trace(rec, s); err != nil {
			b.Fatal(err)
		}
	} else {
		r = &loopEncoder{row.New(), rec, s}
	}
	defer r.Close()
	_, got, err := r.Encode(true)
	if err != nil {
		b.Fatal(err)
	}
	if err := sameWires(got, wires); err != nil {
		b.Fatalf("%s: the timed runner wrote other bytes than the recording: %v", row.Impl, err)
	}
	var n int
	timed(b, rec.Lists(), func() {
		if n, _, err = r.Encode(false); err != nil {
			b.Fatal(err)
		}
	})
	if n != want {
		b.Fatalf("%s: the timed runs wrote %d bytes, the recording %d", row.Impl, n, want)
	}
	b.ReportMetric(float64(n)/float64(rec.Lists()), "wire-B/list")
}

// sameWires compares what two runs of an encoder wrote.
func sameWires(got, want []Wire) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d lists, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i].Section, want[i].Section) || !bytes.Equal(got[i].EncoderStream, want[i].EncoderStream) {
			return fmt.Errorf("list %d of the trace: section %x, encoder stream %x; want %x, %x", i, got[i].Section, got[i].EncoderStream, want[i].Section, want[i].EncoderStream)
		}
	}
	return nil
}

// benchDecode runs a decode row on in at s: a checked run (every field of
// the trace, in order), then the timed runs, each of which must deliver as
// many fields and bytes and send as many decoder-stream bytes.
func benchDecode(b *testing.B, in *Trace, s Setting, row DecoderRow) {
	var r TraceDecoder
	if row.Trace != nil {
		var err error
		if r, err = row.Trace(in, s); err != nil {
			b.Fatal(err)
		}
	} else {
		r = &loopDecoder{row.New(), in, s}
	}
	defer r.Close()
	c := &Collector{keep: true}
	if err := r.Decode(c); err != nil {
		b.Fatalf("%s: %v", row.Impl, err)
	}
	var want conformance.Headers
	for _, conn := range in.Conns {
		for _, l := range conn.Lists {
			want = append(want, l.Fields...)
		}
	}
	if err := sameFields(c.Kept, want); err != nil {
		b.Fatalf("%s decoded the trace wrong: %v", row.Impl, err)
	}
	checked := c.tally()
	timed(b, in.Lists(), func() {
		*c = Collector{}
		if err := r.Decode(c); err != nil {
			b.Fatal(err)
		}
	})
	if got := c.tally(); got != checked {
		b.Fatalf("%s: a timed run delivered %+v, the checked run %+v", row.Impl, got, checked)
	}
}
