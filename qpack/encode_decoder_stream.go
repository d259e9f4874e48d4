package qpack

import (
	"github.com/hqpack/hqpack/internal/wire"

	"github.com/hqpack/hqpack/fastpath"
)

// decStreamReader holds an unfinished decoder-stream instruction between
// reads. Every decoder instruction is one prefixed integer, at most 10
// bytes for a value up to 2^62.
type decStreamReader struct {
	buf [16]byte
	n   int // bytes of buf in use
	off int // decoder-stream offset of the next instruction
}

// ReadDecoderStream applies the next bytes of the peer's decoder stream
// (RFC 9204 §4.4): Section Acknowledgment, Stream Cancellation and Insert
// Count Increment. Instructions may be split anywhere across calls.
//
// A Section Acknowledgment for a stream with no unacknowledged section, an
// Insert Count Increment of 0 or past the inserts sent, and an integer over
// 2^62-1 are connection errors: an *Error with Code QPACK_DECODER_STREAM_ERROR
// and Err ErrUnexpectedAck or fastpath.ErrIntegerOverflow, Offset counting
// from the start of the decoder stream. After one, every call fails with
// fastpath.ErrClosed and sections are encoded with the static table only.
//
// Use it with AckDecoderStream; AckImmediate has already acknowledged
// everything it wrote, so a real acknowledgment would be unexpected.
func (e *Encoder) ReadDecoderStream(b []byte) error {
	if e.err != nil {
		return &Error{Code: ErrCodeDecoderStream, StreamID: e.err.StreamID, Offset: e.err.Offset, Err: fastpath.ErrClosed}
	}
	r := &e.dec
	for len(b) > 0 {
		if r.n == 0 && len(b) >= 3 && b[0] == 0xff && b[1] >= 0x80 && b[2] < 0x80 && e.ackSection(127+uint64(b[1]&0x7f)+uint64(b[2])<<7) {
			// A Section Acknowledgment of stream 255 to 16,510, the usual
			// instruction: applied here, with no call to parse it.
			b, r.off = b[3:], r.off+3
			continue
		}
		if r.n == 0 {
			l, err := e.decoderInstruction(b)
			if err != nil {
				return err
			}
			if l > 0 {
				b = b[l:]
				continue
			}
			// Truncated: keep the start (shorter than 10 bytes, or
			// ReadInt would have reported an overflow).
			r.n = copy(r.buf[:], b)
			return nil
		}
		k := copy(r.buf[r.n:], b)
		l, err := e.decoderInstruction(r.buf[:r.n+k])
		if err != nil {
			return err
		}
		if l == 0 {
			r.n += k
			return nil
		}
		b = b[l-r.n:]
		r.n = 0
	}
	return nil
}

// decoderInstruction parses and applies the instruction at the start of p
// and returns its length, or 0 when p ends inside it.
func (e *Encoder) decoderInstruction(p []byte) (int, error) {
	r := &e.dec
	b := p[0]
	prefix := uint8(6)
	if b&0x80 != 0 {
		prefix = 7
	}
	v, l, err := wire.ReadInt(p, prefix)
	if err == wire.ErrTruncated {
		return 0, nil
	} else if err != nil {
		return 0, e.decoderStreamError(0, err)
	}
	switch {
	case b&0x80 != 0: // Section Acknowledgment
		if !e.ackSection(v) {
			return 0, e.decoderStreamError(v, ErrUnexpectedAck)
		}
	case b&0x40 != 0: // Stream Cancellation
		e.cancelStream(v)
	default: // Insert Count Increment
		if v == 0 || v > e.tbl.Inserted()-e.krc {
			return 0, e.decoderStreamError(0, ErrUnexpectedAck)
		}
		e.krc += v
	}
	r.off += l
	return l, nil
}

// decoderStreamError fails the connection at the current instruction.
func (e *Encoder) decoderStreamError(stream uint64, cause error) error {
	e.err = &Error{Code: ErrCodeDecoderStream, StreamID: stream, Offset: e.dec.off, Err: cause}
	e.dec.n = 0
	return e.err
}
