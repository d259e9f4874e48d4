package h3

import (
	"bytes"
	"errors"

	"github.com/hqpack/hqpack/fastpath"
)

// ErrMalformed reports a malformed request or response (RFC 9114 §4.1.2):
// a stream error of type H3_MESSAGE_ERROR.
var ErrMalformed = errors.New("h3: malformed message")

// Kind is the kind of field section a Head holds.
type Kind uint8

// The kinds of field section.
const (
	Request Kind = iota
	Response
	Trailers
)

type span struct{ nameEnd, valueEnd int }

// Head is a decoded field section: a fastpath.Sink that copies the fields
// and checks what RFC 9114 says of requests (§4.3.1), responses (§4.3.2)
// and trailers (§4.1) on top of the decoder's own field checks (§4.2:
// names, values, pseudo-header fields first): pseudo-header fields once
// each and of the right kind, no connection-specific fields, te only
// "trailers", Content-Length digits only and the same in every copy.
// Check does the end-of-section checks. A Head is reused with Reset.
type Head struct {
	kind   Kind
	buf    []byte
	fields []span
	// Indexes into the fields, -1 when absent.
	Method, Scheme, Authority, Path, Host, Status int
	// ContentLength is the declared length, -1 when absent.
	ContentLength int64
	err           error
}

// Reset empties h for a section of kind k.
func (h *Head) Reset(k Kind) {
	h.kind = k
	h.buf, h.fields = h.buf[:0], h.fields[:0]
	h.Method, h.Scheme, h.Authority, h.Path, h.Host, h.Status = -1, -1, -1, -1, -1, -1
	h.ContentLength = -1
	h.err = nil
}

// Len returns the number of fields.
func (h *Head) Len() int { return len(h.fields) }

// At returns field i; the slices stay valid until Reset.
func (h *Head) At(i int) (name, value []byte) {
	start := 0
	if i > 0 {
		start = h.fields[i-1].valueEnd
	}
	f := h.fields[i]
	return h.buf[start:f.nameEnd], h.buf[f.nameEnd:f.valueEnd]
}

// Value returns the value of field i, or nil when i is -1.
func (h *Head) Value(i int) []byte {
	if i < 0 {
		return nil
	}
	_, v := h.At(i)
	return v
}

// Get returns the first value of the field named name.
func (h *Head) Get(name string) (value []byte, ok bool) {
	for i := range h.fields {
		if n, v := h.At(i); string(n) == name {
			return v, true
		}
	}
	return nil, false
}

// field kinds
type fieldKind uint8

const (
	kRegular fieldKind = iota
	kMethod
	kScheme
	kAuthority
	kPath
	kStatus
	kBadPseudo // :protocol (we do not announce extended CONNECT), unknown ones
	kContentLength
	kTE
	kHost
	kConnSpecific // connection, keep-alive, proxy-connection, transfer-encoding, upgrade
)

var kinds = func() (t [fastpath.MaxFieldID + 1]fieldKind) {
	for name, k := range map[string]fieldKind{
		":method":           kMethod,
		":scheme":           kScheme,
		":authority":        kAuthority,
		":path":             kPath,
		":status":           kStatus,
		"content-length":    kContentLength,
		"transfer-encoding": kConnSpecific,
		"host":              kHost,
	} {
		t[MustFieldID(name)] = k
	}
	return t
}()

// MustFieldID returns the FieldID of a name in the static tables, for
// fastpath.FieldList.AddID; it panics on any other name.
func MustFieldID(name string) fastpath.FieldID {
	id := fastpath.LookupField(name)
	if id == fastpath.NoField {
		panic(name + " is not in the static tables")
	}
	return id
}

// kindOf finds a name's kind from the static FieldID the decoder reports,
// comparing strings only for names outside the static tables.
func kindOf(name []byte, id fastpath.FieldID) fieldKind {
	if id == fastpath.NoField {
		id = fastpath.LookupFieldBytes(name) // a literal name may still be a static one
	}
	if id != fastpath.NoField {
		return kinds[id]
	}
	if len(name) > 0 && name[0] == ':' {
		return kBadPseudo
	}
	switch string(name) {
	case "te":
		return kTE
	case "connection", "keep-alive", "proxy-connection", "upgrade":
		return kConnSpecific
	}
	return kRegular
}

// Field takes one decoded field. It returns the section's first error; the
// decoder then stops handing over fields.
func (h *Head) Field(name, value []byte, f fastpath.Flags) error {
	if h.err != nil {
		return h.err
	}
	var slot *int
	switch k := kindOf(name, f.ID()); k {
	case kMethod, kScheme, kAuthority, kPath:
		if h.kind != Request {
			return h.fail()
		}
		slot = [...]*int{kMethod: &h.Method, kScheme: &h.Scheme, kAuthority: &h.Authority, kPath: &h.Path}[k]
	case kStatus:
		if h.kind != Response {
			return h.fail()
		}
		slot = &h.Status
	case kBadPseudo, kConnSpecific:
		return h.fail()
	case kTE:
		if !bytes.Equal(value, []byte("trailers")) {
			return h.fail()
		}
	case kHost:
		if h.Host < 0 {
			h.Host = len(h.fields)
		}
	case kContentLength:
		n, ok := ParseContentLength(value)
		if !ok || (h.ContentLength >= 0 && n != h.ContentLength) {
			return h.fail()
		}
		h.ContentLength = n
	}
	if slot != nil {
		if *slot >= 0 {
			return h.fail() // a pseudo-header field twice
		}
		*slot = len(h.fields)
	}
	h.buf = append(h.buf, name...)
	nameEnd := len(h.buf)
	h.buf = append(h.buf, value...)
	h.fields = append(h.fields, span{nameEnd, len(h.buf)})
	return nil
}

func (h *Head) fail() error {
	h.err = ErrMalformed
	return h.err
}

// Check is the end-of-section check. A request (§4.3.1) has :method; a
// CONNECT request :authority and neither :scheme nor :path; any other
// :scheme and a :path, not empty for http and https, and for those an
// :authority or a Host, equal when both are there. A response has a
// three-digit :status (§4.3.2).
func (h *Head) Check() error {
	if h.err != nil {
		return h.err
	}
	switch h.kind {
	case Request:
		if h.Method < 0 {
			return h.fail()
		}
		if string(h.Value(h.Method)) == "CONNECT" {
			if h.Authority < 0 || h.Scheme >= 0 || h.Path >= 0 {
				return h.fail()
			}
			return nil
		}
		if h.Scheme < 0 || h.Path < 0 {
			return h.fail()
		}
		if s := string(h.Value(h.Scheme)); s == "http" || s == "https" {
			if len(h.Value(h.Path)) == 0 || (h.Authority < 0 && h.Host < 0) {
				return h.fail()
			}
			if h.Authority >= 0 && h.Host >= 0 && !bytes.Equal(h.Value(h.Authority), h.Value(h.Host)) {
				return h.fail()
			}
		}
	case Response:
		s := h.Value(h.Status)
		if len(s) != 3 || s[0] < '1' || s[0] > '9' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9' {
			return h.fail()
		}
	}
	return nil
}

// StatusCode returns a checked response's status.
func (h *Head) StatusCode() int {
	s := h.Value(h.Status)
	return int(s[0]-'0')*100 + int(s[1]-'0')*10 + int(s[2]-'0')
}

// ParseContentLength parses a Content-Length value: digits only, no sign,
// no overflow.
func ParseContentLength[T string | []byte](v T) (int64, bool) {
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
