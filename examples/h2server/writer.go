package main

import (
	"bufio"
	"github.com/hqpack/hqpack/examples/internal/site"
	"net"
	"runtime"
	"time"

	"golang.org/x/net/http2"
)

// wkind is what a message to the writer asks for.
type wkind uint8

const (
	wOpen         wkind = iota // a stream opened: give it a send window
	wResponse                  // a handler's response: headers, then body
	wReset                     // send RST_STREAM and forget the stream
	wForget                    // the peer reset the stream: forget it
	wPeerWindow                // the peer's WINDOW_UPDATE (id 0: the connection)
	wWindowUpdate              // send our WINDOW_UPDATE
	wSettings                  // apply the peer's SETTINGS, then ack them
	wPingAck                   // answer a PING
	wGoAway                    // send GOAWAY; done is closed once it is out
)

// peerSettings are the peer's SETTINGS the writer applies.
type peerSettings struct {
	headerTableSize, maxFrameSize, initialWindow uint32
	has                                          uint8 // hasTable | hasFrame | hasWindow
}

const (
	hasTable = 1 << iota
	hasFrame
	hasWindow
)

type wmsg struct {
	kind     wkind
	id       uint32
	code     http2.ErrCode
	n        uint32
	ping     [8]byte
	settings peerSettings
	resp     *response
	done     chan struct{}
}

// maxWindow is the largest flow-control window (RFC 9113 §6.9.1).
const maxWindow = 1<<31 - 1

// writer is a connection's only writer: it serializes every frame, owns the
// header encoder (whose dynamic table must see sections in the order the
// peer does) and the send side of flow control.
type writer struct {
	c   *conn
	nc  net.Conn
	bw  *bufio.Writer
	fr  *http2.Framer
	enc headerEncoder
	ch  chan wmsg

	maxFrame   int
	initWindow int64
	connWindow int64
	streams    map[uint32]*wstream
	ready      []*wstream // streams with body left and send window, in turn
	failed     bool
}

// wstream is a stream as the writer sees it.
type wstream struct {
	id     uint32
	window int64
	resp   *response // nil until the handler answers
	sent   int64     // body bytes sent
	queued bool
	gone   bool
}

func (s *wstream) remaining() int64 {
	if s.resp == nil {
		return 0
	}
	return s.resp.bodyLen() - s.sent
}

// writeTimeout bounds one write to a peer that stopped reading.
const writeTimeout = 30 * time.Second

// deadlineWriter gives every write to the connection its own deadline.
type deadlineWriter struct{ nc net.Conn }

func (d deadlineWriter) Write(p []byte) (int, error) {
	d.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return d.nc.Write(p)
}

func newWriter(c *conn) *writer {
	w := &writer{
		c:          c,
		nc:         c.nc,
		enc:        c.srv.codec.newEncoder(),
		ch:         make(chan wmsg, 256),
		maxFrame:   16384,
		initWindow: 65535,
		connWindow: 65535,
		streams:    make(map[uint32]*wstream),
	}
	w.bw = bufio.NewWriterSize(deadlineWriter{c.nc}, 32<<10)
	w.fr = http2.NewFramer(w.bw, nil)
	return w
}

// run writes our SETTINGS, then serves messages until the connection ends.
// It flushes only when it has nothing left to do, so frames of many streams
// share a write.
func (w *writer) run() {
	cfg := w.c.cfg
	w.check(w.fr.WriteSettings(
		http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: uint32(cfg.maxConcurrentStreams)},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: uint32(cfg.maxHeaderListSize)},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: uint32(cfg.initialWindow)},
	))
	if cfg.initialWindow > 65535 {
		w.check(w.fr.WriteWindowUpdate(0, uint32(cfg.initialWindow)-65535))
	}
	yielded := false
	for {
		var m wmsg
		select {
		case m = <-w.ch:
		default:
			if w.sendData() {
				continue
			}
			if w.bw.Buffered() > 0 && !yielded {
				// Let runnable handlers answer first: their frames then
				// share this write.
				yielded = true
				runtime.Gosched()
				continue
			}
			yielded = false
			w.flush()
			select {
			case m = <-w.ch:
			case <-w.c.done:
				return
			}
		}
		w.handle(m)
	}
}

func (w *writer) handle(m wmsg) {
	switch m.kind {
	case wOpen:
		w.streams[m.id] = &wstream{id: m.id, window: w.initWindow}
	case wResponse:
		w.respond(m.resp)
	case wReset:
		w.forget(m.id)
		w.check(w.fr.WriteRSTStream(m.id, m.code))
	case wForget:
		w.forget(m.id)
	case wPeerWindow:
		w.peerWindow(m.id, int64(m.n))
	case wWindowUpdate:
		w.check(w.fr.WriteWindowUpdate(m.id, m.n))
	case wSettings:
		w.applySettings(m.settings)
		w.check(w.fr.WriteSettingsAck())
	case wPingAck:
		w.check(w.fr.WritePing(true, m.ping))
	case wGoAway:
		w.check(w.fr.WriteGoAway(m.id, m.code, nil))
		w.flush()
		if m.done != nil {
			close(m.done)
		}
	}
}

// respond writes a response's header section at once (header frames are
// not flow-controlled) and queues its body.
func (w *writer) respond(resp *response) {
	s := w.streams[resp.id]
	if s == nil || w.failed { // reset meanwhile
		putResponse(resp)
		return
	}
	s.resp = resp
	end := resp.bodyLen() == 0
	if err := w.enc.writeHeaders(w.fr, resp.id, end, w.maxFrame, resp); err != nil {
		w.fail()
		return
	}
	if end {
		w.finish(s)
		return
	}
	w.enqueue(s)
}

func (w *writer) enqueue(s *wstream) {
	if !s.queued && !s.gone && s.window > 0 && s.remaining() > 0 {
		s.queued = true
		w.ready = append(w.ready, s)
	}
}

// sendData gives each ready stream one DATA frame, as flow control allows,
// and reports whether it wrote any.
func (w *writer) sendData() bool {
	if len(w.ready) == 0 || w.connWindow <= 0 || w.failed {
		return false
	}
	sent := false
	keep := w.ready[:0]
	for i, s := range w.ready {
		if w.connWindow <= 0 || w.failed {
			keep = append(keep, w.ready[i:]...)
			break
		}
		if !s.gone {
			w.writeData(s)
			sent = true
		}
		if !s.gone && s.window > 0 && s.remaining() > 0 {
			keep = append(keep, s)
		} else {
			s.queued = false
		}
	}
	clear(w.ready[len(keep):])
	w.ready = keep
	return sent
}

// writeData writes the next DATA frame of s: from the body, then from the
// fill bytes of site.Pattern.
func (w *writer) writeData(s *wstream) {
	n := min(int64(w.maxFrame), s.window, w.connWindow, s.remaining())
	resp := s.resp
	var p []byte
	if s.sent < int64(len(resp.body)) {
		p = resp.body[s.sent:]
	} else {
		p = site.Pattern[(s.sent-int64(len(resp.body)))%int64(len(site.Pattern)):]
	}
	p = p[:min(int64(len(p)), n)]
	s.sent += int64(len(p))
	s.window -= int64(len(p))
	w.connWindow -= int64(len(p))
	end := s.remaining() == 0
	w.check(w.fr.WriteData(s.id, end, p))
	if end {
		w.finish(s)
	}
}

// finish ends a stream we sent END_STREAM on.
func (w *writer) finish(s *wstream) {
	w.forget(s.id)
	w.c.localDone(s.id)
}

func (w *writer) forget(id uint32) {
	if s := w.streams[id]; s != nil {
		s.gone = true
		delete(w.streams, id)
		if s.resp != nil {
			putResponse(s.resp)
			s.resp = nil
		}
	}
}

func (w *writer) peerWindow(id uint32, n int64) {
	if id == 0 {
		w.connWindow += n
		if w.connWindow > maxWindow {
			w.connError(http2.ErrCodeFlowControl)
		}
		return
	}
	s := w.streams[id]
	if s == nil {
		return // closed, or never ours
	}
	s.window += n
	if s.window > maxWindow {
		w.forget(id)
		w.check(w.fr.WriteRSTStream(id, http2.ErrCodeFlowControl))
		w.c.streamReset(id)
		return
	}
	w.enqueue(s)
}

func (w *writer) applySettings(p peerSettings) {
	if p.has&hasTable != 0 {
		w.enc.setPeerTableSize(p.headerTableSize)
	}
	if p.has&hasFrame != 0 {
		w.maxFrame = int(p.maxFrameSize)
	}
	if p.has&hasWindow != 0 {
		delta := int64(p.initialWindow) - w.initWindow
		w.initWindow = int64(p.initialWindow)
		for _, s := range w.streams {
			s.window += delta
			if s.window > maxWindow {
				w.connError(http2.ErrCodeFlowControl)
				return
			}
			w.enqueue(s)
		}
	}
}

// connError ends the connection from the writer's side: GOAWAY, then close.
func (w *writer) connError(code http2.ErrCode) {
	w.check(w.fr.WriteGoAway(w.c.lastStream(), code, nil))
	w.flush()
	w.fail()
}

func (w *writer) flush() {
	if !w.failed {
		w.check(w.bw.Flush())
	}
}

func (w *writer) check(err error) {
	if err != nil && !w.failed {
		w.fail()
	}
}

// fail stops all writing and closes the connection, which ends the reader.
func (w *writer) fail() {
	w.failed = true
	w.nc.Close()
}
