package fuzz

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	quicqpack "github.com/quic-go/qpack"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
)

// FuzzQPACKDecode drives one QPACK Decoder with a script: a settings byte,
// then records of a kind byte, a length byte and a payload. Kinds (low two
// bits): encoder-stream bytes; a field section on stream kind>>3 (with bit
// 2 set, the payload is a program for buildQPACK instead); a cancellation
// of stream kind>>3; a drain of the unblocked sections and of the decoder
// stream. Encoder-stream bytes and sections on several streams
// thus arrive in any interleaving, with cancellations.
//
// It checks that nothing panics; that the table, the blocked streams, the
// decoded sections and the decoder-stream output stay within the limits
// given; that errors are *qpack.Error values whose code fits their cause
// (QPACK_ENCODER_STREAM_ERROR for the encoder stream, H3_MESSAGE_ERROR for
// limits and malformed fields, QPACK_DECOMPRESSION_FAILED for the rest)
// and that after a connection error every call reports ErrClosed; that each
// section blocks or not, or is rejected, as a reference reading of its
// prefix (RFC 9204 §4.5.1) says; and, differentially, that every section's
// field lines decode as github.com/quic-go/qpack decodes them on a
// static-only connection (README.md lists where the prefix may differ).
func FuzzQPACKDecode(f *testing.F) {
	rec := func(recs ...any) []byte {
		var b []byte
		for i := 0; i < len(recs); i += 2 {
			b = appendRecord(b, byte(recs[i].(int)), unhex(recs[i+1].(string)))
		}
		return b
	}
	const enc, drain = 0, 3
	sec := func(stream int) int { return stream<<3 | 1 }
	cancel := func(stream int) int { return stream<<3 | 2 }
	built := func(stream int) int { return stream<<3 | 5 }
	// RFC 9204 Appendix B with capacity 220 and 100 blocked streams (cfg 2|3<<2).
	f.Add(uint8(0x0e), rec(sec(0), "0000510b2f696e6465782e68746d6c",
		sec(4), "03811011", enc, "3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468", drain, "",
		enc, "4a637573746f6d2d6b65790c637573746f6d2d76616c7565", drain, "", enc, "02",
		sec(8), "050080c181", drain, "", enc, "810d637573746f6d2d76616c756532", drain, ""))
	// Blocked and cancelled; many inserts and Duplicates, so the Required
	// Insert Count wraps (capacity 100: MaxEntries 3, FullRange 6).
	f.Add(uint8(0x2d), rec(sec(1), "0300c0", cancel(1), "", enc, "3f45c00161", sec(2), "0200c080", drain, "",
		enc, "000000000000000000", sec(3), "0500818280", drain, "", enc, "00000000", sec(5), "0300808182", drain, ""))
	f.Add(uint8(0x05), rec(enc, "3f4540017801790000000000", sec(1), "0400808182", sec(2), "0600c0", sec(3), "07008081", drain, ""))
	// Static-only sections: every representation, Huffman, bad indexes,
	// the Base sign, a truncated prefix.
	f.Add(uint8(0x00), rec(sec(0), "0000d1d7c0ff24", sec(0), "00005f1d8aa9649bb5d3a5ca9fea", sec(0), "000027026b65790276",
		sec(0), "00002f0286f1e3c2e5f23a6ba0ab90f4ff", sec(0), "0000ff63", sec(0), "0080c1", sec(0), "0001c1", sec(0), "00", sec(0), "0000808080"))
	f.Add(uint8(0x10), rec(sec(0), "0000d1c0ff65", sec(0), "00002304486f7374", sec(0), "0000d9d1"))
	// Programs for buildQPACK.
	f.Add(uint8(0x00), rec(built(0), "00 00 11 01 05 0568656c6c6f 42 1f 0378797a 03 61 2b 026162 027879 07 02", built(1), "00 00 10 62 03 00 0b 0461626364"))
	f.Add(uint8(0x06), rec(enc, "3fbd01c00f7777772e6578616d706c652e636f6d", built(2), "02 00 80 00 06 01 03 04 01 7f", drain, ""))
	f.Fuzz(func(t *testing.T, cfg uint8, data []byte) {
		qpackDecodeScript(t, cfg, data)
	})
}

func qpackDecodeScript(t *testing.T, cfg uint8, data []byte) {
	c := qpack.DecoderConfig{
		MaxTableCapacity:       []uint64{0, 100, 220, 4096}[cfg&3],
		MaxBlockedStreams:      uint64(cfg>>2) & 3,
		Validate:               cfg&0x10 != 0,
		MaxSectionSize:         []int{0, 300}[cfg>>6&1],
		MaxEncoderStreamBuffer: []int{0, 50}[cfg>>7],
	}
	if cfg&0x20 != 0 {
		c.InitialCapacity = c.MaxTableCapacity
	}
	maxSection := c.MaxSectionSize
	if maxSection == 0 {
		maxSection = 64 << 10 // the default
	}
	var d qpack.Decoder
	d.Init(c)
	q := &qpackChecker{t: t, d: &d, held: map[uint64]bool{}}
	var static qpackStatic
	var out []byte
	events := 0
	s := script{data}
	for i := 0; ; i++ {
		kind, p, ok := s.record()
		if !ok {
			return
		}
		stream := uint64(kind >> 3)
		q.where = fmt.Sprintf("record %d (kind %#x, % x)", i, kind, p)
		switch kind & 3 {
		case 0:
			q.encoderStream(d.ReadEncoderStream(p))
		case 1:
			if kind&4 != 0 {
				p = buildQPACK(p)
			}
			want := q.refPrefix(p, c.MaxTableCapacity/32)
			var got sink
			blocked, err := d.DecodeSection(stream, p, &got)
			q.section(stream, want, blocked, err, got.got, maxSection)
			events++
			static.compare(t, q.where, p)
		case 2:
			err := d.CancelStream(stream)
			if err != nil && !(q.closed && errors.Is(err, fastpath.ErrClosed)) {
				t.Fatalf("%s: CancelStream: %v", q.where, err)
			}
			delete(q.held, stream)
			events++
		case 3:
			for {
				id, ok := d.NextUnblocked()
				if !ok {
					break
				}
				if !q.held[id] {
					t.Fatalf("%s: NextUnblocked names stream %d, which holds no section", q.where, id)
				}
				var got sink
				blocked, err := d.DecodeUnblocked(id, &got)
				delete(q.held, id)
				if blocked || errors.Is(err, qpack.ErrNoBlockedSection) {
					t.Fatalf("%s: DecodeUnblocked(%d) after NextUnblocked: %v, %v", q.where, id, blocked, err)
				}
				q.sectionErr(err)
				q.limits(got.got, maxSection)
				events++
			}
			out = d.AppendDecoderStream(out[:0])
			if q.closed && len(out) > 0 {
				t.Fatalf("%s: decoder stream % x after a connection error", q.where, out)
			}
			// A Section Acknowledgment or Stream Cancellation per event,
			// then one Insert Count Increment: at most 9 bytes each.
			if len(out) > 9*(events+1) {
				t.Fatalf("%s: %d decoder-stream bytes for %d events", q.where, len(out), events)
			}
			events = 0
		}
		if size, capacity := d.TableSize(); size > capacity || uint64(capacity) > c.MaxTableCapacity {
			t.Fatalf("%s: table size %d, capacity %d, max %d", q.where, size, capacity, c.MaxTableCapacity)
		}
		if n := d.BlockedStreams(); uint64(n) > c.MaxBlockedStreams {
			t.Fatalf("%s: %d blocked streams, max %d", q.where, n, c.MaxBlockedStreams)
		}
	}
}

// qpackChecker follows one Decoder's errors and held sections.
type qpackChecker struct {
	t      *testing.T
	d      *qpack.Decoder
	where  string
	closed bool            // a connection error happened
	held   map[uint64]bool // streams with a section held
}

// prefixWant is what a section's prefix calls for.
type prefixWant struct {
	err     error  // the cause a bad prefix must give
	ric     uint64 // Required Insert Count
	inserts uint64 // the decoder's inserts when the section arrived
}

// refPrefix reads a section prefix as RFC 9204 §4.5.1 says, with the
// decoder's insert count.
func (q *qpackChecker) refPrefix(p []byte, maxEntries uint64) prefixWant {
	w := prefixWant{inserts: q.d.InsertCount()}
	enc, k, err := refReadInt(p, 8)
	if err != nil {
		w.err = refCause(err)
		return w
	}
	if enc != 0 {
		full := 2 * maxEntries
		if enc > full {
			w.err = qpack.ErrRequiredInsertCount
			return w
		}
		maxValue := w.inserts + maxEntries
		w.ric = maxValue/full*full + enc - 1
		if w.ric > maxValue {
			if w.ric <= full {
				w.err = qpack.ErrRequiredInsertCount
				return w
			}
			w.ric -= full
		}
		if w.ric == 0 {
			w.err = qpack.ErrRequiredInsertCount
			return w
		}
	}
	delta, _, err := refReadInt(p[k:], 7)
	switch {
	case err != nil:
		w.err = refCause(err)
	case p[k]&0x80 != 0 && delta >= w.ric:
		w.err = qpack.ErrRequiredInsertCount // a negative Base
	}
	return w
}

func refCause(err error) error {
	if err == errRefTruncated {
		return fastpath.ErrTruncated
	}
	return fastpath.ErrIntegerOverflow
}

// section checks the outcome of DecodeSection against the prefix.
func (q *qpackChecker) section(stream uint64, want prefixWant, blocked bool, err error, got []field, maxSection int) {
	t := q.t
	was := q.closed
	q.sectionErr(err)
	q.limits(got, maxSection)
	if was {
		return
	}
	if q.held[stream] {
		// A second section on a blocked stream is refused as it is, or
		// rejected for a bad prefix, whichever the decoder sees first.
		if !errors.Is(err, qpack.ErrStreamBlocked) && (want.err == nil || !errors.Is(err, want.err)) {
			t.Fatalf("%s: a second section on blocked stream %d: %v, %v", q.where, stream, blocked, err)
		}
		return
	}
	if errors.Is(err, qpack.ErrStreamBlocked) {
		t.Fatalf("%s: ErrStreamBlocked for stream %d, which holds no section", q.where, stream)
	}
	switch {
	case want.err != nil:
		if !errors.Is(err, want.err) {
			t.Fatalf("%s: prefix calls for %v, got blocked %v, %v", q.where, want.err, blocked, err)
		}
	case want.ric > want.inserts:
		// Blocked, unless over a limit.
		if !blocked && !errors.Is(err, qpack.ErrTooManyBlocked) && !errors.Is(err, fastpath.ErrSectionTooLarge) {
			t.Fatalf("%s: Required Insert Count %d with %d inserts: blocked %v, %v", q.where, want.ric, want.inserts, blocked, err)
		}
	case blocked:
		t.Fatalf("%s: Required Insert Count %d with %d inserts, but blocked", q.where, want.ric, want.inserts)
	}
	if blocked {
		if err != nil || len(got) > 0 {
			t.Fatalf("%s: blocked with %v and %d fields", q.where, err, len(got))
		}
		q.held[stream] = true
	}
}

// qpackMessageCauses are the stream errors' causes, qpackCauses the
// others'.
var (
	qpackMessageCauses = []error{fastpath.ErrMalformedField, fastpath.ErrSectionTooLarge, fastpath.ErrStringTooLong, qpack.ErrTooManyFields}
	qpackCauses        = []error{
		fastpath.ErrTruncated, fastpath.ErrIntegerOverflow, fastpath.ErrHuffmanEOS, fastpath.ErrHuffmanPaddingLength,
		fastpath.ErrHuffmanPaddingBits, fastpath.ErrInvalidIndex, qpack.ErrRequiredInsertCount, qpack.ErrCapacity,
		qpack.ErrTooManyBlocked, qpack.ErrBufferLimit, fastpath.ErrStringTooLong,
	}
)

func isAny(err error, causes []error) bool {
	return slices.ContainsFunc(causes, func(c error) bool { return errors.Is(err, c) })
}

// sectionErr checks an error of DecodeSection or DecodeUnblocked.
func (q *qpackChecker) sectionErr(err error) {
	t := q.t
	var e *qpack.Error
	switch {
	case err == nil, err == qpack.ErrStreamBlocked:
		return
	case q.closed:
		if !errors.Is(err, fastpath.ErrClosed) {
			t.Fatalf("%s: after a connection error: %v", q.where, err)
		}
		return
	case !errors.As(err, &e):
		t.Fatalf("%s: untyped error %v", q.where, err)
	case e.Code == qpack.ErrCodeMessage:
		if !isAny(err, qpackMessageCauses) {
			t.Fatalf("%s: H3_MESSAGE_ERROR with cause %v", q.where, err)
		}
	case e.Code == qpack.ErrCodeDecompressionFailed:
		if !isAny(err, qpackCauses) || isAny(err, qpackMessageCauses) {
			t.Fatalf("%s: QPACK_DECOMPRESSION_FAILED with cause %v", q.where, err)
		}
		q.closed = true
	default:
		t.Fatalf("%s: section error with code %v: %v", q.where, e.Code, err)
	}
	q.checkClosed()
}

// encoderStream checks an error of ReadEncoderStream.
func (q *qpackChecker) encoderStream(err error) {
	t := q.t
	var e *qpack.Error
	switch {
	case err == nil:
		return
	case q.closed:
		if !errors.Is(err, fastpath.ErrClosed) {
			t.Fatalf("%s: after a connection error: %v", q.where, err)
		}
		return
	case !errors.As(err, &e) || e.Code != qpack.ErrCodeEncoderStream || !isAny(err, qpackCauses):
		t.Fatalf("%s: encoder stream error %#v", q.where, err)
	}
	q.closed = true
	q.checkClosed()
}

// checkClosed checks that, after a connection error, every call fails.
func (q *qpackChecker) checkClosed() {
	if !q.closed {
		return
	}
	t, d := q.t, q.d
	if err := d.ReadEncoderStream([]byte{0x00}); !errors.Is(err, fastpath.ErrClosed) {
		t.Fatalf("%s: ReadEncoderStream after a connection error: %v", q.where, err)
	}
	if _, err := d.DecodeSection(1<<40, []byte{0, 0, 0xc0}, &sink{}); !errors.Is(err, fastpath.ErrClosed) {
		t.Fatalf("%s: DecodeSection after a connection error: %v", q.where, err)
	}
	if out := d.AppendDecoderStream(nil); len(out) > 0 {
		t.Fatalf("%s: decoder stream % x after a connection error", q.where, out)
	}
}

// limits checks a decoded section against the section-size limit.
func (q *qpackChecker) limits(got []field, maxSection int) {
	if n := sectionSize(got); n > maxSection {
		q.t.Fatalf("%s: %d bytes of fields passed the limit %d", q.where, n, maxSection)
	}
}

// qpackStatic compares our static-only decoders with quic-go's.
type qpackStatic struct {
	d   qpack.Decoder
	buf []byte
}

// compare decodes the section's field lines, behind a prefix of Required
// Insert Count 0 and Base 0, with our Decoder and quic-go's: the same
// fields, or both reject. (The drop-in for quic-go/qpack has a fuzz target
// of its own against quic-go: compat/quic-go-qpack/peer.) The section as sent must decode as
// that when its prefix is Required Insert Count 0 with a non-negative Base,
// and be rejected otherwise.
func (st *qpackStatic) compare(t *testing.T, where string, p []byte) {
	enc, k, err := refReadInt(p, 8)
	if err != nil || enc != 0 {
		if got, err := st.decode(p); err == nil {
			t.Fatalf("%s: static-only decoder accepts a bad prefix: %v", where, got)
		}
		return
	}
	_, k2, err := refReadInt(p[k:], 7)
	if err != nil {
		if got, err := st.decode(p); err == nil {
			t.Fatalf("%s: static-only decoder accepts a bad prefix: %v", where, got)
		}
		return
	}
	negative := p[k]&0x80 != 0
	st.buf = append(append(st.buf[:0], 0, 0), p[k+k2:]...)
	ours, err := st.decode(st.buf)
	theirs, xerr := quicDecode(st.buf)
	if (err == nil) != (xerr == nil) || !slices.Equal(ours, theirs) {
		t.Fatalf("%s: lines % x: we decode %v, %v; quic-go %v, %v", where, st.buf[2:], ours, err, theirs, xerr)
	}
	asSent, serr := st.decode(p)
	switch {
	case negative && !errors.Is(serr, qpack.ErrRequiredInsertCount):
		t.Fatalf("%s: negative Base accepted: %v, %v", where, asSent, serr)
	case !negative && ((serr == nil) != (err == nil) || !slices.Equal(asSent, ours)):
		t.Fatalf("%s: with its own Base: %v, %v; with Base 0: %v, %v", where, asSent, serr, ours, err)
	}
}

// decode decodes p with a fresh static-only Decoder without size limits.
func (st *qpackStatic) decode(p []byte) ([]field, error) {
	st.d.Init(qpack.DecoderConfig{MaxSectionSize: 1 << 30})
	var got sink
	_, err := st.d.DecodeSection(0, p, &got)
	for i := range got.got {
		got.got[i].Never = false // quic-go drops the N bit
	}
	return got.got, err
}

// quicDecode decodes p with quic-go/qpack: the fields up to an error.
func quicDecode(p []byte) ([]field, error) {
	next := quicqpack.NewDecoder().Decode(p)
	var out []field
	for {
		hf, err := next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, field{Name: hf.Name, Value: hf.Value})
	}
}

// buildQPACK turns a record's payload into a field section of well-formed
// lines (RFC 9204 §4.5), so that the decoders get past the first bytes:
// a prefix (Required Insert Count 0 and Base 0 mostly), indexed static
// entries 0 to 103 (99 to 103 are past the table), literals with static or
// literal names, raw or Huffman strings, the N bit, and now and then a
// dynamic reference.
func buildQPACK(p []byte) []byte {
	s := script{p}
	var out []byte
	if c := s.byte(); c < 0xc0 {
		out = append(out, 0, 0)
	} else {
		out = refAppendInt(out, 0, 8, uint64(c&7))
		out = refAppendInt(out, c&0x08<<4, 7, uint64(c>>4&3))
	}
	for s.more() {
		op := s.byte()
		switch op & 7 {
		case 0, 1, 2:
			out = refAppendInt(out, 0xc0, 6, uint64(s.pick(104)))
		case 3, 4:
			out = refAppendInt(out, 0x50|op&0x20, 4, uint64(s.pick(104)))
			out = refAppendString(out, 0, 7, s.str(40), op&0x80 != 0)
		case 5:
			out = refAppendString(out, 0x20|op&0x10, 3, s.str(16), op&0x40 != 0)
			out = refAppendString(out, 0, 7, s.str(40), op&0x80 != 0)
		case 6:
			// Dynamic: relative, post-base, or a literal with a dynamic name.
			switch i := uint64(s.pick(4)); op >> 6 {
			case 0:
				out = refAppendInt(out, 0x80, 6, i)
			case 1:
				out = refAppendInt(out, 0x10, 4, i)
			case 2:
				out = refAppendInt(out, 0x40, 4, i)
				out = refAppendString(out, 0, 7, s.str(8), false)
			default:
				out = refAppendInt(out, 0x00, 3, i)
				out = refAppendString(out, 0, 7, s.str(8), true)
			}
		case 7:
			out = append(out, s.bytes(s.pick(4))...) // raw bytes
		}
	}
	return out
}
