package server

import (
	"bytes"
	"github.com/hqpack/hqpack/examples/internal/site"
	"strconv"

	"github.com/hqpack/hqpack/examples/h3server/internal/h3"
)

// Limits of the routes that take a number.
const (
	maxBytes      = 1 << 30
	maxHeaders    = 1000
	largeValueLen = 1024
)

var helloBody = []byte("hello, world\n")

// pageBody is /page's body: a small HTML page.
var pageBody = []byte("<!doctype html>\n<html><head><title>h3server</title></head>\n" +
	"<body><p>A page served over HTTP/3 with hqpack.</p></body></html>\n")

// hfield is one response header field.
type hfield struct{ name, value string }

// response is what a route fills: the fields besides :status and
// Content-Length (which the writer adds, the latter as a number), a body,
// and fill bytes of the pattern (site.Pattern) after it.
type response struct {
	status        int
	header        []hfield
	contentLength int64 // -1: no Content-Length field
	body          []byte
	fill          int64
	noBody        bool   // HEAD: the fields only
	buf           []byte // the route's scratch for body
}

func (r *response) reset() {
	clear(r.header)
	r.status, r.header, r.contentLength, r.body, r.fill, r.noBody, r.buf = 200, r.header[:0], -1, nil, 0, false, r.buf[:0]
}

func (r *response) add(name, value string) { r.header = append(r.header, hfield{name, value}) }

func (r *response) setBody(b []byte) {
	r.body = b
	r.contentLength = int64(len(b))
}

// route fills resp for req: the routes of the example, the same for both
// implementations. stats is the connection's QPACK counters, for /stats
// (nil when the implementation has none).
func (s *Server) route(req *h3.Head, resp *response, stats func() h3.Counters) {
	method := req.Value(req.Method)
	path := req.Value(req.Path)
	if i := bytes.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	resp.noBody = string(method) == "HEAD"
	switch {
	case string(method) == "CONNECT":
		resp.status, resp.contentLength = 405, 0
	case string(path) == "/":
		resp.add("content-type", "text/plain; charset=utf-8")
		resp.setBody(helloBody)
	case string(path) == "/page":
		s.page(resp)
	case string(path) == "/echo":
		echo(req, resp)
	case string(path) == "/stats":
		resp.add("content-type", "text/plain; charset=utf-8")
		if stats == nil {
			resp.status = 404
			resp.setBody([]byte("no QPACK counters with -impl quic-go\n"))
			return
		}
		resp.buf = append(resp.buf, stats().String()...)
		resp.setBody(append(resp.buf, '\n'))
	case string(path) == "/debug/rusage":
		resp.add("content-type", "text/plain; charset=utf-8")
		resp.buf = site.AppendRusage(resp.buf, s.requests.Load())
		resp.setBody(resp.buf)
	case bytes.HasPrefix(path, []byte("/bytes/")):
		n, ok := h3.ParseContentLength(path[len("/bytes/"):])
		if !ok || n > maxBytes {
			resp.status, resp.contentLength = 400, 0
			return
		}
		resp.add("content-type", "application/octet-stream")
		resp.contentLength, resp.fill = n, n
	case bytes.HasPrefix(path, []byte("/headers/")):
		n, ok := h3.ParseContentLength(path[len("/headers/"):])
		if !ok || n > maxHeaders {
			resp.status, resp.contentLength = 400, 0
			return
		}
		resp.add("content-type", "text/plain; charset=utf-8")
		for i := range int(n) {
			resp.add(site.LargeName(i), site.LargeValue(i))
		}
		resp.setBody(helloBody)
	default:
		resp.status = 404
		resp.add("content-type", "text/plain; charset=utf-8")
		resp.setBody([]byte("not found\n"))
	}
}

// page is the route with 8 response fields, as a small dynamic page has:
// :status, content-type, content-length, cache-control, date, server, vary
// and a per-request x-request-id.
func (s *Server) page(resp *response) {
	resp.add("content-type", "text/html; charset=utf-8")
	resp.add("cache-control", "private, max-age=60")
	resp.add("date", site.HTTPDate())
	resp.add("server", "h3server")
	resp.add("vary", "accept-encoding")
	resp.add("x-request-id", strconv.FormatUint(s.requestIDs.Add(1), 16))
	resp.setBody(pageBody)
}

// echo sends the request's fields back: each one as a line of the body, and
// each regular one as a response field named echo-NAME.
func echo(req *h3.Head, resp *response) {
	resp.add("content-type", "text/plain; charset=utf-8")
	for i := range req.Len() {
		name, value := req.At(i)
		resp.buf = append(resp.buf, name...)
		resp.buf = append(resp.buf, ": "...)
		resp.buf = append(resp.buf, value...)
		resp.buf = append(resp.buf, '\n')
		if name[0] != ':' {
			resp.add("echo-"+string(name), string(value))
		}
	}
	resp.setBody(resp.buf)
}

// statusText is the :status value of a code.
func statusText(code int) string {
	switch code {
	case 200:
		return "200"
	case 404:
		return "404"
	}
	return strconv.Itoa(code)
}
