package main

import (
	"errors"
	"sync"
)

// Stream-level outcomes of a request's field section. A decoder hands the
// first one back at the end of the section; the connection goes on.
var (
	// errMalformed: the request is malformed (RFC 9113 §8.1.1): the stream
	// is reset with PROTOCOL_ERROR.
	errMalformed = errors.New("malformed request")
	// errTooLarge: the section is over our SETTINGS_MAX_HEADER_LIST_SIZE:
	// the request is answered with 431.
	errTooLarge = errors.New("request header list too large")
)

// fieldKind is what the server needs to know about a field name. Each codec
// finds it its own way: hqpack from the static FieldID the decoder reports,
// x/net by comparing strings.
type fieldKind uint8

const (
	kRegular fieldKind = iota
	kMethod
	kScheme
	kAuthority
	kPath
	// kBadPseudo is a pseudo-header a request must not carry here:
	// :status, :protocol (we do not announce extended CONNECT), unknown ones.
	kBadPseudo
	kContentLength
	// kTE may only be "trailers" (RFC 9113 §8.2.2).
	kTE
	// kConnSpecific is a connection-specific field: connection, keep-alive,
	// proxy-connection, transfer-encoding, upgrade (RFC 9113 §8.2.2).
	kConnSpecific
)

// span is one field of a request: offsets into request.buf.
type span struct{ nameEnd, valueEnd int }

// request is a decoded request header section. The reader fills it from the
// decoder; the handler reads it and puts it back in the pool.
type request struct {
	buf    []byte
	fields []span
	// Indexes into fields of the pseudo-headers, -1 when absent.
	method, scheme, authority, path int
	// contentLength is the declared request body length, -1 when absent.
	contentLength int64
	size          int // name + value + 32 per field, RFC 9113 §6.5.2
	limit         int // our SETTINGS_MAX_HEADER_LIST_SIZE
	regular       bool
	err           error
}

var requestPool = sync.Pool{New: func() any { return new(request) }}

// keepRequestBytes bounds what a pooled request keeps: one huge request must
// not pin its memory for the life of the process.
const keepRequestBytes = 16 << 10

func getRequest(limit int) *request {
	r := requestPool.Get().(*request)
	r.buf, r.fields = r.buf[:0], r.fields[:0]
	r.method, r.scheme, r.authority, r.path = -1, -1, -1, -1
	r.contentLength = -1
	r.size, r.limit, r.regular, r.err = 0, limit, false, nil
	return r
}

func putRequest(r *request) {
	if cap(r.buf) > keepRequestBytes || cap(r.fields) > 256 {
		return
	}
	requestPool.Put(r)
}

// Len returns the number of fields; At returns field i.
func (r *request) Len() int { return len(r.fields) }

func (r *request) At(i int) (name, value []byte) {
	start := 0
	if i > 0 {
		start = r.fields[i-1].valueEnd
	}
	f := r.fields[i]
	return r.buf[start:f.nameEnd], r.buf[f.nameEnd:f.valueEnd]
}

// value returns the value of field i, or nil when i is -1.
func (r *request) value(i int) []byte {
	if i < 0 {
		return nil
	}
	_, v := r.At(i)
	return v
}

// addField records one decoded field of kind k. Field-level syntax (RFC 9113
// §8.2.1) is the decoder's job; this checks what HTTP/2 says about requests:
// pseudo-headers once each and first (§8.3), no connection-specific fields
// (§8.2.2), a numeric Content-Length. It returns the section's first error:
// the decoders stop delivering fields after it.
func addField[T string | []byte](r *request, k fieldKind, name, value T) error {
	if r.err != nil {
		return r.err
	}
	r.size += len(name) + len(value) + 32
	if r.size > r.limit {
		r.err = errTooLarge
		return r.err
	}
	var slot *int
	switch k {
	case kMethod:
		slot = &r.method
	case kScheme:
		slot = &r.scheme
	case kAuthority:
		slot = &r.authority
	case kPath:
		slot = &r.path
	case kBadPseudo, kConnSpecific:
		r.err = errMalformed
		return r.err
	case kTE:
		if string(value) != "trailers" {
			r.err = errMalformed
			return r.err
		}
	case kContentLength:
		n, ok := parseContentLength(value)
		if !ok || (r.contentLength >= 0 && n != r.contentLength) {
			r.err = errMalformed
			return r.err
		}
		r.contentLength = n
	}
	if slot != nil {
		if r.regular || *slot >= 0 {
			r.err = errMalformed
			return r.err
		}
		*slot = len(r.fields)
	} else {
		r.regular = true
	}
	r.buf = append(r.buf, name...)
	nameEnd := len(r.buf)
	r.buf = append(r.buf, value...)
	r.fields = append(r.fields, span{nameEnd, len(r.buf)})
	return nil
}

// check is the end-of-section check of RFC 9113 §8.3.1: :method, :scheme
// and a non-empty :path, except for CONNECT, which has :authority only.
func (r *request) check() error {
	if r.err != nil {
		return r.err
	}
	if r.method < 0 {
		return errMalformed
	}
	if string(r.value(r.method)) == "CONNECT" {
		if r.authority < 0 || r.scheme >= 0 || r.path >= 0 {
			return errMalformed
		}
		return nil
	}
	if r.scheme < 0 || r.path < 0 || len(r.value(r.path)) == 0 {
		return errMalformed
	}
	return nil
}

// parseContentLength parses a Content-Length value: digits only, no sign,
// no overflow.
func parseContentLength[T string | []byte](v T) (int64, bool) {
	if len(v) == 0 || len(v) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}
