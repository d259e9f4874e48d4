package fuzz

import (
	"fmt"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/qpack"
)

// FuzzEncoderMisuse runs a random sequence of calls on an HPACK and a QPACK
// encoder, as a careless server might make them: Begin, Continue (with no
// section, after Done, into empty buffers), AppendSection of a new list or
// of the same one again, sections abandoned part way, Init part way, and
// the caller's FieldList reset, refilled, rewound, moved or added to
// between pieces. Neither encoder may panic, and every section either
// completes and decodes to the fields of its list (HPACK: our decoder and
// x/net's; QPACK: our decoder, the encoder stream delivered first) or is
// refused with a result the documentation gives for the call:
// BufferTooSmall for an empty buffer, NoSection without a section,
// ListChanged (hpack) for a list changed under a section. A QPACK section
// is planned whole by Begin, so what becomes of its list afterwards does
// not change it.
func FuzzEncoderMisuse(f *testing.F) {
	// Begin in 3-byte buffers, the list reset and refilled, Continue
	// (ListChanged), Begin again, Continue to the end, the list twice.
	f.Add([]byte("\x00\x00\x03\x03\x03\x00\x03\x01\x04\x05\x03\x04\x00\x00\x05\x01\x03\x00\x03\x01\x03\x01\x03\x01\x03\x03"))
	// Empty buffers, Continue with nothing begun, Init part way.
	f.Add([]byte("\x64\x01\x01\x00\x00\x02\x03\x00\x04\x00\x01\x00\x01\x05\x06\x00\x03\x02\x00\x01\x02\x01\x02"))
	// A field longer than the buffer, the list added to between pieces.
	f.Add([]byte("\x04\x12\x00\x02\x03\x07\x10abcdefghijklmnop\x08x-custom\x04\x04\x02\x07\x03q\x03v\x01\x03\x01\x03\x01\x03\x01\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := script{data}
		c1 := s.byte()
		h := newHPACKMisuse(t, hpack.Config{
			TableLimit: []int{4096, 0, 256, 100}[c1&3],
			Indexing:   fastpath.Indexing(c1 >> 2 & 3 % 3),
			Huffman:    fastpath.HuffmanPolicy(c1 >> 4 % 3),
		})
		ec, dc := readQPACKConfig(&s)
		q := newQPACKMisuse(t, ec, dc)
		for ops := 0; s.more() && ops < 48; ops++ {
			op := s.byte()
			switch op & 7 {
			case 0: // Begin with a new list
				fs := readFields(&s, 6)
				size := misuseBuffer(&s)
				h.begin(fs, size)
				q.begin(fs, size)
			case 1, 2: // Continue
				size := misuseBuffer(&s)
				h.next(size)
				q.next(size)
			case 3: // AppendSection of a new list, or of the same list again
				if op&8 != 0 {
					fs := readFields(&s, 6)
					h.setList(fs)
					q.setList(fs)
				}
				h.appendSection()
				q.appendSection()
			case 4, 5: // the list changes under the encoders
				change, fs, k := int(op>>3)%5, []tfield(nil), s.pick(8)-1
				if change == 0 || change == 4 {
					fs = readFields(&s, 3)
				}
				h.change(change, fs, k)
				q.change(change, fs, k)
			case 6: // a new connection, a section unfinished or not
				h.init()
				q.init()
			case 7: // the peer's table size, between sections (HPACK)
				h.setTableSize(uint32(s.uint16()) >> (op >> 3 & 15))
			}
		}
	})
}

// misuseBuffer reads a buffer size: empty, a few bytes, or a frame.
func misuseBuffer(s *script) int {
	switch c := s.byte(); {
	case c < 16:
		return 0
	case c < 240:
		return int(c-16)%40 + 1
	default:
		return 16 << 10
	}
}

// misuseList keeps the caller's FieldList and what it holds.
type misuseList struct {
	l  *fastpath.FieldList
	fs []tfield
}

func (m *misuseList) set(fs []tfield) {
	m.l = new(fastpath.FieldList)
	addFields(m.l, fs)
	m.fs = fs
}

// change applies one of the changes a caller might make to the list:
// Reset and refill with fs, Rewind, Seek(k), Next, or Add fs.
func (m *misuseList) change(change int, fs []tfield, k int) {
	if m.l == nil {
		m.set(nil)
	}
	switch change {
	case 0:
		m.l.Reset()
		m.fs = nil
		fallthrough
	case 4:
		addFields(m.l, fs)
		m.fs = append(m.fs[:len(m.fs):len(m.fs)], fs...)
	case 1:
		m.l.Rewind()
	case 2:
		m.l.Seek(k)
	case 3:
		m.l.Next()
	}
}

// checkResult checks a Begin or Continue result against the size of the
// buffer and says whether a piece was written.
func checkResult(t *testing.T, codec string, n int, res fastpath.Result, size int) {
	t.Helper()
	switch {
	case n > size:
		t.Fatalf("%s: %d bytes written into a %d-byte buffer", codec, n, size)
	case res == fastpath.MoreFields && n == 0:
		t.Fatalf("%s: MoreFields with nothing written", codec)
	case res == fastpath.BufferTooSmall && (size != 0 || n != 0):
		t.Fatalf("%s: BufferTooSmall with a %d-byte buffer, %d written", codec, size, n)
	case res != fastpath.Done && res != fastpath.MoreFields && res != fastpath.BufferTooSmall:
		t.Fatalf("%s: %v for a section in progress", codec, res)
	}
}

// hpackMisuse is an HPACK encoder and the decoders at the other end.
type hpackMisuse struct {
	t      *testing.T
	conf   hpack.Config
	enc    hpack.Encoder
	dec    hpack.Decoder
	theirs *xhpack.Decoder // nil once out of step (golang/go#29187)
	list   misuseList

	open    bool    // a section is begun and not done
	want    []field // its fields, as the list held them at Begin
	pieces  []byte  // what it has written
	dirty   bool    // the list's contents changed during it
	pos, ln int     // the list's position after the last piece, its length at Begin
	got     []xhpack.HeaderField
}

func newHPACKMisuse(t *testing.T, conf hpack.Config) *hpackMisuse {
	h := &hpackMisuse{t: t, conf: conf}
	h.init()
	return h
}

func (h *hpackMisuse) init() {
	h.enc.Init(h.conf)
	h.dec.Init(hpack.DecoderConfig{MaxSectionSize: 1 << 22})
	h.theirs = xhpack.NewDecoder(4096, func(f xhpack.HeaderField) { h.got = append(h.got, f) })
	h.open = false
}

func (h *hpackMisuse) setList(fs []tfield) { h.list.set(fs) }

func (h *hpackMisuse) setTableSize(v uint32) {
	if h.open {
		return // SETTINGS take effect between sections here
	}
	h.enc.SetMaxTableSize(v)
	h.dec.SetMaxTableSize(v)
	if h.theirs != nil {
		h.theirs.SetAllowedMaxDynamicTableSize(v)
	}
}

func (h *hpackMisuse) begin(fs []tfield, size int) {
	h.list.set(fs)
	h.open, h.want, h.pieces, h.dirty = true, expected(fs), h.pieces[:0], false
	h.ln = h.list.l.Len()
	buf := make([]byte, size)
	n, res := h.enc.Begin(buf, h.list.l)
	h.pieces = append(h.pieces, buf[:n]...)
	h.piece(n, res, size)
}

func (h *hpackMisuse) next(size int) {
	changed := h.list.l != nil && (h.list.l.Pos() != h.pos || h.list.l.Len() != h.ln)
	buf := make([]byte, size)
	n, res := h.enc.Continue(buf)
	switch {
	case !h.open:
		if n != 0 || res != fastpath.NoSection {
			h.t.Fatalf("hpack: Continue with no section: %d, %v", n, res)
		}
	case changed:
		if n != 0 || res != fastpath.ListChanged {
			h.t.Fatalf("hpack: Continue after the list changed: %d, %v", n, res)
		}
	default:
		h.pieces = append(h.pieces, buf[:n]...)
		h.piece(n, res, size)
	}
}

// piece takes the result of Begin or Continue.
func (h *hpackMisuse) piece(n int, res fastpath.Result, size int) {
	h.t.Helper()
	checkResult(h.t, "hpack", n, res, size)
	h.pos = h.list.l.Pos()
	if res == fastpath.Done {
		h.open = false
		h.receive(h.pieces, h.want, !h.dirty)
	}
}

func (h *hpackMisuse) appendSection() {
	if h.list.l == nil {
		h.list.set(nil)
	}
	h.open = false
	h.receive(h.enc.AppendSection(nil, h.list.l), expected(h.list.fs), true)
}

func (h *hpackMisuse) change(change int, fs []tfield, k int) {
	h.list.change(change, fs, k)
	if change == 0 || change == 4 {
		h.dirty = true
	}
}

// receive decodes a section; with strict, it must hold want.
func (h *hpackMisuse) receive(block []byte, want []field, strict bool) {
	h.t.Helper()
	var ours sink
	err := h.dec.Write(block, &ours)
	if err == nil {
		err = h.dec.End()
	}
	if err != nil || strict && !sameFields(ours.got, want) {
		h.t.Fatalf("hpack %+v: section % x: we decode %v, %v; want %v", h.conf, block, ours.got, err, want)
	}
	if h.theirs == nil {
		return
	}
	h.got = h.got[:0]
	if _, err = h.theirs.Write(block); err == nil {
		err = h.theirs.Close()
	}
	switch {
	case err != nil && strings.Contains(err.Error(), "MUST occur at the beginning") && len(scanHPACK(block).updates) == 2:
		h.theirs = nil // golang/go#29187, as in FuzzHPACKRoundTrip
	case err != nil || !sameFields(fromX(h.got), ours.got):
		h.t.Fatalf("hpack %+v: section % x: x/net decodes %v, %v; we %v", h.conf, block, fromX(h.got), err, ours.got)
	}
}

// sameFields compares names and values; the indexing policies may make a
// field never indexed.
func sameFields(got, want []field) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Name != want[i].Name || got[i].Value != want[i].Value {
			return false
		}
	}
	return true
}

// qpackMisuse is a QPACK encoder and the decoder at the other end, each
// section on a stream of its own, the encoder stream delivered before it.
type qpackMisuse struct {
	t      *testing.T
	ec     qpack.EncoderConfig
	dc     qpack.DecoderConfig
	enc    qpack.Encoder
	dec    qpack.Decoder
	list   misuseList
	stream uint64

	open   bool
	want   []field
	pieces []byte
}

func newQPACKMisuse(t *testing.T, ec qpack.EncoderConfig, dc qpack.DecoderConfig) *qpackMisuse {
	q := &qpackMisuse{t: t, ec: ec, dc: dc}
	q.init()
	return q
}

func (q *qpackMisuse) init() {
	q.enc.Init(q.ec)
	q.dec.Init(q.dc)
	q.open = false
}

func (q *qpackMisuse) setList(fs []tfield) { q.list.set(fs) }

func (q *qpackMisuse) change(change int, fs []tfield, k int) { q.list.change(change, fs, k) }

// newStream abandons a section in progress (its stream reset: the decoder
// cancels it) and returns a new stream ID.
func (q *qpackMisuse) newStream() uint64 {
	if q.open {
		if err := q.dec.CancelStream(q.stream); err != nil {
			q.fatalf("CancelStream(%d): %v", q.stream, err)
		}
		q.decoderStream()
		q.open = false
	}
	q.stream += 4
	return q.stream
}

func (q *qpackMisuse) begin(fs []tfield, size int) {
	stream := q.newStream()
	q.list.set(fs)
	q.open, q.want, q.pieces = true, expected(fs), q.pieces[:0]
	buf := make([]byte, size)
	n, res := q.enc.Begin(stream, buf, q.list.l)
	q.pieces = append(q.pieces, buf[:n]...)
	q.piece(n, res, size)
}

func (q *qpackMisuse) next(size int) {
	buf := make([]byte, size)
	n, res := q.enc.Continue(buf)
	if !q.open {
		if n != 0 || res != fastpath.NoSection {
			q.fatalf("Continue with no section: %d, %v", n, res)
		}
		return
	}
	q.pieces = append(q.pieces, buf[:n]...)
	q.piece(n, res, size)
}

func (q *qpackMisuse) piece(n int, res fastpath.Result, size int) {
	q.t.Helper()
	checkResult(q.t, "qpack", n, res, size)
	if res == fastpath.Done {
		q.open = false
		q.receive(q.stream, q.pieces, q.want)
	}
}

func (q *qpackMisuse) appendSection() {
	if q.list.l == nil {
		q.list.set(nil)
	}
	stream := q.newStream()
	q.receive(stream, q.enc.AppendSection(stream, nil, q.list.l), expected(q.list.fs))
}

// receive delivers the encoder stream, then the section, which must hold
// want, then the decoder stream.
func (q *qpackMisuse) receive(stream uint64, section []byte, want []field) {
	q.t.Helper()
	if err := q.dec.ReadEncoderStream(q.enc.AppendEncoderStream(nil)); err != nil {
		q.fatalf("encoder stream: %v", err)
	}
	var got sink
	blocked, err := q.dec.DecodeSection(stream, section, &got)
	if blocked || err != nil || !sameFields(got.got, want) {
		q.fatalf("stream %d, section % x: decoded %v (blocked %v, %v), want %v", stream, section, got.got, blocked, err, want)
	}
	q.decoderStream()
}

func (q *qpackMisuse) decoderStream() {
	ds := q.dec.AppendDecoderStream(nil)
	if q.ec.AckMode != qpack.AckDecoderStream {
		return // counted already (AckImmediate), or not read (AckNever)
	}
	if err := q.enc.ReadDecoderStream(ds); err != nil {
		q.fatalf("decoder stream: %v", err)
	}
}

func (q *qpackMisuse) fatalf(format string, args ...any) {
	q.t.Helper()
	q.t.Fatalf("qpack %+v: %s", q.ec, fmt.Sprintf(format, args...))
}
