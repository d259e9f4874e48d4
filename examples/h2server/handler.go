package main

import (
	"bytes"
	"github.com/hqpack/hqpack/examples/internal/site"
	"strconv"
)

// Limits of the routes that take a number.
const (
	maxBytes   = 1 << 30
	maxHeaders = 1000
)

var helloBody = []byte("hello, world\n")

// pageBody is /page's body: a small HTML page.
var pageBody = []byte("<!doctype html>\n<html><head><title>h2server</title></head>\n" +
	"<body><p>A page served over HTTP/2 with hqpack.</p></body></html>\n")

// serveHTTP fills resp for req: the routes of the example. It runs on the
// stream's own goroutine.
func (s *server) serveHTTP(req *request, resp *response) {
	method := req.value(req.method)
	path := req.value(req.path)
	if i := bytes.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	resp.noBody = string(method) == "HEAD"
	switch {
	case string(method) == "CONNECT":
		resp.status = 405
		resp.contentLength = 0
	case string(path) == "/":
		resp.add("content-type", "text/plain; charset=utf-8")
		resp.setBody(helloBody)
	case string(path) == "/page":
		s.page(resp)
	case string(path) == "/echo":
		echo(req, resp)
	case string(path) == "/debug/rusage":
		resp.add("content-type", "text/plain; charset=utf-8")
		resp.buf = site.AppendRusage(resp.buf, s.requests.Load())
		resp.setBody(resp.buf)
	case bytes.HasPrefix(path, []byte("/bytes/")):
		n, ok := parseContentLength(path[len("/bytes/"):])
		if !ok || n > maxBytes {
			resp.status, resp.contentLength = 400, 0
			return
		}
		resp.add("content-type", "application/octet-stream")
		resp.contentLength, resp.fill = n, n
	case bytes.HasPrefix(path, []byte("/headers/")):
		n, ok := parseContentLength(path[len("/headers/"):])
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

func (r *response) setBody(b []byte) {
	r.body = b
	r.contentLength = int64(len(b))
}

// page is the route with 8 response fields, as a small dynamic page has:
// :status, content-type, content-length, cache-control, date, server, vary
// and a per-request x-request-id.
func (s *server) page(resp *response) {
	resp.add("content-type", "text/html; charset=utf-8")
	resp.add("cache-control", "private, max-age=60")
	resp.add("date", site.HTTPDate())
	resp.add("server", "h2server")
	resp.add("vary", "accept-encoding")
	resp.add("x-request-id", strconv.FormatUint(s.requestIDs.Add(1), 16))
	resp.setBody(pageBody)
}

// echo sends the request's fields back: each one as a line of the body, and
// each regular one as a response field named echo-NAME.
func echo(req *request, resp *response) {
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
