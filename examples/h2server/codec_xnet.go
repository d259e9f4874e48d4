package main

import (
	"bytes"
	"strconv"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// xnetDecoder is the same request decoder on golang.org/x/net/http2/hpack,
// used as x/net's own server uses it: an emit function per field, strings
// bounded by SetMaxStringLength, field checks done by the server.
type xnetDecoder struct {
	dec *hpack.Decoder
	r   *request
}

func newXNetDecoder(cfg *config) *xnetDecoder {
	d := new(xnetDecoder)
	d.dec = hpack.NewDecoder(4096, d.emit)
	d.dec.SetMaxStringLength(cfg.maxHeaderListSize)
	return d
}

func (d *xnetDecoder) begin(r *request) {
	d.r = r
	d.dec.SetEmitEnabled(r != nil)
}

func (d *xnetDecoder) write(frag []byte) error {
	_, err := d.dec.Write(frag)
	return err
}

func (d *xnetDecoder) end() (stream, fatal error) {
	r := d.r
	d.r = nil
	if err := d.dec.Close(); err != nil {
		return nil, err
	}
	if r != nil {
		return r.err, nil
	}
	return nil, nil
}

func (d *xnetDecoder) emit(f hpack.HeaderField) {
	r := d.r
	if r.err != nil {
		return
	}
	k := xnetKind(f.Name)
	if k == kRegular || k >= kContentLength {
		if !validFieldName(f.Name) || !validFieldValue(f.Value) {
			r.err = errMalformed
		}
	} else if !validFieldValue(f.Value) {
		r.err = errMalformed
	}
	if r.err == nil {
		addField(r, k, f.Name, f.Value)
	}
	if r.err != nil {
		d.dec.SetEmitEnabled(false) // decode the rest only for the table
	}
}

// xnetKind classifies a field name by comparing strings, as a server
// without static IDs does.
func xnetKind(name string) fieldKind {
	if len(name) > 0 && name[0] == ':' {
		switch name {
		case ":method":
			return kMethod
		case ":scheme":
			return kScheme
		case ":authority":
			return kAuthority
		case ":path":
			return kPath
		}
		return kBadPseudo
	}
	switch name {
	case "content-length":
		return kContentLength
	case "te":
		return kTE
	case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
		return kConnSpecific
	}
	return kRegular
}

// validFieldName reports whether name is a lowercase token (RFC 9113
// §8.2.1), as x/net's server checks it (httpguts.ValidHeaderFieldName plus
// no uppercase).
func validFieldName(name string) bool {
	if len(name) == 0 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !tokenLower[name[i]] {
			return false
		}
	}
	return true
}

var tokenLower = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

// validFieldValue reports whether value has no NUL, CR or LF and no
// whitespace at either end (RFC 9113 §8.2.1).
func validFieldValue(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case 0, '\r', '\n':
			return false
		}
	}
	if n := len(v); n > 0 && (isSpace(v[0]) || isSpace(v[n-1])) {
		return false
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// xnetEncoder is the response encoder on x/net's hpack, as x/net's server
// uses it: each field written into a buffer, Content-Length formatted with
// strconv, the block then cut into HEADERS and CONTINUATION frames.
type xnetEncoder struct {
	buf bytes.Buffer
	enc *hpack.Encoder
}

func newXNetEncoder() *xnetEncoder {
	e := new(xnetEncoder)
	e.enc = hpack.NewEncoder(&e.buf)
	return e
}

func (e *xnetEncoder) setPeerTableSize(n uint32) { e.enc.SetMaxDynamicTableSize(n) }

func (e *xnetEncoder) writeHeaders(fr *http2.Framer, id uint32, endStream bool, maxFrame int, resp *response) error {
	e.buf.Reset()
	e.enc.WriteField(hpack.HeaderField{Name: ":status", Value: statusText(resp.status)})
	for _, h := range resp.header {
		e.enc.WriteField(hpack.HeaderField{Name: h.name, Value: h.value})
	}
	if resp.contentLength >= 0 {
		e.enc.WriteField(hpack.HeaderField{Name: "content-length", Value: strconv.FormatInt(resp.contentLength, 10)})
	}
	block := e.buf.Bytes()
	for first := true; first || len(block) > 0; first = false {
		m := min(len(block), maxFrame)
		last := m == len(block)
		var err error
		if first {
			err = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block[:m], EndStream: endStream, EndHeaders: last})
		} else {
			err = fr.WriteContinuation(id, last, block[:m])
		}
		if err != nil {
			return err
		}
		block = block[m:]
	}
	if e.buf.Cap() > 64<<10 {
		e.buf = bytes.Buffer{}
	}
	return nil
}
