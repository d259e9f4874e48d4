package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// config says how much traffic run sends.
type config struct {
	Rounds   int           // rounds, one after the other, on one connection
	Parallel int           // requests sent at once in each round
	Timeout  time.Duration // for each round
	Log      io.Writer     // progress, one line per round; nil for none
}

// stats counts what run checked.
type stats struct {
	Requests       int
	RequestFields  int // header and trailer fields the server compared
	ResponseFields int // header and trailer fields the client compared
	Connections    int
	MaxInFlight    int // requests in the server's handlers at once
}

// failures collects what went wrong on either side; run fails if any.
type failures struct {
	mu   sync.Mutex
	errs []error
}

func (f *failures) add(err error) {
	f.mu.Lock()
	f.errs = append(f.errs, err)
	f.mu.Unlock()
}

func (f *failures) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return errors.Join(f.errs...)
}

// run starts an HTTP/3 server on a loopback UDP port, sends it
// cfg.Rounds rounds of cfg.Parallel requests at once over one connection
// with quic-go's client, and checks every field of every request and
// response, in both directions. It returns an error that lists every
// mismatch, HTTP/3 error and panic.
func run(cfg config) (st stats, err error) {
	tlsServer, tlsClient, err := selfSigned()
	if err != nil {
		return st, err
	}
	var fails failures
	logs := &logBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	h := &handler{fails: &fails}
	var conns atomic.Int32
	srv := &http3.Server{
		TLSConfig: http3.ConfigureTLSConfig(tlsServer),
		Handler:   h,
		Logger:    logger,
		ConnContext: func(ctx context.Context, c *quic.Conn) context.Context {
			conns.Add(1)
			return ctx
		},
	}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return st, err
	}
	defer udp.Close()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(udp) }()
	defer func() {
		srv.Close()
		if e := <-served; e != nil && !errors.Is(e, http.ErrServerClosed) && !errors.Is(e, quic.ErrServerClosed) {
			fails.add(fmt.Errorf("server: Serve: %w", e))
		}
		if err == nil {
			err = fails.err()
		}
		if err != nil && logs.Len() > 0 {
			err = fmt.Errorf("%w\nquic-go's log:\n%s", err, logs.String())
		}
	}()

	tr := &http3.Transport{
		TLSClientConfig:    tlsClient,
		DisableCompression: true, // no Accept-Encoding added: the client sends exactly its fields
		Logger:             logger,
	}
	defer tr.Close()
	client := &http.Client{Transport: tr}
	base := "https://" + udp.LocalAddr().String()

	for r := range cfg.Rounds {
		start := time.Now()
		h.expect(cfg.Parallel)
		ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
		var wg sync.WaitGroup
		var n atomic.Int32
		go1 := make(chan struct{}) // all requests of a round leave at once
		for i := range cfg.Parallel {
			wg.Go(func() {
				<-go1
				k, err := roundTrip(ctx, client, base, newRequest(r, i))
				if err != nil {
					fails.add(fmt.Errorf("client: request %d-%d: %w", r, i, err))
				}
				n.Add(int32(k))
			})
		}
		close(go1)
		wg.Wait()
		cancel()
		st.Requests += cfg.Parallel
		st.ResponseFields += int(n.Load())
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "h3check: round %d: %d requests in %v\n", r, cfg.Parallel, time.Since(start).Round(time.Millisecond))
		}
		if err := fails.err(); err != nil {
			return st, err
		}
	}
	st.RequestFields = int(h.fields.Load())
	st.Connections = int(conns.Load())
	st.MaxInFlight = int(h.maxInFlight.Load())
	// One connection: the client's decoder and the server's are each
	// shared by every stream, which is what this program is for.
	if st.Connections != 1 {
		fails.add(fmt.Errorf("the client opened %d connections, want 1 (so that the decoders are shared)", st.Connections))
	}
	if bad := logs.warnings(); bad != "" {
		fails.add(fmt.Errorf("quic-go logged errors:\n%s", bad))
	}
	return st, fails.err()
}

// roundTrip sends q, checks the response header, body and trailers
// against what the server must derive from q, and returns the number of
// fields it compared.
func roundTrip(ctx context.Context, client *http.Client, base string, q *request) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+q.path, bytes.NewReader(q.body))
	if err != nil {
		return 0, err
	}
	req.Header = q.header.Clone()
	req.Trailer = q.trailer.Clone()
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("reading the response body: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	if resp.ProtoMajor != 3 {
		return 0, fmt.Errorf("response over %s, want HTTP/3", resp.Proto)
	}
	wantHeader, wantTrailer, wantBody := response(q.path, q.received(), q.trailer, q.body)
	d := diff("response header", resp.Header, delivered(wantHeader), 10)
	d = append(d, diff("response trailer", resp.Trailer, wantTrailer, 10)...)
	if !bytes.Equal(body, wantBody) {
		d = append(d, fmt.Sprintf("response body is %q, want %q", body, wantBody))
	}
	if len(d) > 0 {
		return 0, errors.New(strings.Join(d, "\n\t"))
	}
	return countFields(resp.Header) + countFields(resp.Trailer), nil
}

// handler checks each request against the one the client built for its
// path and answers with the response derived from what it received.
type handler struct {
	fails       *failures
	fields      atomic.Int64 // request fields compared
	inFlight    atomic.Int32
	maxInFlight atomic.Int32

	mu      sync.Mutex
	arrived int           // requests of this round that reached the barrier
	barrier chan struct{} // closed when all requests of the round are in
	want    int
}

var checkPath = regexp.MustCompile(`^/check/([0-9]+)/([0-9]+)\?`)

// expect resets the barrier for a round of n requests.
func (h *handler) expect(n int) {
	h.mu.Lock()
	h.arrived, h.want, h.barrier = 0, n, make(chan struct{})
	h.mu.Unlock()
}

// wait holds a handler until every request of the round has arrived, so
// that the responses are decoded at the same time; a request that never
// arrives holds the others for a second at most.
func (h *handler) wait() {
	h.mu.Lock()
	h.arrived++
	b := h.barrier
	if h.arrived == h.want {
		close(b)
	}
	h.mu.Unlock()
	select {
	case <-b:
	case <-time.After(time.Second):
	}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := h.inFlight.Add(1)
	defer h.inFlight.Add(-1)
	for m := h.maxInFlight.Load(); n > m && !h.maxInFlight.CompareAndSwap(m, n); m = h.maxInFlight.Load() {
	}
	defer func() {
		if p := recover(); p != nil {
			h.fails.add(fmt.Errorf("server: panic in the handler: %v", p))
			http.Error(w, "panic", http.StatusInternalServerError)
		}
	}()
	q, err := h.check(r)
	if err != nil {
		h.fails.add(fmt.Errorf("server: %s: %w", r.URL.RequestURI(), err))
		h.wait()
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	header, trailer, body := response(r.URL.RequestURI(), r.Header, r.Trailer, q.body)
	h.wait()
	for n, vv := range header {
		w.Header()[n] = vv
	}
	w.WriteHeader(http.StatusOK)
	w.Write(body)
	for n, vv := range trailer {
		w.Header()[n] = vv
	}
}

// check reads the request's body and trailers and compares all of it
// with the request the client built.
func (h *handler) check(r *http.Request) (*request, error) {
	m := checkPath.FindStringSubmatch(r.URL.RequestURI())
	if m == nil {
		return nil, fmt.Errorf("not a path the client sends")
	}
	round, _ := strconv.Atoi(m[1])
	i, _ := strconv.Atoi(m[2])
	q := newRequest(round, i)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	var d []string
	if got := r.URL.RequestURI(); got != q.path {
		d = append(d, fmt.Sprintf(":path is %q, want %q", got, q.path))
	}
	if r.Method != http.MethodPost {
		d = append(d, fmt.Sprintf(":method is %q, want POST", r.Method))
	}
	d = append(d, diff("request header", r.Header, q.received(), 10)...)
	d = append(d, diff("request trailer", r.Trailer, q.trailer, 10)...)
	if !bytes.Equal(body, q.body) {
		d = append(d, fmt.Sprintf("request body is %q, want %q", body, q.body))
	}
	if len(d) > 0 {
		return nil, errors.New(strings.Join(d, "\n\t"))
	}
	h.fields.Add(int64(countFields(r.Header) + countFields(r.Trailer)))
	return q, nil
}

// selfSigned makes a certificate for 127.0.0.1 in memory and returns the
// server's TLS configuration and a client's that trusts it.
func selfSigned() (server, client *tls.Config, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "h3check"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}}
	client = &tls.Config{RootCAs: pool}
	return server, client, nil
}

// logBuffer keeps what quic-go logs, for the report of a failed run.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// warnings returns the lines logged at level WARN or ERROR.
func (l *logBuffer) warnings() string {
	var out []string
	for line := range strings.Lines(l.String()) {
		if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
