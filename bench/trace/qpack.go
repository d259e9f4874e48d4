package trace

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
	quicgo "github.com/quic-go/qpack"
)

// QPACKEncode runs BenchmarkQPACKTraceEncode: the QIFs (1,568 lists), each
// a connection, at the Static and Dynamic settings (table=), their strings
// fresh or interned (strings=), encoded by hqpack, by quic-go (static only)
// and by the extra rows. Every encoder's output is decoded back by hqpack's
// decoder and checked; at Dynamic, the decoder stream that decoder sent
// after each list is what the encoder reads back in the timed runs.
func QPACKEncode(b *testing.B, extra ...EncoderRow) {
	t := qpackLists.get(b)
	rows := append([]EncoderRow{
		{Impl: "hqpack", New: func() ListEncoder { return new(hqpackQPACKEncoder) }},
		{Impl: "quicgo", StaticOnly: true, New: func() ListEncoder { return new(quicgoEncoder) }},
	}, extra...)
	ins := []*Trace{t.Copy(Fresh), t.Copy(Interned)}
	for _, s := range []Setting{Static, Dynamic} {
		b.Run("table="+s.String(), func(b *testing.B) {
			for _, in := range ins {
				b.Run("strings="+in.Strings.String(), func(b *testing.B) {
					for _, row := range rows {
						if row.StaticOnly && s != Static {
							continue
						}
						b.Run("impl="+row.Impl, func(b *testing.B) {
							benchEncode(b, in, s, row, func() ListDecoder { return new(hqpackQPACKDecoder) })
						})
					}
				})
			}
		})
	}
}

// QPACKDecode runs BenchmarkQPACKTraceDecode: the QIFs as hqpack's encoder
// writes them at each setting (recorded once, with the encoder stream before
// each section), decoded by hqpack, by quic-go (static only) and by the
// extra rows, each producing its decoder stream after each section.
func QPACKDecode(b *testing.B, extra ...DecoderRow) {
	t := qpackLists.get(b)
	rows := append([]DecoderRow{
		{Impl: "hqpack", New: func() ListDecoder { return new(hqpackQPACKDecoder) }},
		{Impl: "quicgo", StaticOnly: true, New: func() ListDecoder { return new(quicgoDecoder) }},
	}, extra...)
	for _, s := range []Setting{Static, Dynamic} {
		b.Run("table="+s.String(), func(b *testing.B) {
			in, err := Record(t, s, new(hqpackQPACKEncoder), new(hqpackQPACKDecoder))
			if err != nil {
				b.Fatal(err)
			}
			for _, row := range rows {
				if row.StaticOnly && s != Static {
					continue
				}
				b.Run("impl="+row.Impl, func(b *testing.B) { benchDecode(b, in, s, row) })
			}
		})
	}
}

// hqpackQPACKEncoder is hqpack's QPACK encoder as an HTTP/3 server uses it:
// the list built per message, AppendSection into a reused buffer, then the
// encoder stream's new bytes, and the peer's decoder stream read back.
type hqpackQPACKEncoder struct {
	e       qpack.Encoder
	l       fastpath.FieldList
	sec, es []byte
	dyn     bool
}

func (h *hqpackQPACKEncoder) Start(s Setting) error {
	h.e.Init(qpack.EncoderConfig{MaxTableCapacity: s.Capacity, MaxBlockedStreams: s.Blocked, TableCapacity: s.Capacity})
	h.dyn = s.Capacity > 0
	return nil
}

func (h *hqpackQPACKEncoder) Encode(i int, l *List) ([]byte, []byte, error) {
	Fill(&h.l, l)
	h.sec = h.e.AppendSection(StreamID(i), h.sec[:0], &h.l)
	if h.dyn {
		h.es = h.e.AppendEncoderStream(h.es[:0])
	}
	return h.sec, h.es, nil
}

func (h *hqpackQPACKEncoder) ReadDecoderStream(ds []byte) error { return h.e.ReadDecoderStream(ds) }

// quicgoEncoder is quic-go's encoder as its HTTP/3 code uses it: WriteField
// per field into a bytes.Buffer, then Close; one encoder per connection.
type quicgoEncoder struct {
	buf bytes.Buffer
	e   *quicgo.Encoder
}

func (q *quicgoEncoder) Start(Setting) error {
	q.e = quicgo.NewEncoder(&q.buf)
	return nil
}

func (q *quicgoEncoder) Encode(_ int, l *List) ([]byte, []byte, error) {
	q.buf.Reset()
	for _, f := range l.Fields {
		if err := q.e.WriteField(quicgo.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
			return nil, nil, err
		}
	}
	return q.buf.Bytes(), nil, q.e.Close()
}

func (q *quicgoEncoder) ReadDecoderStream([]byte) error { return nil }

// hqpackQPACKDecoder is hqpack's QPACK decoder, re-Init'ed per connection,
// into the Collector (no copies), with its decoder stream after each
// section.
type hqpackQPACKDecoder struct {
	d   qpack.Decoder
	ds  []byte
	dyn bool
}

func (h *hqpackQPACKDecoder) Start(s Setting) error {
	h.d.Init(qpack.DecoderConfig{MaxTableCapacity: s.Capacity, MaxBlockedStreams: s.Blocked})
	h.dyn = s.Capacity > 0
	return nil
}

func (h *hqpackQPACKDecoder) Decode(i int, l *List, c *Collector) ([]byte, error) {
	if len(l.EncoderStream) > 0 {
		if err := h.d.ReadEncoderStream(l.EncoderStream); err != nil {
			return nil, err
		}
	}
	blocked, err := h.d.DecodeSection(StreamID(i), l.Section, c)
	if err == nil && blocked {
		err = fmt.Errorf("blocked with its encoder stream read")
	}
	if err != nil || !h.dyn {
		return nil, err
	}
	h.ds = h.d.AppendDecoderStream(h.ds[:0])
	return h.ds, nil
}

// quicgoDecoder is quic-go's decoder: the DecodeFunc called to io.EOF.
type quicgoDecoder struct{ d *quicgo.Decoder }

func (q *quicgoDecoder) Start(Setting) error {
	q.d = quicgo.NewDecoder()
	return nil
}

func (q *quicgoDecoder) Decode(_ int, l *List, c *Collector) ([]byte, error) {
	next := q.d.Decode(l.Section)
	for {
		f, err := next()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		c.Add(f.Name, f.Value)
	}
}
