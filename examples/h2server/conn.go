package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
)

// conn is one HTTP/2 connection. Its reader goroutine (serve) reads frames
// and owns the header decoder and the receive side of flow control; its
// writer goroutine writes every frame; each request runs a handler
// goroutine. Stream states are shared under mu.
type conn struct {
	srv  *server
	cfg  *config
	nc   net.Conn
	br   *bufio.Reader
	fr   *http2.Framer
	w    *writer
	dec  headerDecoder
	done chan struct{} // closed when the reader ends

	mu           sync.Mutex
	streams      map[uint32]*stream
	lastStreamID uint32       // the highest stream the peer opened
	goingAway    bool         // we sent GOAWAY: no new streams
	running      atomic.Int32 // handlers not yet done

	// Reader only.
	recvWindow  int32 // connection receive window
	recvUnacked int32 // bytes read and not yet given back
	hb          headerBlock
}

// stream is a stream's state. remoteClosed: the peer ended it; localClosed:
// we did. It is forgotten when both are set, or when reset.
type stream struct {
	remoteClosed, localClosed bool
	recvWindow, recvUnacked   int32
	contentLength, received   int64
	// req waits for the end of the request body (discarded as it comes):
	// the handler starts once the request is complete and well-formed.
	req *request
}

// headerBlock is the field section being read: a HEADERS frame and its
// CONTINUATION frames, decoded fragment by fragment.
type headerBlock struct {
	id        uint32
	st        *stream  // the new stream, when the section opens one
	req       *request // where the fields go; nil: decode only
	trailers  bool
	endStream bool
	reset     http2.ErrCode // reset the stream after the section
	conts     int
	wire      int
}

// connErr is a connection error: GOAWAY with its code, then close.
type connErr http2.ErrCode

func (e connErr) Error() string { return "connection error: " + http2.ErrCode(e).String() }

func newConn(s *server, nc net.Conn) *conn {
	c := &conn{
		srv:        s,
		cfg:        &s.cfg,
		nc:         nc,
		br:         bufio.NewReaderSize(nc, 32<<10),
		done:       make(chan struct{}),
		streams:    make(map[uint32]*stream),
		recvWindow: s.cfg.initialWindow,
	}
	c.fr = http2.NewFramer(nil, c.br)
	c.fr.SetMaxReadFrameSize(16384) // we announce no larger SETTINGS_MAX_FRAME_SIZE
	c.fr.SetReuseFrames()
	c.dec = s.codec.newDecoder(c.cfg)
	c.w = newWriter(c)
	return c
}

// prefaceTimeout bounds the wait for the client's preface and SETTINGS.
const prefaceTimeout = 10 * time.Second

func (c *conn) serve() {
	go c.w.run()
	err := c.readLoop()
	var ce connErr
	if errors.As(err, &ce) {
		c.sendGoAway(http2.ErrCode(ce), true)
		c.linger()
	}
	close(c.done)
	c.nc.Close()
}

func (c *conn) readLoop() error {
	c.nc.SetReadDeadline(time.Now().Add(prefaceTimeout))
	var preface [len(http2.ClientPreface)]byte
	if _, err := io.ReadFull(c.br, preface[:]); err != nil {
		return err
	}
	if !bytes.Equal(preface[:], []byte(http2.ClientPreface)) {
		return connErr(http2.ErrCodeProtocol)
	}
	for first := true; ; first = false {
		fh, err := c.fr.ReadFrameHeader()
		if err != nil {
			return c.readError(fh, err)
		}
		f, err := c.fr.ReadFrameForHeader(fh)
		if err != nil {
			if err = c.readError(fh, err); err != nil {
				return err
			}
			continue
		}
		if first {
			// The preface ends with SETTINGS (RFC 9113 §3.4).
			if sf, ok := f.(*http2.SettingsFrame); !ok || sf.IsAck() {
				return connErr(http2.ErrCodeProtocol)
			}
			c.nc.SetReadDeadline(time.Time{})
		}
		if err := c.process(f); err != nil {
			return err
		}
	}
}

// readError turns the Framer's errors into ours; nil means the stream was
// reset and reading goes on. A stream error in a frame that carries a
// header block is a connection error: the block is lost and the decoder's
// table with it.
func (c *conn) readError(fh http2.FrameHeader, err error) error {
	var se http2.StreamError
	var ce http2.ConnectionError
	switch {
	case errors.Is(err, http2.ErrFrameTooLarge):
		return connErr(http2.ErrCodeFrameSize)
	case errors.As(err, &ce):
		return connErr(ce)
	case errors.As(err, &se):
		if fh.Type == http2.FrameHeaders || fh.Type == http2.FrameContinuation {
			return connErr(http2.ErrCodeProtocol)
		}
		c.resetStream(se.StreamID, se.Code)
		return nil
	}
	return err
}

func (c *conn) process(f http2.Frame) error {
	switch f := f.(type) {
	case *http2.HeadersFrame:
		return c.onHeaders(f)
	case *http2.ContinuationFrame:
		return c.onContinuation(f)
	case *http2.DataFrame:
		return c.onData(f)
	case *http2.SettingsFrame:
		return c.onSettings(f)
	case *http2.WindowUpdateFrame:
		return c.onWindowUpdate(f)
	case *http2.PingFrame:
		if !f.IsAck() {
			c.send(wmsg{kind: wPingAck, ping: f.Data})
		}
	case *http2.RSTStreamFrame:
		return c.onReset(f)
	case *http2.PriorityFrame:
		if f.StreamDep == f.StreamID {
			c.resetStream(f.StreamID, http2.ErrCodeProtocol)
		}
	case *http2.PushPromiseFrame:
		return connErr(http2.ErrCodeProtocol) // clients do not push
	}
	return nil // GOAWAY from the peer and unknown types: nothing to do
}

func (c *conn) lastStream() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastStreamID
}

// send hands m to the writer, unless the connection is over.
func (c *conn) send(m wmsg) bool {
	select {
	case c.w.ch <- m:
		return true
	case <-c.done:
		return false
	}
}

// goAway starts a graceful shutdown: GOAWAY (NO_ERROR) with the last stream
// we will serve; later streams are refused.
func (c *conn) goAway() {
	c.mu.Lock()
	c.goingAway = true
	c.mu.Unlock()
	c.sendGoAway(http2.ErrCodeNo, false)
}

// sendGoAway sends GOAWAY; with wait, until it is written (or a second).
func (c *conn) sendGoAway(code http2.ErrCode, wait bool) {
	m := wmsg{kind: wGoAway, id: c.lastStream(), code: code}
	if wait {
		m.done = make(chan struct{})
	}
	if !c.send(m) || !wait {
		return
	}
	select {
	case <-m.done:
	case <-time.After(time.Second):
	}
}

// linger, after a GOAWAY for an error, closes our side and reads what the
// peer still sends, for a moment: closing with unread data would reset the
// connection and could destroy the GOAWAY before the peer reads it.
func (c *conn) linger() {
	if tc, ok := c.nc.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	c.nc.SetReadDeadline(time.Now().Add(time.Second))
	io.CopyN(io.Discard, c.nc, 1<<20)
}
