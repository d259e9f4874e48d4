package h3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// DefaultMaxFieldSectionSize is the SETTINGS_MAX_FIELD_SECTION_SIZE sent
// when Config leaves it zero.
const DefaultMaxFieldSectionSize = 64 << 10

// Config is what an endpoint announces in its SETTINGS and enforces.
type Config struct {
	// MaxTableCapacity is the SETTINGS_QPACK_MAX_TABLE_CAPACITY we send.
	// Our encoder also uses no more of the peer's table than this, so 0
	// means static-only both ways.
	MaxTableCapacity uint64
	// MaxBlockedStreams is the SETTINGS_QPACK_BLOCKED_STREAMS we send.
	MaxBlockedStreams uint64
	// MaxFieldSectionSize is the SETTINGS_MAX_FIELD_SECTION_SIZE we send
	// and the decoder's bound on a decoded section; 0 means
	// DefaultMaxFieldSectionSize.
	MaxFieldSectionSize int
	// HoldEncoderStream delays each write of our encoder stream, so the
	// peer gets sections before the inserts they need and its blocked-stream
	// paths run. For tests; 0 in real use.
	HoldEncoderStream time.Duration
	// Logf, when set, receives the connection errors we send.
	Logf func(format string, args ...any)
}

// Conn is one HTTP/3 connection's shared state: the QUIC connection, our
// control, encoder and decoder streams, the peer's, and the QPACK Encoder
// and Decoder. The Encoder and Decoder are not safe for concurrent use, so
// each has its own mutex; request streams and the peer's QPACK streams
// take them for one short call each, never while writing to a stream.
type Conn struct {
	q      *quic.Conn
	cfg    Config
	client bool

	encMu sync.Mutex
	enc   qpack.Encoder
	esBuf []byte

	decMu   sync.Mutex
	dec     qpack.Decoder
	dsBuf   []byte
	waiters map[uint64]*waiter // blocked sections, by stream

	ctrl, encW, decW *uniWriter
	peerStreams      [4]atomic.Bool // the peer's control, push, encoder and decoder streams, once seen

	settings     chan struct{} // closed when the peer's SETTINGS arrived
	peerSettings Settings      // written before settings is closed
	goaway       atomic.Int64  // the peer's GOAWAY ID plus one, 0 for none

	st     stats
	failed atomic.Bool
}

// Settings are the peer's SETTINGS that matter here.
type Settings struct {
	MaxTableCapacity    uint64
	MaxBlockedStreams   uint64
	MaxFieldSectionSize uint64 // 0: unlimited
}

// waiter is a request or response stream whose section is blocked: the
// encoder-stream reader decodes it into sink once its inserts are in and
// hands back the result.
type waiter struct {
	sink fastpath.Sink
	done chan error
}

// Start sets up HTTP/3 on q: opens our control stream with SETTINGS and
// our QPACK encoder and decoder streams, and reads the peer's
// unidirectional streams until the connection ends. client says which
// side we are.
func Start(q *quic.Conn, cfg Config, client bool) (*Conn, error) {
	if cfg.MaxFieldSectionSize <= 0 {
		cfg.MaxFieldSectionSize = DefaultMaxFieldSectionSize
	}
	c := &Conn{q: q, cfg: cfg, client: client, waiters: make(map[uint64]*waiter), settings: make(chan struct{})}
	c.dec.Init(qpack.DecoderConfig{
		MaxTableCapacity:  cfg.MaxTableCapacity,
		MaxBlockedStreams: cfg.MaxBlockedStreams,
		MaxSectionSize:    cfg.MaxFieldSectionSize,
		Validate:          true, // RFC 9114 §4.2 and §4.3: a stream error each
	})
	// The zero Encoder is static-only: what we may use until the peer's
	// SETTINGS say more (RFC 9204 §3.2.3).
	var settings []byte
	settings = quicvarint.Append(settings, SettingQPACKMaxTableCapacity)
	settings = quicvarint.Append(settings, cfg.MaxTableCapacity)
	settings = quicvarint.Append(settings, SettingQPACKBlockedStreams)
	settings = quicvarint.Append(settings, cfg.MaxBlockedStreams)
	settings = quicvarint.Append(settings, SettingMaxFieldSectionSize)
	settings = quicvarint.Append(settings, uint64(cfg.MaxFieldSectionSize))
	first := AppendFrameHeader([]byte{StreamControl}, FrameSettings, uint64(len(settings)))
	var err error
	if c.ctrl, err = c.openUni(append(first, settings...), nil, 0); err != nil {
		return nil, err
	}
	if c.encW, err = c.openUni([]byte{StreamEncoder}, &c.st.encSent, cfg.HoldEncoderStream); err != nil {
		return nil, err
	}
	if c.decW, err = c.openUni([]byte{StreamDecoder}, &c.st.decSent, 0); err != nil {
		return nil, err
	}
	go c.acceptUni()
	return c, nil
}

// QUIC returns the QUIC connection.
func (c *Conn) QUIC() *quic.Conn { return c.q }

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.q.Context().Done() }

// SettingsReceived is closed once the peer's SETTINGS have been applied.
func (c *Conn) SettingsReceived() <-chan struct{} { return c.settings }

// PeerSettings returns the peer's SETTINGS; valid once SettingsReceived
// is closed.
func (c *Conn) PeerSettings() Settings {
	<-c.settings
	return c.peerSettings
}

// GoAway returns the stream ID of the peer's last GOAWAY, if it sent one:
// requests on streams from there on will not be processed.
func (c *Conn) GoAway() (id uint64, ok bool) {
	v := c.goaway.Load()
	return uint64(v - 1), v > 0
}

// CountRequest counts one request sent or answered.
func (c *Conn) CountRequest() { c.st.requests.Add(1) }

// CountStreamError counts a request or response reset for a stream error.
func (c *Conn) CountStreamError() { c.st.streamErrors.Add(1) }

// Counters returns a snapshot of the connection's QPACK counters.
func (c *Conn) Counters() Counters {
	c.encMu.Lock()
	insSent := c.enc.InsertCount()
	c.encMu.Unlock()
	c.decMu.Lock()
	insRecv := c.dec.InsertCount()
	c.decMu.Unlock()
	s := &c.st
	k := Counters{
		Requests:            s.requests.Load(),
		InsertsSent:         insSent,
		InsertsReceived:     insRecv,
		SectionsSent:        s.sectionsSent.Load(),
		SectionsSentDynamic: s.sectionsSentDynamic.Load(),
		DynamicRefsSent:     s.refsSent.Load(),
		SectionBytesSent:    s.sectionBytesSent.Load(),
		SectionsRecv:        s.sectionsRecv.Load(),
		SectionsRecvDynamic: s.sectionsRecvDynamic.Load(),
		DynamicRefsRecv:     s.refsRecv.Load(),
		SectionBytesRecv:    s.sectionBytesRecv.Load(),
		SectionsBlocked:     s.sectionsBlocked.Load(),
		MaxBlocked:          s.maxBlocked.Load(),
		EncoderStreamSent:   s.encSent.Load(),
		EncoderStreamRecv:   s.encRecv.Load(),
		DecoderStreamSent:   s.decSent.Load(),
		DecoderStreamRecv:   s.decRecv.Load(),
		StreamCancellations: s.cancellations.Load(),
		StreamErrors:        s.streamErrors.Load(),
		ConnectionErrorCode: s.connErrCode.Load(),
	}
	if k.ConnectionErrorCode != 0 {
		k.ConnectionErrorCount = 1
	}
	return k
}

// Fail closes the connection with a connection error, once; it counts it
// and logs it.
func (c *Conn) Fail(e *ConnError) {
	if c.failed.Swap(true) {
		return
	}
	c.st.connErrCode.Store(uint64(e.Code))
	if c.cfg.Logf != nil {
		c.cfg.Logf("connection %v: closing with %v: %s", c.q.RemoteAddr(), e.Code, e.Msg)
	}
	c.q.CloseWithError(quic.ApplicationErrorCode(e.Code), e.Msg)
}

// Close closes the connection with H3_NO_ERROR.
func (c *Conn) Close() {
	c.failed.Store(true)
	c.q.CloseWithError(quic.ApplicationErrorCode(ErrNoError), "")
}

// SendGoAway sends GOAWAY with id on our control stream (RFC 9114 §5.2).
func (c *Conn) SendGoAway(id uint64) {
	b := AppendFrameHeader(nil, FrameGoAway, uint64(quicvarint.Len(id)))
	c.ctrl.queue(quicvarint.Append(b, id))
}

// qpackError turns a QPACK connection error into the HTTP/3 one.
func qpackError(err error) *ConnError {
	var qe *qpack.Error
	if errors.As(err, &qe) {
		return &ConnError{ErrCode(qe.Code), qe.Error()}
	}
	return &ConnError{ErrInternal, err.Error()}
}

// AppendHeaders appends a HEADERS frame holding the field section of
// fields, encoded for stream id, to dst. The encoder-stream bytes the
// section needs are queued on our encoder stream first. Plan gives the
// section's exact length, which the frame header carries; Continue then
// writes the section into dst's spare room, whole field lines at a time,
// and the room grows only when a section is larger than it. The caller
// writes dst to the stream after this returns: the encoder is never held
// while a stream blocks.
func (c *Conn) AppendHeaders(dst []byte, id uint64, fields *fastpath.FieldList) []byte {
	c.encMu.Lock()
	n := c.enc.Plan(id, fields)
	if c.enc.EncoderStreamLen() > 0 {
		c.esBuf = c.enc.AppendEncoderStream(c.esBuf[:0])
		c.encW.queue(c.esBuf)
	}
	dst = AppendFrameHeader(dst, FrameHeaders, uint64(n))
	start := len(dst)
	for {
		if cap(dst) == len(dst) {
			dst = append(dst[:cap(dst)], make([]byte, max(c.enc.Remaining(), 64))...)[:len(dst)]
		}
		k, res := c.enc.Continue(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+k]
		if res == fastpath.Done {
			break
		}
		if res == fastpath.NoSection {
			panic("h3: Continue lost the planned section")
		}
		// MoreFields: the room is full; BufferTooSmall cannot happen
		// (the room is never empty here). Either way: more room.
		dst = append(dst, make([]byte, c.enc.Remaining())...)[:len(dst)]
	}
	c.encMu.Unlock()
	c.st.sectionsSent.Add(1)
	c.st.sectionBytesSent.Add(uint64(n))
	if sec := dst[start:]; len(sec) > 0 && sec[0] != 0 {
		c.st.sectionsSentDynamic.Add(1)
		refs, _ := dynamicRefs(sec)
		c.st.refsSent.Add(refs)
	}
	return dst
}

// ErrConnClosed reports a connection that ended while a section waited.
var ErrConnClosed = errors.New("h3: connection closed")

// Peeker is the part of a QUIC stream that DecodeHeaders watches while a
// section is blocked, to see a reset.
type Peeker interface {
	Peek(b []byte) (int, error)
	SetReadDeadline(t time.Time) error
}

// DecodeHeaders decodes the payload of a HEADERS frame received on stream
// s (ID id) into sink. A blocked section is held by the decoder: the call
// waits until the peer's encoder stream brings its inserts, the stream is
// reset (the section is then cancelled on our decoder stream, and the
// reset's error returned), or the connection ends (ErrConnClosed).
//
// Errors: a *ConnError, already sent (the connection is closing); a
// *qpack.Error with Code H3_MESSAGE_ERROR, a stream error (a malformed
// field, or a section over our limits); the sink's own error; a reset.
func (c *Conn) DecodeHeaders(s Peeker, id uint64, p []byte, sink fastpath.Sink) error {
	c.st.sectionsRecv.Add(1)
	c.st.sectionBytesRecv.Add(uint64(len(p)))
	if len(p) > 0 && p[0] != 0 {
		c.st.sectionsRecvDynamic.Add(1)
		refs, _ := dynamicRefs(p)
		c.st.refsRecv.Add(refs)
	}
	c.decMu.Lock()
	blocked, err := c.dec.DecodeSection(id, p, sink)
	var w *waiter
	if blocked {
		w = &waiter{sink: sink, done: make(chan error, 1)}
		c.waiters[id] = w
		c.st.sectionsBlocked.Add(1)
		if n := uint64(c.dec.BlockedStreams()); n > c.st.maxBlocked.Load() {
			c.st.maxBlocked.Store(n) // under decMu: no lost update
		}
	}
	c.flushDecoderLocked()
	c.decMu.Unlock()
	if !blocked {
		return c.sectionError(err)
	}
	return c.await(s, id, w)
}

// await waits for a blocked section, watching the stream for a reset.
func (c *Conn) await(s Peeker, id uint64, w *waiter) error {
	peeked := make(chan error, 1)
	go func() {
		var b [1]byte
		_, err := s.Peek(b[:])
		peeked <- err
	}()
	var err error
	watching := true
	for {
		select {
		case err = <-w.done:
		case err = <-peeked:
			watching = false
			if _, reset := IsReset(err); reset {
				c.decMu.Lock()
				if c.waiters[id] == w { // not decoded yet: cancel it
					delete(c.waiters, id)
					c.cancelLocked(id)
					c.decMu.Unlock()
					return err
				}
				c.decMu.Unlock()
			}
			// Data or the end of the stream: the section is still
			// coming; wait for it without watching.
			continue
		case <-c.Done():
			err = ErrConnClosed
		}
		break
	}
	if watching { // stop the Peek
		s.SetReadDeadline(time.Now())
		<-peeked
		s.SetReadDeadline(time.Time{})
	}
	return c.sectionError(err)
}

// sectionError applies a decoding error: a connection error closes the
// connection; stream errors are returned as they are.
func (c *Conn) sectionError(err error) error {
	var qe *qpack.Error
	if errors.As(err, &qe) && qe.ConnectionError() {
		ce := qpackError(err)
		c.Fail(ce)
		return ce
	}
	return err
}

// CancelStream tells the peer's encoder that we will not decode the rest
// of stream id (reset, or reading abandoned before its end): RFC 9204
// §2.2.2.2's Stream Cancellation.
func (c *Conn) CancelStream(id uint64) {
	c.decMu.Lock()
	if w := c.waiters[id]; w != nil {
		delete(c.waiters, id)
		w.done <- ErrConnClosed
	}
	c.cancelLocked(id)
	c.decMu.Unlock()
}

func (c *Conn) cancelLocked(id uint64) {
	if c.dec.CancelStream(id) == nil && c.cfg.MaxTableCapacity > 0 {
		c.st.cancellations.Add(1)
	}
	c.flushDecoderLocked()
}

// flushDecoderLocked sends what the decoder has for our decoder stream.
func (c *Conn) flushDecoderLocked() {
	c.dsBuf = c.dec.AppendDecoderStream(c.dsBuf[:0])
	c.decW.queue(c.dsBuf)
}

// acceptUni reads each unidirectional stream the peer opens.
func (c *Conn) acceptUni() {
	for {
		s, err := c.q.AcceptUniStream(context.Background())
		if err != nil {
			return
		}
		go c.readUni(s)
	}
}

var uniNames = [4]string{"control", "push", "encoder", "decoder"}

// readUni reads a peer's unidirectional stream by its type (RFC 9114 §6.2).
func (c *Conn) readUni(s *quic.ReceiveStream) {
	r := NewReader(s, 4096)
	typ, err := r.Varint()
	if err != nil {
		return // ended before its type: nothing to do
	}
	switch typ {
	case StreamControl, StreamEncoder, StreamDecoder:
		if c.peerStreams[typ].Swap(true) {
			c.Fail(connErr(ErrStreamCreation, "a second %s stream", uniNames[typ]))
			return
		}
	case StreamPush:
		if c.client {
			c.Fail(connErr(ErrID, "a push stream, and we sent no MAX_PUSH_ID"))
		} else {
			c.Fail(connErr(ErrStreamCreation, "a push stream from a client"))
		}
		return
	default: // unknown and reserved types: not read (RFC 9114 §6.2)
		s.CancelRead(quic.StreamErrorCode(ErrStreamCreation))
		return
	}
	switch typ {
	case StreamControl:
		err = c.readControl(r)
	case StreamEncoder:
		c.st.encRecv.Add(1)
		err = c.readQPACK(r, &c.st.encRecv, c.encoderInput)
	case StreamDecoder:
		c.st.decRecv.Add(1)
		err = c.readQPACK(r, &c.st.decRecv, c.decoderInput)
	}
	var ce *ConnError
	if errors.As(err, &ce) {
		c.Fail(ce)
		return
	}
	var se *quic.StreamError
	if err != io.EOF && !errors.As(err, &se) {
		return // the connection is closing: its streams go with it
	}
	c.Fail(connErr(ErrClosedCriticalStream, "the peer's %s stream ended: %v", uniNames[typ], err))
}

// readQPACK feeds a QPACK stream to in, chunk by chunk.
func (c *Conn) readQPACK(r *Reader, n *atomic.Uint64, in func([]byte) error) error {
	for {
		p, err := r.Chunk()
		if err != nil {
			return err
		}
		n.Add(uint64(len(p)))
		if err := in(p); err != nil {
			return err
		}
	}
}

// encoderInput applies bytes of the peer's encoder stream and decodes the
// sections they unblock into their waiting streams' sinks.
func (c *Conn) encoderInput(p []byte) error {
	c.decMu.Lock()
	defer c.decMu.Unlock()
	if err := c.dec.ReadEncoderStream(p); err != nil {
		return qpackError(err)
	}
	for {
		id, ok := c.dec.NextUnblocked()
		if !ok {
			break
		}
		w := c.waiters[id]
		if w == nil {
			continue // cannot happen: a cancelled stream's section is gone
		}
		delete(c.waiters, id)
		_, err := c.dec.DecodeUnblocked(id, w.sink)
		w.done <- err
	}
	c.flushDecoderLocked()
	return nil
}

// decoderInput applies bytes of the peer's decoder stream.
func (c *Conn) decoderInput(p []byte) error {
	c.encMu.Lock()
	err := c.enc.ReadDecoderStream(p)
	c.encMu.Unlock()
	if err != nil {
		return qpackError(err)
	}
	return nil
}

// readControl reads the peer's control stream: SETTINGS first, then
// GOAWAY and the frames we ignore (RFC 9114 §6.2.1, §7.2).
func (c *Conn) readControl(r *Reader) error {
	for first := true; ; first = false {
		typ, n, err := r.FrameHeader()
		if err != nil {
			if err == io.ErrUnexpectedEOF {
				return connErr(ErrFrame, "a truncated frame on the control stream")
			}
			return err
		}
		if first && typ != FrameSettings {
			return connErr(ErrMissingSettings, "the control stream starts with frame type %#x", typ)
		}
		switch typ {
		case FrameSettings:
			if !first {
				return connErr(ErrFrameUnexpected, "a second SETTINGS frame")
			}
			if n > 1<<16 {
				return connErr(ErrExcessiveLoad, "a SETTINGS frame of %d bytes", n)
			}
			p, err := r.Payload(int(n))
			if err != nil {
				return err
			}
			if err := c.applySettings(p); err != nil {
				return err
			}
		case FrameGoAway:
			p, err := r.Payload(int(min(n, 8)))
			if err != nil {
				return err
			}
			id, k, err := quicvarint.Parse(p)
			if err != nil || uint64(k) != n {
				return connErr(ErrFrame, "a malformed GOAWAY frame")
			}
			c.goaway.Store(int64(id) + 1)
		case FrameMaxPushID:
			if c.client {
				return connErr(ErrFrameUnexpected, "MAX_PUSH_ID from a server")
			}
			if err := r.Discard(n, nil); err != nil {
				return err
			}
		case FrameData, FrameHeaders, FramePushPromise, 0x02, 0x06, 0x08, 0x09:
			return connErr(ErrFrameUnexpected, "frame type %#x on the control stream", typ)
		default: // CANCEL_PUSH (we have no pushes), unknown and reserved frames
			if err := r.Discard(n, nil); err != nil {
				return err
			}
		}
	}
}

// applySettings reads the peer's SETTINGS and sets the encoder up for its
// decoder's table.
func (c *Conn) applySettings(p []byte) error {
	var s Settings
	seen := make(map[uint64]bool)
	for len(p) > 0 {
		id, k, err := quicvarint.Parse(p)
		if err != nil {
			return connErr(ErrFrame, "a malformed SETTINGS frame")
		}
		p = p[k:]
		v, k, err := quicvarint.Parse(p)
		if err != nil {
			return connErr(ErrFrame, "a malformed SETTINGS frame")
		}
		p = p[k:]
		if seen[id] {
			return connErr(ErrSettings, "setting %#x twice", id)
		}
		seen[id] = true
		switch id {
		case 0x02, 0x03, 0x04, 0x05: // HTTP/2's, reserved (RFC 9114 §7.2.4.1)
			return connErr(ErrSettings, "HTTP/2 setting %#x", id)
		case SettingQPACKMaxTableCapacity:
			s.MaxTableCapacity = v
		case SettingQPACKBlockedStreams:
			s.MaxBlockedStreams = v
		case SettingMaxFieldSectionSize:
			s.MaxFieldSectionSize = v
		}
	}
	c.encMu.Lock()
	// Nothing was inserted before: a static-only encoder keeps no state
	// that Init could lose.
	c.enc.Init(qpack.EncoderConfig{
		MaxTableCapacity:  s.MaxTableCapacity,
		MaxBlockedStreams: s.MaxBlockedStreams,
		TableCapacity:     min(s.MaxTableCapacity, c.cfg.MaxTableCapacity),
	})
	c.encMu.Unlock()
	c.peerSettings = s
	close(c.settings)
	return nil
}

// openUni opens one of our unidirectional streams and writes its first
// bytes.
func (c *Conn) openUni(first []byte, n *atomic.Uint64, hold time.Duration) (*uniWriter, error) {
	s, err := c.q.OpenUniStream()
	if err != nil {
		return nil, fmt.Errorf("h3: opening a unidirectional stream: %w", err)
	}
	if n == nil {
		n = new(atomic.Uint64)
	}
	w := &uniWriter{s: s, n: n, hold: hold, wake: make(chan struct{}, 1), done: c.q.Context().Done()}
	w.queue(first)
	go w.run()
	return w, nil
}

// uniWriter writes one of our unidirectional streams in the order bytes
// are queued. queue never blocks: it writes at once when the stream can
// take the bytes without waiting, else leaves them to the writer
// goroutine, so no codec lock is held while a stream waits for credit.
type uniWriter struct {
	s    *quic.SendStream
	n    *atomic.Uint64
	hold time.Duration
	wake chan struct{}
	done <-chan struct{}

	mu   sync.Mutex
	buf  []byte
	busy bool // run is writing: what is queued goes behind it
}

func (w *uniWriter) queue(b []byte) {
	if len(b) == 0 {
		return
	}
	w.n.Add(uint64(len(b)))
	w.mu.Lock()
	if !w.busy && len(w.buf) == 0 && w.hold == 0 && w.s.TryWriteAll(b) == nil {
		w.mu.Unlock()
		return
	}
	w.buf = append(w.buf, b...)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *uniWriter) run() {
	var out []byte
	for {
		select {
		case <-w.wake:
		case <-w.done:
			return
		}
		if w.hold > 0 {
			select {
			case <-time.After(w.hold):
			case <-w.done:
				return
			}
		}
		w.mu.Lock()
		out, w.buf = w.buf, out[:0]
		w.busy = true
		w.mu.Unlock()
		_, err := w.s.Write(out)
		w.mu.Lock()
		w.busy = false
		more := len(w.buf) > 0
		w.mu.Unlock()
		if err != nil {
			return
		}
		if more {
			select {
			case w.wake <- struct{}{}:
			default:
			}
		}
	}
}
