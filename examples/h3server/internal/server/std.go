package server

import (
	"context"
	"crypto/tls"
	"github.com/hqpack/hqpack/examples/internal/site"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hqpack/hqpack/examples/h3server/internal/h3"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// ServeStd serves the routes with quic-go's http3 package and its
// static-only QPACK (-impl quic-go), the baseline of the measurements. It
// returns the function that stops it.
func (s *Server) ServeStd(udp *net.UDPConn, tlsConf *tls.Config, quicConf *quic.Config) func() {
	srv := &http3.Server{
		TLSConfig:  http3.ConfigureTLSConfig(tlsConf),
		QUICConfig: quicConf,
		Handler:    http.HandlerFunc(s.serveStdHTTP),
	}
	go srv.Serve(udp)
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		srv.Close()
	}
}

type stdState struct {
	req  h3.Head
	resp response
	keys []string
}

var stdPool = sync.Pool{New: func() any { return new(stdState) }}

// serveStdHTTP turns an http.Request into the fields the routes read
// (pseudo-header fields first, then the header in name order, names in
// lowercase: quic-go has canonicalized them and kept no order), runs the
// same route, and writes its response through http.ResponseWriter.
func (s *Server) serveStdHTTP(w http.ResponseWriter, r *http.Request) {
	st := stdPool.Get().(*stdState)
	defer stdPool.Put(st)
	req := &st.req
	req.Reset(h3.Request)
	req.Field([]byte(":method"), []byte(r.Method), 0)
	req.Field([]byte(":scheme"), []byte("https"), 0)
	req.Field([]byte(":authority"), []byte(r.Host), 0)
	req.Field([]byte(":path"), []byte(r.URL.RequestURI()), 0)
	st.keys = st.keys[:0]
	for k := range r.Header {
		st.keys = append(st.keys, k)
	}
	slices.Sort(st.keys)
	for _, k := range st.keys {
		name := []byte(strings.ToLower(k))
		for _, v := range r.Header[k] {
			req.Field(name, []byte(v), 0)
		}
	}
	resp := &st.resp
	resp.reset()
	s.route(req, resp, nil)
	h := w.Header()
	for _, f := range resp.header {
		h[f.name] = append(h[f.name], f.value) // as given: no canonicalizing
	}
	if resp.contentLength >= 0 {
		// Canonical: quic-go adds its own Content-Length unless it finds this one.
		h["Content-Length"] = []string{strconv.FormatInt(resp.contentLength, 10)}
	}
	w.WriteHeader(resp.status)
	if !resp.noBody {
		w.Write(resp.body)
		for fill := resp.fill; fill > 0; {
			k := min(fill, int64(len(site.Pattern)))
			w.Write(site.Pattern[:k])
			fill -= k
		}
	}
	s.requests.Add(1)
}
