package h3

import (
	"errors"
	"fmt"
	"io"

	"github.com/hqpack/hqpack/qpack"
	"github.com/quic-go/quic-go"
)

// StreamError is an error that ends one request or response: the stream
// is reset with Code, the connection goes on.
type StreamError struct {
	Code ErrCode
	Err  error
}

// Error says the code and the cause.
func (e *StreamError) Error() string { return fmt.Sprintf("h3: stream error %v: %v", e.Code, e.Err) }

// Unwrap returns the cause.
func (e *StreamError) Unwrap() error { return e.Err }

// StreamCode returns the code to reset a stream with after err from
// ReadHead or ReadBody, and false for errors that are not stream errors
// (the connection failed, or the peer reset the stream).
func StreamCode(err error) (ErrCode, bool) {
	var se *StreamError
	if errors.As(err, &se) {
		return se.Code, true
	}
	var qe *qpack.Error
	if errors.As(err, &qe) && !qe.ConnectionError() || errors.Is(err, ErrMalformed) {
		return ErrMessage, true
	}
	return 0, false
}

// Reset resets both directions of s with code and tells the peer's
// encoder that the rest of the stream will not be decoded.
func (c *Conn) Reset(s *quic.Stream, code ErrCode) {
	s.CancelRead(quic.StreamErrorCode(code))
	s.CancelWrite(quic.StreamErrorCode(code))
	c.CancelStream(uint64(s.StreamID()))
	c.CountStreamError()
}

// readFailed handles a read error in a request or response: a reset by
// the peer cancels the stream's sections; a frame cut by the end of the
// stream is a connection error (RFC 9114 §7.1).
func (c *Conn) readFailed(id uint64, err error) error {
	if _, ok := IsReset(err); ok {
		c.CancelStream(id)
		return err
	}
	if err == io.ErrUnexpectedEOF {
		ce := connErr(ErrFrame, "stream %d ended inside a frame", id)
		c.Fail(ce)
		return ce
	}
	return err
}

// frameError fails the connection for a frame out of place.
func (c *Conn) frameError(id uint64, typ uint64) error {
	ce := connErr(ErrFrameUnexpected, "frame type %#x on stream %d", typ, id)
	c.Fail(ce)
	return ce
}

// maxHeadersFrame bounds a HEADERS frame's payload: the encoded section
// of the largest decoded one we accept, and then some.
func (c *Conn) maxHeadersFrame() uint64 { return 2*uint64(c.cfg.MaxFieldSectionSize) + 4096 }

// ReadHead reads the frames of stream s up to its first HEADERS frame and
// decodes that into h (of h's kind), then checks it. Unknown frame types
// are skipped; DATA before HEADERS and control frames are connection
// errors. io.EOF means the stream ended before any frame.
func (c *Conn) ReadHead(s *quic.Stream, r *Reader, h *Head) error {
	id := uint64(s.StreamID())
	for {
		typ, n, err := r.FrameHeader()
		if err != nil {
			if err == io.EOF {
				return err
			}
			return c.readFailed(id, err)
		}
		switch {
		case typ == FrameHeaders:
			return c.readSection(s, r, id, n, h)
		case typ == FrameData || !frameAllowedOnRequest(typ):
			return c.frameError(id, typ)
		}
		if err := r.Discard(n, nil); err != nil {
			return c.readFailed(id, err)
		}
	}
}

func (c *Conn) readSection(s *quic.Stream, r *Reader, id, n uint64, h *Head) error {
	if n > c.maxHeadersFrame() {
		c.CancelStream(id)
		return &StreamError{ErrExcessiveLoad, fmt.Errorf("a HEADERS frame of %d bytes", n)}
	}
	p, err := r.Payload(int(n))
	if err != nil {
		return c.readFailed(id, err)
	}
	if err := c.DecodeHeaders(s, id, p, h); err != nil {
		return err
	}
	return h.Check()
}

// ReadBody reads the rest of a message from stream s: DATA frames, whose
// payloads go to fn (nil: dropped), and a trailer section, decoded into
// trailers, up to the end of the stream. It returns the body's length
// and checks it against h's Content-Length (RFC 9114 §4.1.2).
func (c *Conn) ReadBody(s *quic.Stream, r *Reader, h, trailers *Head, fn func([]byte)) (int64, error) {
	id := uint64(s.StreamID())
	var n int64
	seenTrailers := false
	for {
		typ, l, err := r.FrameHeader()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, c.readFailed(id, err)
		}
		switch {
		case seenTrailers && typ != FrameHeaders && frameAllowedOnRequest(typ) && typ != FrameData:
			// unknown frames may follow trailers
		case seenTrailers, !frameAllowedOnRequest(typ):
			return n, c.frameError(id, typ)
		case typ == FrameHeaders:
			seenTrailers = true
			trailers.Reset(Trailers)
			if err := c.readSection(s, r, id, l, trailers); err != nil {
				return n, err
			}
			continue
		case typ == FrameData:
			n += int64(l)
			if h.ContentLength >= 0 && n > h.ContentLength {
				return n, ErrMalformed
			}
			if err := r.Discard(l, fn); err != nil {
				return n, c.readFailed(id, err)
			}
			continue
		}
		if err := r.Discard(l, nil); err != nil {
			return n, c.readFailed(id, err)
		}
	}
	if h.ContentLength >= 0 && n != h.ContentLength {
		return n, ErrMalformed
	}
	return n, nil
}
