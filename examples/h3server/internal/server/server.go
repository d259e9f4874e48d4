// Package server is examples/h3server's server: the routes, HTTP/3 on
// quic-go's QUIC with hqpack's QPACK (internal/h3), and the same routes on
// quic-go's http3 package for comparison.
package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/hqpack/hqpack/examples/internal/site"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hqpack/hqpack/examples/h3server/internal/h3"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
	"github.com/quic-go/quic-go"
)

// Server is the HTTP/3 server: one goroutine per connection accepting
// request streams, one per request stream reading the request, running
// the route and writing the response.
type Server struct {
	cfg        h3.Config
	impl       string
	stats      bool // print each connection's counters when it ends
	log        io.Writer
	requests   atomic.Int64
	requestIDs atomic.Uint64

	mu     sync.Mutex
	conns  map[*h3.Conn]int // open connections, by number
	nconn  int
	total  h3.Counters // of the connections that ended
	closed bool
}

// New returns a Server for implementation impl ("hqpack" or "quic-go")
// with the connection settings cfg; with stats it prints each
// connection's QPACK counters to log when the connection ends.
func New(cfg h3.Config, impl string, stats bool, log io.Writer) *Server {
	return &Server{cfg: cfg, impl: impl, stats: stats, log: log, conns: make(map[*h3.Conn]int)}
}

// Serve accepts connections until ln is closed.
func (s *Server) Serve(ln *quic.Listener) error {
	for {
		q, err := ln.Accept(context.Background())
		if err != nil {
			return err
		}
		go s.serveConn(q)
	}
}

// serveConn runs one connection.
func (s *Server) serveConn(q *quic.Conn) {
	c, err := h3.Start(q, s.cfg, false)
	if err != nil {
		q.CloseWithError(quic.ApplicationErrorCode(h3.ErrInternal), "")
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.Close()
		return
	}
	s.nconn++
	s.conns[c] = s.nconn
	s.mu.Unlock()
	go func() {
		<-c.Done()
		s.ended(c)
	}()
	for {
		str, err := q.AcceptStream(context.Background())
		if err != nil {
			return
		}
		go s.serveStream(c, str)
	}
}

// ended adds a finished connection's counters to the totals and prints
// them with -stats.
func (s *Server) ended(c *h3.Conn) {
	k := c.Counters()
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.conns[c]
	if !ok {
		return
	}
	delete(s.conns, c)
	s.total.Add(k)
	if s.stats {
		fmt.Fprintf(s.log, "h3server: stats conn=%d peer=%v %v\n", n, c.QUIC().RemoteAddr(), k)
	}
}

// Shutdown sends GOAWAY on every connection, gives requests up to a
// second, closes what is left and prints the totals with stats.
func (s *Server) Shutdown() {
	s.mu.Lock()
	s.closed = true
	conns := make([]*h3.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.SendGoAway(0) // no new requests; those in flight finish
	}
	deadline := time.After(time.Second)
	for _, c := range conns {
		select {
		case <-c.Done():
		case <-deadline:
		}
	}
	for _, c := range conns {
		c.Close()
		<-c.Done()
		s.ended(c)
	}
	if s.stats {
		s.mu.Lock()
		fmt.Fprintf(s.log, "h3server: stats total connections=%d %v\n", s.nconn, s.total)
		s.mu.Unlock()
	}
}

// stream is a request stream's reusable state.
type stream struct {
	r        *h3.Reader
	req      h3.Head
	trailers h3.Head
	resp     response
	fields   fastpath.FieldList
	out      []byte
}

var streamPool = sync.Pool{New: func() any {
	return &stream{r: h3.NewReader(nil, 4096), out: make([]byte, 0, 4096)}
}}

// keepStreamBytes bounds what a pooled stream keeps.
const keepStreamBytes = 64 << 10

// serveStream reads a request, runs the route and writes the response
// (RFC 9114 §4.1). Malformed requests are reset with H3_MESSAGE_ERROR.
func (s *Server) serveStream(c *h3.Conn, str *quic.Stream) {
	st := streamPool.Get().(*stream)
	defer func() {
		if cap(st.out) <= keepStreamBytes && cap(st.resp.buf) <= keepStreamBytes {
			st.r.Reset(nil)
			st.fields.Reset()
			st.resp.reset()
			streamPool.Put(st)
		}
	}()
	st.r.Reset(str)
	st.req.Reset(h3.Request)
	err := c.ReadHead(str, st.r, &st.req)
	if err == nil {
		_, err = c.ReadBody(str, st.r, &st.req, &st.trailers, nil)
	}
	st.resp.reset()
	switch {
	case err == nil:
		s.route(&st.req, &st.resp, c.Counters)
	case errors.Is(err, fastpath.ErrSectionTooLarge) || errors.Is(err, fastpath.ErrStringTooLong) || errors.Is(err, qpack.ErrTooManyFields):
		// Over our limits, not malformed: 431, without reading the rest
		// (RFC 9114 §4.1.1 allows H3_NO_ERROR once the response is out).
		st.resp.status, st.resp.contentLength = 431, 0
		defer func() {
			str.CancelRead(quic.StreamErrorCode(h3.ErrNoError))
			c.CancelStream(uint64(str.StreamID()))
		}()
	default:
		if code, ok := h3.StreamCode(err); ok {
			c.Reset(str, code)
		} else if err == io.EOF {
			// No request at all (RFC 9114 §4.1.2: incomplete).
			c.Reset(str, h3.ErrRequestIncomplete)
		}
		return // connection errors and resets: nothing to answer
	}
	s.writeResponse(c, str, st)
}

// writeResponse writes the response's HEADERS frame (the section encoded
// by the connection's Encoder, Content-Length as a number) and body, then
// ends the stream.
func (s *Server) writeResponse(c *h3.Conn, str *quic.Stream, st *stream) {
	resp := &st.resp
	l := &st.fields
	l.Reset()
	l.AddID(idStatus, statusText(resp.status), 0)
	for _, h := range resp.header {
		l.Add(h.name, h.value, 0)
	}
	if resp.contentLength >= 0 {
		l.AddContentLength(resp.contentLength)
	}
	out := c.AppendHeaders(st.out[:0], uint64(str.StreamID()), l)
	if n := int64(len(resp.body)); n > 0 && !resp.noBody {
		out = h3.AppendFrameHeader(out, h3.FrameData, uint64(n))
		out = append(out, resp.body...)
	}
	st.out = out
	if _, err := str.Write(out); err != nil {
		return
	}
	for fill := resp.fill; fill > 0 && !resp.noBody; {
		k := min(fill, int64(len(site.Pattern)))
		hdr := h3.AppendFrameHeader(st.out[:0], h3.FrameData, uint64(k))
		if _, err := str.Write(hdr); err != nil {
			return
		}
		if _, err := str.Write(site.Pattern[:k]); err != nil {
			return
		}
		fill -= k
	}
	str.Close()
	c.CountRequest()
	s.requests.Add(1)
}

// Totals returns the counters of the connections that have ended.
func (s *Server) Totals() h3.Counters {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Requests returns the number of requests answered.
func (s *Server) Requests() int64 { return s.requests.Load() }

// idStatus is the FieldID of ":status", for FieldList.AddID.
var idStatus = h3.MustFieldID(":status")
