package main

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// config holds the limits a connection announces and enforces.
type config struct {
	// maxConcurrentStreams is our SETTINGS_MAX_CONCURRENT_STREAMS.
	maxConcurrentStreams int
	// maxHeaderListSize is our SETTINGS_MAX_HEADER_LIST_SIZE: a request
	// over it is answered with 431.
	maxHeaderListSize int
	// hardHeaderBytes bounds a request section, decoded (name + value + 32
	// per field) and on the wire: past it the connection is closed.
	hardHeaderBytes int
	// maxContinuations caps the CONTINUATION frames of one section
	// (CVE-2023-45288: an endless stream of them must not be read forever).
	maxContinuations int
	// initialWindow is our SETTINGS_INITIAL_WINDOW_SIZE and the connection
	// receive window.
	initialWindow int32
}

func defaultConfig() config {
	return config{
		maxConcurrentStreams: 100,
		maxHeaderListSize:    64 << 10,
		hardHeaderBytes:      256 << 10,
		maxContinuations:     64,
		initialWindow:        1 << 20,
	}
}

// server accepts connections and serves each on its own goroutines.
type server struct {
	codec codecKind
	cfg   config

	mu       sync.Mutex
	conns    map[*conn]struct{}
	ln       net.Listener
	closing  bool
	wg       sync.WaitGroup
	accepted atomic.Int64 // connections, for tests

	requests   atomic.Int64
	requestIDs atomic.Uint64
}

func newServer(codec codecKind) *server {
	return &server{codec: codec, cfg: defaultConfig(), conns: make(map[*conn]struct{})}
}

// Serve accepts connections on ln until Shutdown or Close.
func (s *server) Serve(ln net.Listener) error {
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closing := s.closing
			s.mu.Unlock()
			if closing {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			return err
		}
		s.accepted.Add(1)
		c := newConn(s, nc)
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			nc.Close()
			continue
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			c.serve()
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// Shutdown stops accepting, sends GOAWAY (NO_ERROR) on every connection,
// waits up to timeout for them to end, then closes the rest.
func (s *server) Shutdown(timeout time.Duration) {
	s.mu.Lock()
	s.closing = true
	if s.ln != nil {
		s.ln.Close()
	}
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.goAway()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(timeout):
	}
	s.Close()
	<-done
}

// Close closes the listener and every connection at once.
func (s *server) Close() {
	s.mu.Lock()
	s.closing = true
	if s.ln != nil {
		s.ln.Close()
	}
	for c := range s.conns {
		c.nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}
