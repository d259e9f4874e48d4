// Package h3 is the HTTP/3 connection machinery that examples/h3server and
// h3client share (RFC 9114 on quic-go's QUIC transport, hqpack's QPACK):
// frames and varints, the control stream and SETTINGS, the QPACK encoder and
// decoder streams in both directions, blocked sections, request validation
// and per-connection QPACK counters.
package h3

import (
	"errors"
	"fmt"
	"io"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// Frame types (RFC 9114 §7.2).
const (
	FrameData        = 0x00
	FrameHeaders     = 0x01
	FrameCancelPush  = 0x03
	FrameSettings    = 0x04
	FramePushPromise = 0x05
	FrameGoAway      = 0x07
	FrameMaxPushID   = 0x0d
)

// Unidirectional stream types (RFC 9114 §6.2, RFC 9204 §4.2).
const (
	StreamControl = 0x00
	StreamPush    = 0x01
	StreamEncoder = 0x02
	StreamDecoder = 0x03
)

// Settings identifiers (RFC 9114 §7.2.4.1, RFC 9204 §5).
const (
	SettingQPACKMaxTableCapacity = 0x01
	SettingMaxFieldSectionSize   = 0x06
	SettingQPACKBlockedStreams   = 0x07
)

// ErrCode is an HTTP/3 error code (RFC 9114 §8.1, RFC 9204 §6).
type ErrCode uint64

// The HTTP/3 and QPACK error codes.
const (
	ErrNoError              ErrCode = 0x100
	ErrGeneralProtocol      ErrCode = 0x101
	ErrInternal             ErrCode = 0x102
	ErrStreamCreation       ErrCode = 0x103
	ErrClosedCriticalStream ErrCode = 0x104
	ErrFrameUnexpected      ErrCode = 0x105
	ErrFrame                ErrCode = 0x106
	ErrExcessiveLoad        ErrCode = 0x107
	ErrID                   ErrCode = 0x108
	ErrSettings             ErrCode = 0x109
	ErrMissingSettings      ErrCode = 0x10a
	ErrRequestRejected      ErrCode = 0x10b
	ErrRequestCancelled     ErrCode = 0x10c
	ErrRequestIncomplete    ErrCode = 0x10d
	ErrMessage              ErrCode = 0x10e
	ErrConnect              ErrCode = 0x10f
	ErrDecompressionFailed  ErrCode = 0x200
	ErrEncoderStream        ErrCode = 0x201
	ErrDecoderStream        ErrCode = 0x202
)

var codeNames = map[ErrCode]string{
	ErrNoError: "H3_NO_ERROR", ErrGeneralProtocol: "H3_GENERAL_PROTOCOL_ERROR",
	ErrInternal: "H3_INTERNAL_ERROR", ErrStreamCreation: "H3_STREAM_CREATION_ERROR",
	ErrClosedCriticalStream: "H3_CLOSED_CRITICAL_STREAM", ErrFrameUnexpected: "H3_FRAME_UNEXPECTED",
	ErrFrame: "H3_FRAME_ERROR", ErrExcessiveLoad: "H3_EXCESSIVE_LOAD", ErrID: "H3_ID_ERROR",
	ErrSettings: "H3_SETTINGS_ERROR", ErrMissingSettings: "H3_MISSING_SETTINGS",
	ErrRequestRejected: "H3_REQUEST_REJECTED", ErrRequestCancelled: "H3_REQUEST_CANCELLED",
	ErrRequestIncomplete: "H3_REQUEST_INCOMPLETE", ErrMessage: "H3_MESSAGE_ERROR",
	ErrConnect: "H3_CONNECT_ERROR", ErrDecompressionFailed: "QPACK_DECOMPRESSION_FAILED",
	ErrEncoderStream: "QPACK_ENCODER_STREAM_ERROR", ErrDecoderStream: "QPACK_DECODER_STREAM_ERROR",
}

// String returns the code's name in the RFCs.
func (c ErrCode) String() string {
	if s, ok := codeNames[c]; ok {
		return s
	}
	return fmt.Sprintf("H3_ERROR(%#x)", uint64(c))
}

// ConnError is a connection error to send in CONNECTION_CLOSE.
type ConnError struct {
	Code ErrCode
	Msg  string
}

// Error says the code and why.
func (e *ConnError) Error() string { return fmt.Sprintf("h3: %v: %s", e.Code, e.Msg) }

func connErr(code ErrCode, format string, args ...any) *ConnError {
	return &ConnError{code, fmt.Sprintf(format, args...)}
}

// AppendFrameHeader appends a frame's type and payload length.
func AppendFrameHeader(b []byte, typ, length uint64) []byte {
	return quicvarint.Append(quicvarint.Append(b, typ), length)
}

// Reader reads varints and frames from a stream through a buffer it owns,
// so a frame header is not a series of one-byte reads.
type Reader struct {
	r        io.Reader
	buf      []byte
	off, end int
	eof      error // the error that ended r, once seen
}

// NewReader returns a Reader of r with a buffer of size bytes to start.
func NewReader(r io.Reader, size int) *Reader {
	return &Reader{r: r, buf: make([]byte, size)}
}

// Reset makes the Reader read from r, keeping its buffer.
func (r *Reader) Reset(rd io.Reader) {
	r.r, r.off, r.end, r.eof = rd, 0, 0, nil
}

// Buffered returns the bytes read from the stream but not yet consumed.
func (r *Reader) Buffered() int { return r.end - r.off }

// fill makes at least n bytes buffered; it grows the buffer as needed.
// io.ErrUnexpectedEOF reports a stream that ended before n bytes, io.EOF
// one that ended with nothing buffered.
func (r *Reader) fill(n int) error {
	if r.end-r.off >= n {
		return nil
	}
	if r.off > 0 {
		r.end = copy(r.buf, r.buf[r.off:r.end])
		r.off = 0
	}
	if n > len(r.buf) {
		nb := make([]byte, max(n, 2*len(r.buf)))
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	for r.end < n {
		if r.eof != nil {
			if r.end == 0 && r.eof == io.EOF {
				return io.EOF
			}
			if r.eof == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return r.eof
		}
		k, err := r.r.Read(r.buf[r.end:])
		r.end += k
		if err != nil {
			r.eof = err
		}
	}
	return nil
}

// Varint reads a QUIC variable-length integer (RFC 9000 §16).
func (r *Reader) Varint() (uint64, error) {
	if err := r.fill(1); err != nil {
		return 0, err
	}
	l := 1 << (r.buf[r.off] >> 6)
	if err := r.fill(l); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	v, _, err := quicvarint.Parse(r.buf[r.off : r.off+l])
	r.off += l
	return v, err
}

// FrameHeader reads a frame's type and length. io.EOF means the stream
// ended cleanly between frames.
func (r *Reader) FrameHeader() (typ, length uint64, err error) {
	if typ, err = r.Varint(); err != nil {
		return 0, 0, err
	}
	if length, err = r.Varint(); err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return typ, length, err
}

// Payload reads n bytes and returns them; they are valid until the next
// call. The caller bounds n.
func (r *Reader) Payload(n int) ([]byte, error) {
	if err := r.fill(n); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	p := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return p, nil
}

// Discard skips n bytes, handing each chunk to fn (nil: none).
func (r *Reader) Discard(n uint64, fn func([]byte)) error {
	for n > 0 {
		if r.off == r.end {
			if err := r.fill(1); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return err
			}
		}
		k := int(min(n, uint64(r.end-r.off)))
		if fn != nil {
			fn(r.buf[r.off : r.off+k])
		}
		r.off += k
		n -= uint64(k)
	}
	return nil
}

// Chunk returns what is buffered, or reads more: for streams that are not
// framed (the QPACK streams). The bytes are valid until the next call.
func (r *Reader) Chunk() ([]byte, error) {
	if r.off == r.end {
		r.off, r.end = 0, 0
		if err := r.fill(1); err != nil {
			return nil, err
		}
	}
	p := r.buf[r.off:r.end]
	r.off = r.end
	return p, nil
}

// IsReset reports whether err is the peer's reset of a stream (or of its
// reading, STOP_SENDING), and its code.
func IsReset(err error) (code ErrCode, ok bool) {
	var se *quic.StreamError
	if errors.As(err, &se) && se.Remote {
		return ErrCode(se.ErrorCode), true
	}
	return 0, false
}

// frameAllowed reports whether a frame type may appear on a request stream
// (RFC 9114 §7.2): DATA, HEADERS and unknown or reserved types; the rest
// is H3_FRAME_UNEXPECTED there. PUSH_PROMISE is allowed only from a server,
// and we never ask for pushes, so it is unexpected too.
func frameAllowedOnRequest(typ uint64) bool {
	switch typ {
	case FrameCancelPush, FrameSettings, FramePushPromise, FrameGoAway, FrameMaxPushID,
		0x02, 0x06, 0x08, 0x09: // HTTP/2's PRIORITY, PING, WINDOW_UPDATE, CONTINUATION
		return false
	}
	return true
}
