package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/hqpack/hqpack/examples/h3server/internal/client"
	"github.com/hqpack/hqpack/examples/h3server/internal/h3"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// start runs a server with cfg on a loopback port until the test ends.
func start(t *testing.T, cfg h3.Config, impl string) (string, *Server) {
	t.Helper()
	cert, _, _, err := h3.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	tlsConf := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h3"}}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logf = t.Logf
	s := New(cfg, impl, false, io.Discard)
	if impl == "quic-go" {
		stop := s.ServeStd(udp, tlsConf, &quic.Config{})
		t.Cleanup(func() { stop(); udp.Close() })
		return udp.LocalAddr().String(), s
	}
	ln, err := quic.Listen(udp, tlsConf, &quic.Config{})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Shutdown(); ln.Close(); udp.Close() })
	return udp.LocalAddr().String(), s
}

// totals waits until the server has counted n requests on connections
// that ended, and returns its totals.
func totals(t *testing.T, s *Server, n uint64) h3.Counters {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		k := s.Totals()
		if k.Requests >= n || time.Now().After(deadline) {
			return k
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSettingsMatrix: h3client against the server with each blocked-streams
// limit and table capacity, the client's encoder stream held back so that
// sections reach the server before their inserts. Every response must be
// right, and sections may block only where both settings allow.
func TestSettingsMatrix(t *testing.T) {
	for _, blocked := range []uint64{0, 1, 100} {
		for _, capacity := range []uint64{0, 256, 4096} {
			t.Run(fmt.Sprintf("blocked=%d/capacity=%d", blocked, capacity), func(t *testing.T) {
				cfg := h3.Config{MaxTableCapacity: capacity, MaxBlockedStreams: blocked}
				addr, s := start(t, cfg, "hqpack")
				ccfg := client.Config{
					Addr: addr, Requests: 60, Parallel: 10, Paths: []string{"/echo"}, Fields: 30,
					Check: client.CheckEcho, H3: cfg,
				}
				ccfg.H3.HoldEncoderStream = 25 * time.Millisecond
				// References to acknowledged entries need the first
				// inserts to have gone both ways, whatever the timing.
				ccfg.Warmup = 100 * time.Millisecond
				ccfg.H3.Logf = t.Logf
				res, err := client.Run(ccfg)
				if err != nil {
					t.Fatal(err)
				}
				if res.Requests != 60 || res.FieldsChecked != 60*30 {
					t.Fatalf("checked %d requests, %d fields", res.Requests, res.FieldsChecked)
				}
				k := totals(t, s, 60)
				t.Logf("server: %v", k)
				t.Logf("client: %v", res.Counters)
				if k.ConnectionErrorCount != 0 || k.StreamErrors != 0 || res.Counters.ConnectionErrorCount != 0 {
					t.Fatal("errors")
				}
				if k.MaxBlocked > blocked || res.Counters.MaxBlocked > blocked {
					t.Fatalf("%d and %d sections blocked at once, over the limit of %d", k.MaxBlocked, res.Counters.MaxBlocked, blocked)
				}
				dynamic := capacity > 0
				if got := k.DynamicRefsRecv > 0 && k.DynamicRefsSent > 0; got != dynamic {
					t.Fatalf("dynamic references both ways: %v, want %v", got, dynamic)
				}
				if got := k.SectionsBlocked > 0; got != (dynamic && blocked > 0) {
					t.Fatalf("server: %d sections blocked", k.SectionsBlocked)
				}
			})
		}
	}
}

// TestQuicGoClient: quic-go's own http3 client (static-only QPACK), 100
// requests at once, every field checked.
func TestQuicGoClient(t *testing.T) {
	addr, s := start(t, h3.Config{MaxTableCapacity: 4096, MaxBlockedStreams: 100}, "hqpack")
	res, err := client.Run(client.Config{
		Addr: addr, Impl: "quic-go", Requests: 100, Parallel: 100, Paths: []string{"/echo"},
		Fields: 30, Check: client.CheckEcho,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.FieldsChecked != 100*30 {
		t.Fatalf("%d fields checked", res.FieldsChecked)
	}
	if s.Requests() != 100 {
		t.Fatalf("the server answered %d requests", s.Requests())
	}
}

// TestRoutes: each route through h3client, and the quic-go implementation
// of the server with the same client.
func TestRoutes(t *testing.T) {
	for _, impl := range []string{"hqpack", "quic-go"} {
		addr, _ := start(t, h3.Config{MaxTableCapacity: 4096, MaxBlockedStreams: 100}, impl)
		for _, cimpl := range []string{"hqpack", "quic-go"} {
			paths := []string{"/", "/page", "/headers/100", "/bytes/100000", "/debug/rusage", "/stats"}
			if impl == "quic-go" {
				paths = paths[:5] // no QPACK counters there: /stats is 404
			}
			_, err := client.Run(client.Config{
				Addr: addr, Impl: cimpl, Requests: 12, Parallel: 3, Paths: paths,
				H3: h3.Config{MaxTableCapacity: 4096, MaxBlockedStreams: 100, MaxFieldSectionSize: 1 << 20},
			})
			if err != nil {
				t.Errorf("server %s, client %s: %v", impl, cimpl, err)
			}
		}
	}
}

// peer is a hand-made HTTP/3 client: it sends raw frames and instructions
// and collects the server's unidirectional streams.
type peer struct {
	q  *quic.Conn
	mu sync.Mutex
	in map[uint64][]byte // by stream type
}

func dial(t *testing.T, addr string) *peer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	q, err := quic.DialAddr(ctx, addr, &tls.Config{NextProtos: []string{"h3"}, InsecureSkipVerify: true}, &quic.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.CloseWithError(0, "") })
	p := &peer{q: q, in: make(map[uint64][]byte)}
	var settings []byte
	settings = quicvarint.Append(settings, h3.SettingQPACKMaxTableCapacity)
	settings = quicvarint.Append(settings, 4096)
	settings = quicvarint.Append(settings, h3.SettingQPACKBlockedStreams)
	settings = quicvarint.Append(settings, 100)
	p.uni(t, h3.StreamControl, h3.AppendFrameHeader(nil, h3.FrameSettings, uint64(len(settings))), settings)
	go func() {
		for {
			s, err := q.AcceptUniStream(context.Background())
			if err != nil {
				return
			}
			go func() {
				r := h3.NewReader(s, 1024)
				typ, err := r.Varint()
				if err != nil {
					return
				}
				for {
					b, err := r.Chunk()
					if err != nil {
						return
					}
					p.mu.Lock()
					p.in[typ] = append(p.in[typ], b...)
					p.mu.Unlock()
				}
			}()
		}
	}()
	return p
}

// uni opens a unidirectional stream of type typ and writes parts on it.
func (p *peer) uni(t *testing.T, typ uint64, parts ...[]byte) *quic.SendStream {
	t.Helper()
	s, err := p.q.OpenUniStream()
	if err != nil {
		t.Fatal(err)
	}
	b := quicvarint.Append(nil, typ)
	for _, part := range parts {
		b = append(b, part...)
	}
	if _, err := s.Write(b); err != nil {
		t.Fatal(err)
	}
	return s
}

// request opens a request stream and sends a HEADERS frame with section.
func (p *peer) request(t *testing.T, section []byte, fin bool) *quic.Stream {
	t.Helper()
	s, err := p.q.OpenStreamSync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(append(h3.AppendFrameHeader(nil, h3.FrameHeaders, uint64(len(section))), section...)); err != nil {
		t.Fatal(err)
	}
	if fin {
		s.Close()
	}
	return s
}

// closedWith waits for the connection to end and returns the server's
// error code.
func (p *peer) closedWith(t *testing.T) h3.ErrCode {
	t.Helper()
	select {
	case <-p.q.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not close the connection")
	}
	var ae *quic.ApplicationError
	if err := context.Cause(p.q.Context()); !errors.As(err, &ae) || !ae.Remote {
		t.Fatalf("the connection ended with %v, not a code from the server", err)
	}
	return h3.ErrCode(ae.ErrorCode)
}

// get is a valid static-only GET of path (literal :path).
func get(path string) []byte {
	b := []byte{0, 0, 0xc0 | 17, 0xc0 | 23, 0x50} // GET, https, :authority (static name 0) with a literal value
	b = append(b, byte(len("localhost")))
	b = append(b, "localhost"...)
	b = append(b, 0x51, byte(len(path))) // :path, literal value
	return append(b, path...)
}

// TestPeerErrors sends each kind of error a peer can make and checks the
// code the server answers with; none may crash it, and a malformed field
// ends only its stream.
func TestPeerErrors(t *testing.T) {
	addr, s := start(t, h3.Config{MaxTableCapacity: 4096, MaxBlockedStreams: 100}, "hqpack")

	t.Run("decompression failed", func(t *testing.T) {
		p := dial(t, addr)
		p.request(t, []byte{0, 0, 0xff, 0x24}, true) // static index 99: past the table
		if code := p.closedWith(t); code != h3.ErrDecompressionFailed {
			t.Fatalf("closed with %v", code)
		}
	})
	t.Run("encoder stream", func(t *testing.T) {
		p := dial(t, addr)
		p.uni(t, h3.StreamEncoder, []byte{0x3f, 0xe9, 0x26}) // Set Dynamic Table Capacity 5000 > 4096
		if code := p.closedWith(t); code != h3.ErrEncoderStream {
			t.Fatalf("closed with %v", code)
		}
	})
	t.Run("decoder stream", func(t *testing.T) {
		p := dial(t, addr)
		p.uni(t, h3.StreamDecoder, []byte{0x80}) // Section Acknowledgment of stream 0: nothing sent
		if code := p.closedWith(t); code != h3.ErrDecoderStream {
			t.Fatalf("closed with %v", code)
		}
	})
	t.Run("malformed field", func(t *testing.T) {
		p := dial(t, addr)
		// A literal name with an uppercase letter (3-bit length 7: 7, 0).
		bad := append(get("/"), 0x20|7, 0, 'X', '-', 'U', 'p', 'p', 'e', 'r', 1, 'v')
		str := p.request(t, bad, true)
		_, err := io.ReadAll(str)
		var se *quic.StreamError
		if !errors.As(err, &se) || h3.ErrCode(se.ErrorCode) != h3.ErrMessage {
			t.Fatalf("malformed request: %v, want a reset with H3_MESSAGE_ERROR", err)
		}
		for _, section := range [][]byte{
			append(get("/"), 0x51, 1, '/'),                            // :path twice
			{0, 0, 0xc0 | 17, 0xc0 | 23},                              // no :path, no :authority
			append(get("/"), 0x20|2, 't', 'e', 4, 'g', 'z', 'i', 'p'), // te other than trailers
			append(get("/"), 0x54, 1, 'x'),                            // content-length: x (static name 4)
		} {
			str := p.request(t, section, true)
			if _, err := io.ReadAll(str); !errors.As(err, &se) || h3.ErrCode(se.ErrorCode) != h3.ErrMessage {
				t.Fatalf("section %x: %v, want a reset with H3_MESSAGE_ERROR", section, err)
			}
		}
		// The connection goes on.
		str = p.request(t, get("/"), true)
		b, err := io.ReadAll(str)
		if err != nil || len(b) == 0 {
			t.Fatalf("the request after: %v", err)
		}
	})
	t.Run("stream cancellation", func(t *testing.T) {
		p := dial(t, addr)
		// Required Insert Count 1 with no insert sent: the section blocks.
		str := p.request(t, []byte{0x02, 0x00, 0x80}, false)
		time.Sleep(50 * time.Millisecond)
		str.CancelWrite(quic.StreamErrorCode(h3.ErrRequestCancelled))
		want := []byte{0x40 | byte(str.StreamID())} // Stream Cancellation (6-bit prefix)
		deadline := time.Now().Add(5 * time.Second)
		for {
			p.mu.Lock()
			got := string(p.in[h3.StreamDecoder])
			p.mu.Unlock()
			if got == string(want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server's decoder stream: %x, want %x", got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	t.Run("section acknowledgment", func(t *testing.T) {
		p := dial(t, addr)
		// Set capacity 100, insert :path: /x (static name 1), then a
		// section that references it: acknowledged once decoded.
		p.uni(t, h3.StreamEncoder, []byte{0x20 | 31, 100 - 31, 0xc0 | 1, 2, '/', 'x'})
		section := []byte{0x02, 0x00, 0xc0 | 17, 0xc0 | 23, 0x50, 1, 'h', 0x80}
		str := p.request(t, section, true)
		if _, err := io.ReadAll(str); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			p.mu.Lock()
			got := p.in[h3.StreamDecoder]
			p.mu.Unlock()
			// After an Insert Count Increment when the insert came first.
			if bytes.IndexByte(got, 0x80|byte(str.StreamID())) >= 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server's decoder stream: %x, want a Section Acknowledgment", got)
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	t.Run("frame errors", func(t *testing.T) {
		p := dial(t, addr)
		s, _ := p.q.OpenStreamSync(context.Background())
		s.Write(h3.AppendFrameHeader(nil, h3.FrameData, 0)) // DATA before HEADERS
		s.Close()
		if code := p.closedWith(t); code != h3.ErrFrameUnexpected {
			t.Fatalf("closed with %v", code)
		}
	})
	// Still serving.
	if _, err := client.Run(client.Config{Addr: addr, Requests: 5, Paths: []string{"/"}}); err != nil {
		t.Fatal(err)
	}
	_ = s
}
