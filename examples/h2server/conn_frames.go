package main

import (
	"errors"

	"golang.org/x/net/http2"
)

// The frames besides header blocks, and the stream states they move.

func (c *conn) onSettings(f *http2.SettingsFrame) error {
	if f.IsAck() {
		return nil
	}
	var p peerSettings
	err := f.ForeachSetting(func(s http2.Setting) error {
		if err := s.Valid(); err != nil {
			return err
		}
		switch s.ID {
		case http2.SettingHeaderTableSize:
			p.headerTableSize, p.has = s.Val, p.has|hasTable
		case http2.SettingMaxFrameSize:
			p.maxFrameSize, p.has = s.Val, p.has|hasFrame
		case http2.SettingInitialWindowSize:
			p.initialWindow, p.has = s.Val, p.has|hasWindow
		}
		return nil
	})
	var ce http2.ConnectionError
	if errors.As(err, &ce) {
		return connErr(ce)
	}
	c.send(wmsg{kind: wSettings, settings: p})
	return nil
}

// idle reports whether the peer has not opened stream id yet (client
// streams are odd; we open none).
func (c *conn) idle(id uint32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return id%2 == 0 || id > c.lastStreamID
}

func (c *conn) onWindowUpdate(f *http2.WindowUpdateFrame) error {
	if f.StreamID != 0 && c.idle(f.StreamID) {
		return connErr(http2.ErrCodeProtocol)
	}
	c.send(wmsg{kind: wPeerWindow, id: f.StreamID, n: f.Increment})
	return nil
}

func (c *conn) onReset(f *http2.RSTStreamFrame) error {
	if c.idle(f.StreamID) {
		return connErr(http2.ErrCodeProtocol)
	}
	c.mu.Lock()
	_, open := c.streams[f.StreamID]
	c.forget(f.StreamID)
	c.mu.Unlock()
	if open {
		c.send(wmsg{kind: wForget, id: f.StreamID})
	}
	return nil
}

func (c *conn) onData(f *http2.DataFrame) error {
	id, n := f.StreamID, int32(f.Length)
	// The connection window counts every DATA frame, padding included.
	if n > c.recvWindow {
		return connErr(http2.ErrCodeFlowControl)
	}
	c.recvWindow -= n
	c.recvUnacked += n
	if c.recvUnacked >= c.cfg.initialWindow/2 {
		c.send(wmsg{kind: wWindowUpdate, n: uint32(c.recvUnacked)})
		c.recvWindow += c.recvUnacked
		c.recvUnacked = 0
	}
	if c.idle(id) {
		return connErr(http2.ErrCodeProtocol)
	}
	var reset http2.ErrCode
	var update int32
	var ready *request
	c.mu.Lock()
	st := c.streams[id]
	switch {
	case st == nil || st.remoteClosed:
		reset = http2.ErrCodeStreamClosed
	case n > st.recvWindow:
		reset = http2.ErrCodeFlowControl
	default:
		st.recvWindow -= n
		st.received += int64(len(f.Data()))
		if f.StreamEnded() {
			if !c.endBody(id, st) {
				reset = http2.ErrCodeProtocol // §8.1.1: malformed
			} else {
				ready, st.req = st.req, nil
			}
			break
		}
		if st.contentLength >= 0 && st.received > st.contentLength {
			reset = http2.ErrCodeProtocol
			break
		}
		// The body is discarded as it arrives: give the window back.
		st.recvUnacked += n
		if st.recvUnacked >= c.cfg.initialWindow/2 {
			update = st.recvUnacked
			st.recvWindow += update
			st.recvUnacked = 0
		}
	}
	c.mu.Unlock()
	switch {
	case reset != 0:
		c.resetStream(id, reset)
	case ready != nil:
		return c.start(id, ready)
	case update > 0:
		c.send(wmsg{kind: wWindowUpdate, id: id, n: uint32(update)})
	}
	return nil
}

// endBody records the end of the peer's side of st and reports whether the
// body matched its Content-Length. c.mu is held.
func (c *conn) endBody(id uint32, st *stream) bool {
	st.remoteClosed = true
	if st.contentLength >= 0 && st.received != st.contentLength {
		return false
	}
	c.closeIfDone(id, st)
	return true
}

// closeIfDone forgets st once both ends closed it. c.mu is held.
func (c *conn) closeIfDone(id uint32, st *stream) {
	if st.remoteClosed && st.localClosed {
		delete(c.streams, id)
	}
}

// forget drops stream id and a request still waiting on it. c.mu is held.
func (c *conn) forget(id uint32) {
	if st := c.streams[id]; st != nil {
		if st.req != nil {
			putRequest(st.req)
			st.req = nil
		}
		delete(c.streams, id)
	}
}

// localDone records that the writer sent END_STREAM on id.
func (c *conn) localDone(id uint32) {
	c.mu.Lock()
	if st := c.streams[id]; st != nil {
		st.localClosed = true
		c.closeIfDone(id, st)
	}
	c.mu.Unlock()
}

// streamReset forgets a stream the writer reset.
func (c *conn) streamReset(id uint32) {
	c.mu.Lock()
	c.forget(id)
	c.mu.Unlock()
}

// resetStream forgets id and has the writer send RST_STREAM.
func (c *conn) resetStream(id uint32, code http2.ErrCode) {
	c.streamReset(id)
	c.send(wmsg{kind: wReset, id: id, code: code})
}
