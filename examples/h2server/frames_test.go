package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/hqpack/hqpack/examples/internal/site"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// rawConn is a client that writes frames by hand, for what http2.Transport
// will not send: malformed fields, floods, odd settings.
type rawConn struct {
	t      *testing.T
	nc     net.Conn
	fr     *http2.Framer
	encBuf bytes.Buffer
	enc    *hpack.Encoder
	dec    *hpack.Decoder
	next   uint32 // next stream ID
}

// dialRaw connects, sends the preface and settings, and acknowledges the
// server's SETTINGS.
func dialRaw(t *testing.T, addr string, settings ...http2.Setting) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	rc := &rawConn{t: t, nc: nc, fr: http2.NewFramer(nc, nc), next: 1}
	rc.fr.SetMaxReadFrameSize(1 << 24)
	rc.enc = hpack.NewEncoder(&rc.encBuf)
	rc.dec = hpack.NewDecoder(4096, nil)
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	if err := rc.fr.WriteSettings(settings...); err != nil {
		t.Fatal(err)
	}
	for {
		f := rc.read()
		if sf, ok := f.(*http2.SettingsFrame); ok && !sf.IsAck() {
			if v, ok := sf.Value(http2.SettingMaxHeaderListSize); !ok || v != 64<<10 {
				t.Fatalf("SETTINGS_MAX_HEADER_LIST_SIZE %d, %v", v, ok)
			}
			if v, ok := sf.Value(http2.SettingMaxConcurrentStreams); !ok || v != 100 {
				t.Fatalf("SETTINGS_MAX_CONCURRENT_STREAMS %d, %v", v, ok)
			}
			break
		}
	}
	if err := rc.fr.WriteSettingsAck(); err != nil {
		t.Fatal(err)
	}
	return rc
}

func (rc *rawConn) read() http2.Frame {
	rc.t.Helper()
	f, err := rc.fr.ReadFrame()
	if err != nil {
		rc.t.Fatalf("reading a frame: %v", err)
	}
	return f
}

// block encodes name, value pairs with x/net's encoder, which sends names
// as they are given (uppercase too) and indexes them.
func (rc *rawConn) block(pairs ...string) []byte {
	rc.encBuf.Reset()
	for i := 0; i < len(pairs); i += 2 {
		rc.enc.WriteField(hpack.HeaderField{Name: pairs[i], Value: pairs[i+1]})
	}
	return bytes.Clone(rc.encBuf.Bytes())
}

// request sends a header block on a new stream, cut into frames of at most
// 16384 bytes, with END_STREAM, and returns the stream ID.
func (rc *rawConn) request(block []byte) uint32 {
	rc.t.Helper()
	id := rc.next
	rc.next += 2
	first := true
	for first || len(block) > 0 {
		m := min(len(block), 16384)
		var err error
		if first {
			err = rc.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block[:m], EndStream: true, EndHeaders: m == len(block)})
		} else {
			err = rc.fr.WriteContinuation(id, m == len(block), block[:m])
		}
		if err != nil {
			rc.t.Fatal(err)
		}
		first, block = false, block[m:]
	}
	return id
}

// get sends a GET for path on a new stream.
func (rc *rawConn) get(path string, extra ...string) uint32 {
	return rc.request(rc.block(append([]string{":method", "GET", ":scheme", "http", ":path", path, ":authority", "raw"}, extra...)...))
}

// rawResponse is what came back on one stream.
type rawResponse struct {
	fields      []hpack.HeaderField
	body        []byte
	frames      []http2.FrameHeader // HEADERS, CONTINUATION and DATA frames, in order
	reset       http2.ErrCode
	wasReset    bool
	windowStall bool // the server stopped sending for lack of window
}

func (r *rawResponse) get(name string) string {
	for _, f := range r.fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// response reads until stream id ends (END_STREAM or RST_STREAM), decoding
// its header block with x/net's decoder; frames of other streams and of the
// connection are skipped. With stallAfter >= 0, it returns with windowStall
// once that many body bytes came and nothing more comes for 200ms.
func (rc *rawConn) response(id uint32, stallAfter int) *rawResponse {
	rc.t.Helper()
	r := new(rawResponse)
	rc.dec.SetEmitFunc(func(f hpack.HeaderField) { r.fields = append(r.fields, f) })
	for {
		if stallAfter >= 0 && len(r.body) >= stallAfter {
			rc.nc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		}
		f, err := rc.fr.ReadFrame()
		if stallAfter >= 0 && len(r.body) >= stallAfter {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				// The Framer is mid-frame only if a payload was cut; the
				// server sent nothing at all here.
				rc.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
				r.windowStall = true
				return r
			}
		}
		if err != nil {
			rc.t.Fatalf("stream %d: %v", id, err)
		}
		if f.Header().StreamID != id {
			if ga, ok := f.(*http2.GoAwayFrame); ok {
				rc.t.Fatalf("stream %d: GOAWAY %v", id, ga.ErrCode)
			}
			continue
		}
		switch f := f.(type) {
		case *http2.HeadersFrame:
			r.frames = append(r.frames, f.FrameHeader)
			rc.decode(f.HeaderBlockFragment(), f.HeadersEnded())
			if f.StreamEnded() {
				return r
			}
		case *http2.ContinuationFrame:
			r.frames = append(r.frames, f.FrameHeader)
			rc.decode(f.HeaderBlockFragment(), f.HeadersEnded())
		case *http2.DataFrame:
			r.frames = append(r.frames, f.FrameHeader)
			r.body = append(r.body, f.Data()...)
			if f.StreamEnded() {
				return r
			}
		case *http2.RSTStreamFrame:
			r.wasReset, r.reset = true, f.ErrCode
			return r
		}
	}
}

func (rc *rawConn) decode(frag []byte, end bool) {
	rc.t.Helper()
	if _, err := rc.dec.Write(frag); err != nil {
		rc.t.Fatalf("decoding response fields: %v", err)
	}
	if end {
		if err := rc.dec.Close(); err != nil {
			rc.t.Fatalf("decoding response fields: %v", err)
		}
	}
}

// goAway reads until the server's GOAWAY and then the end of the connection.
func (rc *rawConn) goAway() http2.ErrCode {
	rc.t.Helper()
	for {
		f, err := rc.fr.ReadFrame()
		if err != nil {
			rc.t.Fatalf("no GOAWAY before %v", err)
		}
		if ga, ok := f.(*http2.GoAwayFrame); ok {
			code := ga.ErrCode
			if _, err := rc.fr.ReadFrame(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
				rc.t.Fatalf("the connection goes on after GOAWAY (%v)", err)
			}
			return code
		}
	}
}

// Malformed requests (RFC 9113 §8.1.1, §8.2, §8.3) are stream errors: the
// stream is reset with PROTOCOL_ERROR and the connection goes on, its
// dynamic table in sync (the next request refers to entries the malformed
// section inserted).
func TestMalformedRequest(t *testing.T) {
	base := []string{":method", "GET", ":scheme", "http", ":path", "/echo", ":authority", "raw"}
	cases := []struct {
		name   string
		fields []string
	}{
		{"uppercase name", append(base, "x-good", "v1", "X-Upper", "1")},
		{"pseudo after regular", []string{":method", "GET", ":scheme", "http", "x-good", "v1", ":path", "/echo"}},
		{"unknown pseudo", append(base, ":foo", "bar", "x-good", "v1")},
		{"status in request", append(base, ":status", "200", "x-good", "v1")},
		{"duplicate method", append(base, ":method", "POST", "x-good", "v1")},
		{"missing path", []string{":method", "GET", ":scheme", "http", "x-good", "v1"}},
		{"empty path", []string{":method", "GET", ":scheme", "http", ":path", "", "x-good", "v1"}},
		{"connection header", append(base, "x-good", "v1", "connection", "keep-alive")},
		{"upgrade header", append(base, "x-good", "v1", "upgrade", "h2c")},
		{"te gzip", append(base, "x-good", "v1", "te", "gzip")},
		{"leading space in value", append(base, "x-good", "v1", "x-sp", " v")},
		{"NUL in value", append(base, "x-good", "v1", "x-nul", "a\x00b")},
		{"space in name", append(base, "x-good", "v1", "x bad", "1")},
		{"bad content-length", append(base, "x-good", "v1", "content-length", "12a")},
		{"content-length without body", append(base, "x-good", "v1", "content-length", "5")},
	}
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr)
			for _, tc := range cases {
				id := rc.request(rc.block(tc.fields...))
				r := rc.response(id, -1)
				if !r.wasReset || r.reset != http2.ErrCodeProtocol {
					t.Fatalf("%s: got reset=%v %v, fields %v; want RST_STREAM PROTOCOL_ERROR", tc.name, r.wasReset, r.reset, r.fields)
				}
				id = rc.get("/echo", "x-good", "v1")
				r = rc.response(id, -1)
				if r.get(":status") != "200" || !strings.Contains(string(r.body), "x-good: v1\n") {
					t.Fatalf("after %s: status %q, body %q", tc.name, r.get(":status"), r.body)
				}
			}
		})
	}
}

// A decoding error is a connection error: GOAWAY with COMPRESSION_ERROR.
func TestCompressionError(t *testing.T) {
	for _, codec := range codecs {
		for _, tc := range []struct {
			name  string
			block []byte
		}{
			{"index 0", []byte{0x82, 0x80}},
			{"index past the tables", []byte{0x82, 0xff, 0x80, 0x01}},
			{"truncated literal", []byte{0x82, 0x40, 0x05, 'a', 'b'}},
			{"size update above the setting", []byte{0x3f, 0xe1, 0x3f, 0x82}},
			{"Huffman EOS", []byte{0x82, 0x40, 0x84, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'}},
		} {
			t.Run(codec.String()+"/"+tc.name, func(t *testing.T) {
				_, addr := startServer(t, codec)
				rc := dialRaw(t, addr)
				rc.request(tc.block)
				if code := rc.goAway(); code != http2.ErrCodeCompression {
					t.Fatalf("GOAWAY %v, want COMPRESSION_ERROR", code)
				}
			})
		}
	}
}

// A section that never ends (CVE-2023-45288): the server stops reading it
// after a bounded number of CONTINUATION frames, empty ones too.
func TestContinuationFlood(t *testing.T) {
	for _, codec := range codecs {
		for _, size := range []int{0, 1000} {
			t.Run(fmt.Sprintf("%s/%d", codec, size), func(t *testing.T) {
				srv, addr := startServer(t, codec)
				rc := dialRaw(t, addr)
				block := rc.block(":method", "GET", ":scheme", "http", ":path", "/", "x-a", strings.Repeat("a", 500))
				if err := rc.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block}); err != nil {
					t.Fatal(err)
				}
				// Empty frames, or frames of empty literal fields (zero bytes).
				frag := make([]byte, size)
				for range 10 * srv.cfg.maxContinuations {
					if rc.fr.WriteContinuation(1, false, frag) != nil {
						break // the server has closed
					}
				}
				if code := rc.goAway(); code != http2.ErrCodeEnhanceYourCalm && code != http2.ErrCodeCompression {
					t.Fatalf("GOAWAY %v, want ENHANCE_YOUR_CALM or COMPRESSION_ERROR", code)
				}
			})
		}
	}
}

// A request over our SETTINGS_MAX_HEADER_LIST_SIZE (64 KiB) but under the
// hard bound gets 431; the connection goes on.
func TestHeaderListTooLarge(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr)
			var extra []string
			for i := range 70 {
				extra = append(extra, fmt.Sprintf("x-big-%d", i), strings.Repeat("b", 1000))
			}
			r := rc.response(rc.get("/echo", extra...), -1)
			if r.get(":status") != "431" {
				t.Fatalf("status %q, reset %v; want 431", r.get(":status"), r.reset)
			}
			r = rc.response(rc.get("/echo", "x-big-69", strings.Repeat("b", 1000)), -1)
			if r.get(":status") != "200" || !strings.Contains(string(r.body), "x-big-69: bbb") {
				t.Fatalf("after 431: status %q body %.100q", r.get(":status"), r.body)
			}
		})
	}
}

// Response header blocks are cut at the peer's SETTINGS_MAX_FRAME_SIZE, and
// start with a size update after the peer lowers SETTINGS_HEADER_TABLE_SIZE.
func TestResponseFraming(t *testing.T) {
	for _, codec := range codecs {
		for _, maxFrame := range []uint32{16384, 40000} {
			t.Run(fmt.Sprintf("%s/%d", codec, maxFrame), func(t *testing.T) {
				_, addr := startServer(t, codec)
				rc := dialRaw(t, addr,
					http2.Setting{ID: http2.SettingMaxFrameSize, Val: maxFrame},
					http2.Setting{ID: http2.SettingHeaderTableSize, Val: 0},
					http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20})
				rc.dec.SetAllowedMaxDynamicTableSize(0)
				r := rc.response(rc.get("/headers/120"), -1)
				if r.get(":status") != "200" {
					t.Fatalf("status %q", r.get(":status"))
				}
				var conts, biggest int
				for i, fh := range r.frames {
					if fh.Length > maxFrame {
						t.Fatalf("frame %d: %d bytes, over %d", i, fh.Length, maxFrame)
					}
					if fh.Type == http2.FrameContinuation {
						conts++
					}
					biggest = max(biggest, int(fh.Length))
				}
				if r.frames[0].Type != http2.FrameHeaders || conts == 0 {
					t.Fatalf("frames %v: want HEADERS then CONTINUATION", r.frames)
				}
				if biggest <= 16384 && maxFrame > 16384 {
					t.Fatalf("no frame over 16384 bytes: the peer's SETTINGS_MAX_FRAME_SIZE %d is not used", maxFrame)
				}
				fields := map[string]string{}
				for _, f := range r.fields {
					fields[f.Name] = f.Value
				}
				for i := range 120 {
					if fields[site.LargeName(i)] != site.LargeValue(i) {
						t.Fatalf("field %s wrong", site.LargeName(i))
					}
				}
				r = rc.response(rc.get("/bytes/60000"), -1) // within the connection window
				if len(r.body) != 60000 {
					t.Fatalf("body %d bytes", len(r.body))
				}
				for _, fh := range r.frames[1:] {
					if fh.Length > maxFrame {
						t.Fatalf("DATA frame of %d bytes, over %d", fh.Length, maxFrame)
					}
				}
			})
		}
	}
}

// A response field larger than a frame (/echo sends the request's 40 KiB
// field back) is split across HEADERS and CONTINUATION frames, none over
// the 16,384 bytes the client allows, and decodes whole; the connection's
// tables stay in step for the next response.
func TestFieldLargerThanFrame(t *testing.T) {
	big := strings.Repeat("k=v; 0123456789/ABCDEFGHIJ+", 40<<10/27) // about 40 KiB
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20})
			r := rc.response(rc.get("/echo", "x-big", big), -1)
			if r.get(":status") != "200" || r.get("echo-x-big") != big {
				t.Fatalf("status %q, echo-x-big of %d bytes, want %d", r.get(":status"), len(r.get("echo-x-big")), len(big))
			}
			var conts int
			for i, fh := range r.frames {
				if fh.Type != http2.FrameData && fh.Length > 16384 {
					t.Fatalf("frame %d: %d bytes", i, fh.Length)
				}
				if fh.Type == http2.FrameContinuation {
					conts++
				}
			}
			if conts == 0 {
				t.Fatalf("frames %v: the field went out in one frame", r.frames)
			}
			r = rc.response(rc.get("/echo", "x-small", "v"), -1)
			if r.get(":status") != "200" || r.get("echo-x-small") != "v" {
				t.Fatalf("next response: status %q, echo-x-small %q", r.get(":status"), r.get("echo-x-small"))
			}
		})
	}
}

// The table size update must come first in the first section after the
// peer lowers SETTINGS_HEADER_TABLE_SIZE.
func TestTableSizeUpdateOnTheWire(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingHeaderTableSize, Val: 0})
			rc.get("/")
			for {
				f := rc.read()
				if hf, ok := f.(*http2.HeadersFrame); ok {
					if b := hf.HeaderBlockFragment(); len(b) == 0 || b[0] != 0x20 {
						t.Fatalf("first response block % x: want a size update to 0 (0x20) first", b)
					}
					return
				}
			}
		})
	}
}

// Response bodies wait for the peer's stream and connection windows.
func TestFlowControl(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String()+"/stream", func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 100})
			id := rc.get("/bytes/1000")
			r := rc.response(id, 100)
			if !r.windowStall || len(r.body) != 100 {
				t.Fatalf("got %d bytes (stall %v), want 100 then a stall", len(r.body), r.windowStall)
			}
			if err := rc.fr.WriteWindowUpdate(id, 900); err != nil {
				t.Fatal(err)
			}
			rest := rc.response(id, -1)
			checkPattern(t, append(r.body, rest.body...), 1000)
		})
		t.Run(codec.String()+"/connection", func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20})
			id := rc.get("/bytes/100000")
			r := rc.response(id, 65535)
			if !r.windowStall || len(r.body) != 65535 {
				t.Fatalf("got %d bytes (stall %v), want 65535 then a stall", len(r.body), r.windowStall)
			}
			if err := rc.fr.WriteWindowUpdate(0, 100000-65535); err != nil {
				t.Fatal(err)
			}
			rest := rc.response(id, -1)
			checkPattern(t, append(r.body, rest.body...), 100000)
		})
		t.Run(codec.String()+"/settings", func(t *testing.T) {
			// SETTINGS_INITIAL_WINDOW_SIZE changes the windows of open streams.
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 10})
			id := rc.get("/bytes/50")
			r := rc.response(id, 10)
			if !r.windowStall || len(r.body) != 10 {
				t.Fatalf("got %d bytes (stall %v), want 10 then a stall", len(r.body), r.windowStall)
			}
			if err := rc.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 60}); err != nil {
				t.Fatal(err)
			}
			rest := rc.response(id, -1)
			checkPattern(t, append(r.body, rest.body...), 50)
		})
	}
}

func TestPing(t *testing.T) {
	_, addr := startServer(t, codecHQPACK)
	rc := dialRaw(t, addr)
	data := [8]byte{1, 2, 3, 4, 5, 6, 7, 8}
	if err := rc.fr.WritePing(false, data); err != nil {
		t.Fatal(err)
	}
	for {
		if p, ok := rc.read().(*http2.PingFrame); ok {
			if !p.IsAck() || p.Data != data {
				t.Fatalf("PING ack %v data %v", p.IsAck(), p.Data)
			}
			return
		}
	}
}

// A stream the client resets is forgotten: the connection serves the next.
func TestClientReset(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1})
			id := rc.get("/bytes/100000")
			if err := rc.fr.WriteRSTStream(id, http2.ErrCodeCancel); err != nil {
				t.Fatal(err)
			}
			if err := rc.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 65535}); err != nil {
				t.Fatal(err)
			}
			r := rc.response(rc.get("/"), -1)
			if string(r.body) != string(helloBody) {
				t.Fatalf("body %q", r.body)
			}
		})
	}
}

// Streams past SETTINGS_MAX_CONCURRENT_STREAMS are refused.
func TestMaxConcurrentStreams(t *testing.T) {
	srv, addr := startServer(t, codecHQPACK)
	// A zero window keeps every response open.
	rc := dialRaw(t, addr, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 0})
	limit := srv.cfg.maxConcurrentStreams
	var last uint32
	for range limit + 1 {
		last = rc.get("/bytes/10")
	}
	r := rc.response(last, -1)
	if !r.wasReset || r.reset != http2.ErrCodeRefusedStream {
		t.Fatalf("stream %d: reset %v %v, want REFUSED_STREAM", last, r.wasReset, r.reset)
	}
}
