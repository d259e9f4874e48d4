package trace

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// HPACKEncode runs BenchmarkHPACKTraceEncode: the 32 raw-data stories of
// hpack-test-case (3,384 lists), each a connection with HTTP/2's 4096-byte
// table, their strings fresh or interned (strings=), encoded by hqpack, by
// x/net and by the extra rows (impl=). Every encoder's output is decoded
// back by x/net's decoder and checked.
func HPACKEncode(b *testing.B, extra ...EncoderRow) {
	t := hpackLists.get(b)
	rows := append([]EncoderRow{
		{Impl: "hqpack", New: func() ListEncoder { return new(hqpackHPACKEncoder) }},
		{Impl: "xnet", New: func() ListEncoder { return new(xnetEncoder) }},
	}, extra...)
	for _, s := range []Strings{Fresh, Interned} {
		in := t.Copy(s)
		b.Run("strings="+s.String(), func(b *testing.B) {
			for _, row := range rows {
				b.Run("impl="+row.Impl, func(b *testing.B) {
					benchEncode(b, in, Setting{}, row, func() ListDecoder { return new(xnetDecoder) })
				})
			}
		})
	}
}

// HPACKDecode runs BenchmarkHPACKTraceDecode: the blocks of the
// HPACKDecodeFolders stories (20,187), each story a connection decoded in
// order, its header_table_size settings applied, by hqpack, by x/net and by
// the extra rows.
func HPACKDecode(b *testing.B, extra ...DecoderRow) {
	t := hpackBlocks.get(b)
	rows := append([]DecoderRow{
		{Impl: "hqpack", New: func() ListDecoder { return new(hqpackHPACKDecoder) }},
		{Impl: "xnet", New: func() ListDecoder { return new(xnetDecoder) }},
	}, extra...)
	for _, row := range rows {
		b.Run("impl="+row.Impl, func(b *testing.B) { benchDecode(b, t, Setting{}, row) })
	}
}

// Fill builds l in fl as a server using hqpack does for every message:
// Reset, then Add per field, its plain decimal content-length added raw.
func Fill(fl *fastpath.FieldList, l *List) {
	fl.Reset()
	for j, f := range l.Fields {
		if j == l.CL {
			fl.AddContentLength(l.CLValue)
			continue
		}
		fl.Add(f.Name, f.Value, 0)
	}
}

// hqpackHPACKEncoder is hqpack's HPACK encoder as an HTTP/2 server uses
// it: the list built per message, encoded with Begin (and Continue) into a
// HEADERS frame's 16 KiB payload.
type hqpackHPACKEncoder struct {
	e     hpack.Encoder
	l     fastpath.FieldList
	frame []byte
	out   []byte // a section of more than one frame
}

func (h *hqpackHPACKEncoder) Start(Setting) error {
	h.e.Init(hpack.Config{})
	if h.frame == nil {
		h.frame = make([]byte, 16<<10)
	}
	return nil
}

func (h *hqpackHPACKEncoder) Encode(_ int, l *List) ([]byte, []byte, error) {
	Fill(&h.l, l)
	n, res := h.e.Begin(h.frame, &h.l)
	if res == fastpath.Done {
		return h.frame[:n], nil, nil
	}
	h.out = append(h.out[:0], h.frame[:n]...)
	for res == fastpath.MoreFields {
		n, res = h.e.Continue(h.frame)
		h.out = append(h.out, h.frame[:n]...)
	}
	if res != fastpath.Done {
		return nil, nil, fmt.Errorf("Begin/Continue: %v", res)
	}
	return h.out, nil, nil
}

func (h *hqpackHPACKEncoder) ReadDecoderStream([]byte) error { return nil }

// xnetEncoder is x/net's encoder as its HTTP/2 server uses it: WriteField
// per field into a bytes.Buffer, a new encoder per connection.
type xnetEncoder struct {
	buf bytes.Buffer
	e   *xhpack.Encoder
}

func (x *xnetEncoder) Start(Setting) error {
	x.e = xhpack.NewEncoder(&x.buf)
	return nil
}

func (x *xnetEncoder) Encode(_ int, l *List) ([]byte, []byte, error) {
	x.buf.Reset()
	for _, f := range l.Fields {
		if err := x.e.WriteField(xhpack.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
			return nil, nil, err
		}
	}
	return x.buf.Bytes(), nil, nil
}

func (x *xnetEncoder) ReadDecoderStream([]byte) error { return nil }

// hqpackHPACKDecoder is hqpack's decoder, re-Init'ed per connection, into
// the Collector (no copies).
type hqpackHPACKDecoder struct{ d hpack.Decoder }

func (h *hqpackHPACKDecoder) Start(Setting) error {
	h.d.Init(hpack.DecoderConfig{})
	return nil
}

func (h *hqpackHPACKDecoder) Decode(_ int, l *List, c *Collector) ([]byte, error) {
	if l.Size >= 0 {
		h.d.SetMaxTableSize(uint32(l.Size))
	}
	return nil, h.d.Decode(l.Section, c)
}

// xnetDecoder is x/net's decoder as its HTTP/2 Framer uses it: Write, then
// Close, with an emit function; a new decoder per connection.
type xnetDecoder struct {
	d *xhpack.Decoder
	c *Collector
}

func (x *xnetDecoder) Start(Setting) error {
	x.d = xhpack.NewDecoder(hpack.DefaultTableSize, func(f xhpack.HeaderField) { x.c.Add(f.Name, f.Value) })
	return nil
}

func (x *xnetDecoder) Decode(_ int, l *List, c *Collector) ([]byte, error) {
	x.c = c
	if l.Size >= 0 {
		x.d.SetAllowedMaxDynamicTableSize(uint32(l.Size))
	}
	if _, err := x.d.Write(l.Section); err != nil {
		return nil, err
	}
	return nil, x.d.Close()
}
