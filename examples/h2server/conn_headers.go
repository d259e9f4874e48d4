package main

import "golang.org/x/net/http2"

// onHeaders starts a field section: a request that opens a stream, trailers,
// or a section decoded only to keep the table in sync before a reset.
func (c *conn) onHeaders(f *http2.HeadersFrame) error {
	id := f.StreamID
	if id%2 == 0 {
		return connErr(http2.ErrCodeProtocol) // clients open odd streams
	}
	frag := f.HeaderBlockFragment()
	c.hb = headerBlock{id: id, endStream: f.StreamEnded(), wire: len(frag)}
	hb := &c.hb
	c.mu.Lock()
	st := c.streams[id]
	switch {
	case st != nil: // trailers
		switch {
		case st.remoteClosed:
			hb.reset = http2.ErrCodeStreamClosed
		case !f.StreamEnded():
			hb.reset = http2.ErrCodeProtocol
		default:
			hb.trailers = true
		}
	case id <= c.lastStreamID:
		c.mu.Unlock()
		return connErr(http2.ErrCodeStreamClosed) // a closed stream (§5.1)
	default:
		c.lastStreamID = id
		switch {
		case c.goingAway || len(c.streams) >= c.cfg.maxConcurrentStreams:
			hb.reset = http2.ErrCodeRefusedStream
		case f.HasPriority() && f.Priority.StreamDep == id:
			hb.reset = http2.ErrCodeProtocol // depends on itself (§5.3.1)
		default:
			hb.st = &stream{recvWindow: c.cfg.initialWindow, contentLength: -1}
			c.streams[id] = hb.st
			hb.req = getRequest(c.cfg.maxHeaderListSize)
		}
	}
	c.mu.Unlock()
	c.dec.begin(hb.req)
	return c.fragment(frag, f.HeadersEnded())
}

// onContinuation decodes the next fragment, within the caps: a section may
// not go on forever (CVE-2023-45288), however small its frames.
func (c *conn) onContinuation(f *http2.ContinuationFrame) error {
	frag := f.HeaderBlockFragment()
	c.hb.conts++
	c.hb.wire += len(frag)
	if c.hb.conts > c.cfg.maxContinuations {
		return connErr(http2.ErrCodeEnhanceYourCalm)
	}
	return c.fragment(frag, f.HeadersEnded())
}

func (c *conn) fragment(frag []byte, end bool) error {
	if c.hb.wire > c.cfg.hardHeaderBytes {
		return connErr(http2.ErrCodeEnhanceYourCalm)
	}
	if err := c.dec.write(frag); err != nil {
		return connErr(http2.ErrCodeCompression)
	}
	if end {
		return c.endHeaders()
	}
	return nil
}

// endHeaders ends the section and acts on it: start the handler, answer
// 431, or reset the stream.
func (c *conn) endHeaders() error {
	hb := &c.hb
	streamErr, fatal := c.dec.end()
	if fatal != nil {
		return connErr(http2.ErrCodeCompression)
	}
	req := hb.req
	hb.req = nil
	switch {
	case hb.reset != 0:
		c.resetStream(hb.id, hb.reset)
		return nil
	case hb.trailers:
		if streamErr != nil {
			c.resetStream(hb.id, http2.ErrCodeProtocol)
			return nil
		}
		c.mu.Lock()
		var ready *request
		ok := false
		if st := c.streams[hb.id]; st != nil {
			if ok = c.endBody(hb.id, st); ok {
				ready, st.req = st.req, nil
			}
		}
		c.mu.Unlock()
		if !ok {
			c.resetStream(hb.id, http2.ErrCodeProtocol)
		} else if ready != nil {
			return c.start(hb.id, ready)
		}
		return nil
	}
	if streamErr == nil {
		streamErr = req.check()
	}
	switch streamErr {
	case nil:
		// The stream is the writer's too from now on: WINDOW_UPDATE frames
		// may come before the request is complete.
		c.send(wmsg{kind: wOpen, id: hb.id})
		if !hb.endStream {
			// The handler starts when the body has come (onData).
			c.mu.Lock()
			hb.st.contentLength, hb.st.req = req.contentLength, req
			c.mu.Unlock()
			return nil
		}
		c.mu.Lock()
		hb.st.contentLength = req.contentLength
		ok := c.endBody(hb.id, hb.st)
		c.mu.Unlock()
		if !ok {
			putRequest(req)
			c.resetStream(hb.id, http2.ErrCodeProtocol)
			return nil
		}
		return c.start(hb.id, req)
	case errTooLarge:
		putRequest(req)
		if hb.endStream {
			c.mu.Lock()
			hb.st.remoteClosed = true
			c.mu.Unlock()
		}
		c.send(wmsg{kind: wOpen, id: hb.id})
		resp := getResponse(hb.id)
		resp.status, resp.contentLength = 431, 0
		c.send(wmsg{kind: wResponse, resp: resp})
	default:
		putRequest(req)
		c.resetStream(hb.id, http2.ErrCodeProtocol)
	}
	return nil
}

// start runs the handler of a complete request.
// Handlers outlive their streams when the peer resets them at once: a
// peer that opens and resets streams faster than handlers finish
// (CVE-2023-44487, "rapid reset") is cut off at this many per stream slot.
func (c *conn) start(id uint32, req *request) error {
	if c.running.Add(1) > int32(4*c.cfg.maxConcurrentStreams) {
		c.running.Add(-1)
		putRequest(req)
		return connErr(http2.ErrCodeEnhanceYourCalm)
	}
	c.srv.requests.Add(1)
	go c.handle(id, req)
	return nil
}

// handle runs on the stream's goroutine: the route fills a response, which
// goes to the writer.
func (c *conn) handle(id uint32, req *request) {
	resp := getResponse(id)
	c.srv.serveHTTP(req, resp)
	putRequest(req)
	c.running.Add(-1)
	if !c.send(wmsg{kind: wResponse, resp: resp}) {
		putResponse(resp)
	}
}
