package main

import (
	"errors"
	"fmt"

	"golang.org/x/net/http2"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
)

// hqDecoder is the hqpack request decoder: fragments go straight into the
// streaming Decoder, which validates each field (RFC 9113 §8.2.1, §8.3) and
// hands it to the sink with the static FieldID of its name.
type hqDecoder struct {
	dec  hpack.Decoder
	sink hqSink
}

func newHQDecoder(cfg *config) *hqDecoder {
	d := new(hqDecoder)
	d.dec.Init(hpack.DecoderConfig{
		// The hard bound, a connection error. Our advertised
		// SETTINGS_MAX_HEADER_LIST_SIZE is the request's limit (431).
		MaxSectionSize:  cfg.hardHeaderBytes,
		MaxStringLength: cfg.maxHeaderListSize,
		Validate:        true,
	})
	return d
}

func (d *hqDecoder) begin(r *request)        { d.sink.r = r }
func (d *hqDecoder) write(frag []byte) error { return d.dec.Write(frag, &d.sink) }

func (d *hqDecoder) end() (stream, fatal error) {
	err := d.dec.End()
	d.sink.r = nil
	if err == nil {
		return nil, nil
	}
	var he *hpack.Error
	if errors.As(err, &he) {
		if he.ConnectionError() {
			return nil, err
		}
		return errMalformed, nil
	}
	return err, nil // the sink's own error
}

// hqSink turns decoded fields into a request.
type hqSink struct{ r *request }

func (s *hqSink) Field(name, value []byte, f fastpath.Flags) error {
	if s.r == nil {
		return nil
	}
	return addField(s.r, hqKind(name, f.ID()), name, value)
}

// hqKinds maps the static FieldIDs the server cares about to their kind;
// every other static name is a regular field.
var hqKinds = func() (t [fastpath.MaxFieldID + 1]fieldKind) {
	for name, k := range map[string]fieldKind{
		":method":           kMethod,
		":scheme":           kScheme,
		":authority":        kAuthority,
		":path":             kPath,
		":status":           kBadPseudo,
		"content-length":    kContentLength,
		"transfer-encoding": kConnSpecific,
	} {
		t[mustFieldID(name)] = k
	}
	return t
}()

// statusID is the FieldID of ":status", for FieldList.AddID.
var statusID = mustFieldID(":status")

// mustFieldID returns the FieldID of a name in the static tables.
func mustFieldID(name string) fastpath.FieldID {
	id := fastpath.LookupField(name)
	if id == fastpath.NoField {
		panic(name + " is not in the static tables")
	}
	return id
}

// hqKind is a table lookup for static names; other names are compared only
// when their length is that of a connection-specific one.
func hqKind(name []byte, id fastpath.FieldID) fieldKind {
	if id != fastpath.NoField {
		return hqKinds[id]
	}
	if len(name) > 0 && name[0] == ':' {
		return kBadPseudo // :protocol; the decoder rejects unknown ones
	}
	switch len(name) {
	case 2:
		if string(name) == "te" {
			return kTE
		}
	case 7:
		if string(name) == "upgrade" {
			return kConnSpecific
		}
	case 10:
		if string(name) == "connection" || string(name) == "keep-alive" {
			return kConnSpecific
		}
	case 16:
		if string(name) == "proxy-connection" {
			return kConnSpecific
		}
	}
	return kRegular
}

// hqEncoder is the hqpack response encoder: Begin writes the HEADERS
// payload into a buffer of the peer's SETTINGS_MAX_FRAME_SIZE, Continue
// each CONTINUATION payload; a field larger than a frame is split across
// frames by the encoder. Content-Length goes in raw.
type hqEncoder struct {
	enc    hpack.Encoder
	fields fastpath.FieldList
	buf    []byte
}

func newHQEncoder() *hqEncoder { return new(hqEncoder) }

func (e *hqEncoder) setPeerTableSize(n uint32) { e.enc.SetMaxTableSize(n) }

func (e *hqEncoder) writeHeaders(fr *http2.Framer, id uint32, endStream bool, maxFrame int, resp *response) error {
	l := &e.fields
	l.Reset()
	l.AddID(statusID, statusText(resp.status), 0)
	for _, h := range resp.header {
		l.Add(h.name, h.value, 0)
	}
	if resp.contentLength >= 0 {
		l.AddContentLength(resp.contentLength)
	}
	if cap(e.buf) < maxFrame {
		e.buf = make([]byte, maxFrame)
	}
	buf := e.buf[:maxFrame]
	n, res := e.enc.Begin(buf, l)
	for first := true; ; first = false {
		last := res == fastpath.Done
		var err error
		if first {
			err = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: buf[:n], EndStream: endStream, EndHeaders: last})
		} else {
			err = fr.WriteContinuation(id, last, buf[:n])
		}
		if err != nil {
			return err
		}
		if last {
			break
		}
		if res != fastpath.MoreFields {
			return fmt.Errorf("stream %d: encoding the response: %v", id, res)
		}
		n, res = e.enc.Continue(buf)
	}
	l.Reset()
	return nil
}
