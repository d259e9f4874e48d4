package main

import "sync"

// hfield is one response header field.
type hfield struct{ name, value string }

// response is what a handler hands to the connection's writer: the header
// fields (besides :status and Content-Length, which the codecs add), a body,
// and fill bytes of the pattern (site.Pattern) after it.
type response struct {
	id            uint32
	status        int
	header        []hfield
	contentLength int64 // -1: no Content-Length field
	body          []byte
	fill          int64
	noBody        bool   // HEAD: headers only
	buf           []byte // the handler's scratch for body
}

var responsePool = sync.Pool{New: func() any { return new(response) }}

func getResponse(id uint32) *response {
	r := responsePool.Get().(*response)
	r.id, r.status, r.contentLength, r.noBody = id, 200, -1, false
	r.header, r.body, r.fill, r.buf = r.header[:0], nil, 0, r.buf[:0]
	return r
}

func putResponse(r *response) {
	if cap(r.buf) > 64<<10 || cap(r.header) > 64 {
		return
	}
	clear(r.header[:cap(r.header)]) // drop the strings
	r.body = nil
	responsePool.Put(r)
}

func (r *response) add(name, value string) {
	r.header = append(r.header, hfield{name, value})
}

// bodyLen is the number of body bytes to send.
func (r *response) bodyLen() int64 {
	if r.noBody {
		return 0
	}
	return int64(len(r.body)) + r.fill
}
