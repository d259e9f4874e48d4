// Package client is h3client: HTTP/3 requests over quic-go's QUIC, either
// with hqpack's QPACK and its dynamic table (internal/h3) or with quic-go's
// own http3 package, N at once, each response checked.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hqpack/hqpack/examples/h3server/internal/h3"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// Checks of a response.
const (
	CheckStatus  = "status"  // :status 200
	CheckEcho    = "echo"    // the server's /echo: every field sent comes back, as a field and in the body
	CheckDocRoot = "docroot" // the body is the file at the request's path under DocRoot
)

// Config says what Run sends and checks.
type Config struct {
	Addr       string         // host:port
	ServerName string         // TLS server name; "" for the host of Addr
	RootCAs    *x509.CertPool // nil: the server's certificate is not verified
	Impl       string         // "hqpack" (the default) or "quic-go"
	H3         h3.Config      // hqpack's SETTINGS and test knobs
	Requests   int            // in all, on one connection
	Parallel   int            // at once
	Paths      []string       // taken in turn; default "/"
	Header     [][2]string    // fields every request carries
	Fields     int            // generated fields per request, some the same each time, some varying
	Check      string         // CheckStatus, CheckEcho or CheckDocRoot
	DocRoot    string
	Timeout    time.Duration // for the whole run; 0 means a minute
	// Warmup, when set, sends the first warmupRequests requests one at a
	// time, waiting this long after each response, so that both ends'
	// inserts and acknowledgments have arrived before the others: an
	// encoder that may not block (SETTINGS_QPACK_BLOCKED_STREAMS 0)
	// references only entries the peer has acknowledged, and hqpack's
	// inserts a field once it has come again.
	Warmup time.Duration
	Body   io.Writer // when set, every response body is written to it
}

// Result is what Run did.
type Result struct {
	Requests      int
	FieldsChecked int   // request fields found echoed, or response fields checked
	BodyBytes     int64 // received
	Elapsed       time.Duration
	Counters      h3.Counters // hqpack only
}

// Run sends cfg.Requests requests on one connection, cfg.Parallel at once,
// and checks each response. Its error lists the first failures.
func Run(cfg Config) (Result, error) {
	if cfg.Parallel <= 0 {
		cfg.Parallel = 1
	}
	if len(cfg.Paths) == 0 {
		cfg.Paths = []string{"/"}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.Check == "" {
		cfg.Check = CheckStatus
	}
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(cfg.Addr)
		if err != nil {
			return Result{}, err
		}
		cfg.ServerName = host
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
	defer cancel()
	tlsConf := &tls.Config{
		NextProtos:         []string{"h3"},
		ServerName:         cfg.ServerName,
		RootCAs:            cfg.RootCAs,
		InsecureSkipVerify: cfg.RootCAs == nil, // a test server's self-signed certificate
	}
	r := &runner{cfg: &cfg}
	start := time.Now()
	var err error
	switch cfg.Impl {
	case "", "hqpack":
		err = r.runHQ(ctx, tlsConf)
	case "quic-go":
		err = r.runStd(ctx, tlsConf)
	default:
		err = fmt.Errorf("unknown impl %q", cfg.Impl)
	}
	res := Result{
		Requests:      int(r.done.Load()),
		FieldsChecked: int(r.fields.Load()),
		BodyBytes:     r.body.Load(),
		Elapsed:       time.Since(start),
		Counters:      r.counters,
	}
	if err == nil {
		err = r.err()
	}
	return res, err
}

type runner struct {
	cfg                *Config
	next, done, fields atomic.Int64
	body               atomic.Int64
	counters           h3.Counters

	mu    sync.Mutex
	fails []error
	nfail int
}

func (r *runner) fail(err error) {
	r.mu.Lock()
	r.nfail++
	if len(r.fails) < 10 {
		r.fails = append(r.fails, err)
	}
	r.mu.Unlock()
}

func (r *runner) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.nfail == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d requests failed, the first: %w", r.nfail, r.cfg.Requests, errors.Join(r.fails...))
}

// warmupRequests are the requests sent one at a time with Config.Warmup.
const warmupRequests = 3

// workers runs fn for each request index on cfg.Parallel goroutines, after
// the first warmupRequests one at a time when cfg.Warmup is set.
func (r *runner) workers(fn func(i int) error) {
	for k := 0; r.cfg.Warmup > 0 && k < min(warmupRequests, r.cfg.Requests); k++ {
		i := int(r.next.Add(1) - 1)
		if err := fn(i); err != nil {
			r.fail(fmt.Errorf("request %d (%s): %w", i, r.path(i), err))
		} else {
			r.done.Add(1)
		}
		time.Sleep(r.cfg.Warmup)
	}
	var wg sync.WaitGroup
	for range r.cfg.Parallel {
		wg.Go(func() {
			for {
				i := int(r.next.Add(1) - 1)
				if i >= r.cfg.Requests {
					return
				}
				if err := fn(i); err != nil {
					r.fail(fmt.Errorf("request %d (%s): %w", i, r.path(i), err))
					continue
				}
				r.done.Add(1)
			}
		})
	}
	wg.Wait()
}

func (r *runner) path(i int) string { return r.cfg.Paths[i%len(r.cfg.Paths)] }

// Fields returns the regular fields of request i: cfg.Header, then
// cfg.Fields generated ones. Two in three have the same value in every
// request; the others cycle through 8 values, so a dynamic table sees
// them again.
func Fields(cfg *Config, i int) [][2]string {
	f := make([][2]string, 0, len(cfg.Header)+cfg.Fields)
	f = append(f, cfg.Header...)
	for k := range cfg.Fields {
		name := "x-hq-field-" + strconv.Itoa(k)
		if k%3 == 2 {
			f = append(f, [2]string{name, fmt.Sprintf("cycling value %d of field %d", i%8, k)})
		} else {
			f = append(f, [2]string{name, fmt.Sprintf("the same value of field %d every time, Mixed Case; a=b", k)})
		}
	}
	return f
}

// runHQ is the hqpack client: one QUIC connection, HTTP/3 by internal/h3.
func (r *runner) runHQ(ctx context.Context, tlsConf *tls.Config) error {
	q, err := quic.DialAddr(ctx, r.cfg.Addr, tlsConf, &quic.Config{MaxIncomingUniStreams: 16})
	if err != nil {
		return err
	}
	c, err := h3.Start(q, r.cfg.H3, true)
	if err != nil {
		q.CloseWithError(0, "")
		return err
	}
	// The server's SETTINGS first, so requests can use its dynamic table
	// from the start.
	select {
	case <-c.SettingsReceived():
	case <-time.After(2 * time.Second):
	case <-ctx.Done():
	}
	r.workers(func(i int) error { return r.requestHQ(ctx, c, i) })
	r.counters = c.Counters()
	if r.counters.ConnectionErrorCode != 0 {
		r.fail(fmt.Errorf("we closed the connection with %v", h3.ErrCode(r.counters.ConnectionErrorCode)))
	}
	select {
	case <-c.Done():
		r.fail(fmt.Errorf("the connection ended: %w", context.Cause(q.Context())))
	default:
	}
	c.Close()
	return nil
}

// hqStream is a request's reusable state.
type hqStream struct {
	fields   fastpath.FieldList
	out      []byte
	r        *h3.Reader
	head     h3.Head
	trailers h3.Head
	body     []byte
}

var hqPool = sync.Pool{New: func() any { return &hqStream{r: h3.NewReader(nil, 4096)} }}

func (r *runner) requestHQ(ctx context.Context, c *h3.Conn, i int) error {
	st := hqPool.Get().(*hqStream)
	defer hqPool.Put(st)
	str, err := c.QUIC().OpenStreamSync(ctx)
	if err != nil {
		return err
	}
	path := r.path(i)
	sent := Fields(r.cfg, i)
	l := &st.fields
	l.Reset()
	l.AddID(idMethod, "GET", 0)
	l.AddID(idScheme, "https", 0)
	l.AddID(idAuthority, r.cfg.Addr, 0)
	l.AddID(idPath, path, 0)
	for _, f := range sent {
		l.Add(f[0], f[1], 0)
	}
	st.out = c.AppendHeaders(st.out[:0], uint64(str.StreamID()), l)
	if _, err := str.Write(st.out); err != nil {
		return err
	}
	str.Close()
	st.r.Reset(str)
	for {
		st.head.Reset(h3.Response)
		if err := c.ReadHead(str, st.r, &st.head); err != nil {
			return r.streamFailed(c, str, err)
		}
		if st.head.StatusCode() >= 200 {
			break
		}
	}
	st.body = st.body[:0]
	n, err := c.ReadBody(str, st.r, &st.head, &st.trailers, func(b []byte) { st.body = append(st.body, b...) })
	if err != nil {
		return r.streamFailed(c, str, err)
	}
	c.CountRequest()
	r.body.Add(n)
	head := make(map[string][]string, st.head.Len())
	for k := range st.head.Len() {
		name, value := st.head.At(k)
		head[string(name)] = append(head[string(name)], string(value))
	}
	return r.check(i, st.head.StatusCode(), head, st.body, sent, true)
}

// streamFailed resets the stream for a stream error of the response.
func (r *runner) streamFailed(c *h3.Conn, str *quic.Stream, err error) error {
	if code, ok := h3.StreamCode(err); ok {
		c.Reset(str, code)
	}
	return err
}

// runStd is quic-go's http3 client: its Transport keeps one connection.
func (r *runner) runStd(ctx context.Context, tlsConf *tls.Config) error {
	tr := &http3.Transport{TLSClientConfig: tlsConf, QUICConfig: &quic.Config{}}
	defer tr.Close()
	client := &http.Client{Transport: tr}
	r.workers(func(i int) error {
		path := r.path(i)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+r.cfg.Addr+path, nil)
		if err != nil {
			return err
		}
		sent := Fields(r.cfg, i)
		for _, f := range sent {
			req.Header.Add(f[0], f[1])
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		r.body.Add(int64(len(body)))
		head := make(map[string][]string, len(resp.Header))
		for k, v := range resp.Header {
			head[strings.ToLower(k)] = v
		}
		return r.check(i, resp.StatusCode, head, body, sent, false)
	})
	return nil
}

// check checks response i. exact: we know every field the server got
// (hqpack sends only ours), so the echoed body must be exactly them.
func (r *runner) check(i, status int, head map[string][]string, body []byte, sent [][2]string, exact bool) error {
	if status != 200 {
		return fmt.Errorf("status %d", status)
	}
	if r.cfg.Body != nil {
		r.mu.Lock()
		r.cfg.Body.Write(body)
		r.mu.Unlock()
	}
	if cl := head["content-length"]; len(cl) != 1 || cl[0] != strconv.Itoa(len(body)) {
		return fmt.Errorf("content-length %q for %d body bytes", cl, len(body))
	}
	switch r.cfg.Check {
	case CheckStatus:
	case CheckDocRoot:
		want, err := os.ReadFile(filepath.Join(r.cfg.DocRoot, filepath.FromSlash(r.path(i))))
		if err != nil {
			return err
		}
		if !bytes.Equal(body, want) {
			return fmt.Errorf("body of %d bytes, not the file's %d", len(body), len(want))
		}
	case CheckEcho:
		lines := make(map[string]int)
		for _, ln := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
			lines[ln]++
		}
		for _, f := range sent {
			if v := head["echo-"+f[0]]; len(v) != 1 || v[0] != f[1] {
				return fmt.Errorf("field echo-%s: %q, want %q", f[0], v, f[1])
			}
			if lines[f[0]+": "+f[1]] == 0 {
				return fmt.Errorf("body has no line %q", f[0]+": "+f[1])
			}
		}
		if exact {
			var want strings.Builder
			fmt.Fprintf(&want, ":method: GET\n:scheme: https\n:authority: %s\n:path: %s\n", r.cfg.Addr, r.path(i))
			for _, f := range sent {
				fmt.Fprintf(&want, "%s: %s\n", f[0], f[1])
			}
			if string(body) != want.String() {
				return fmt.Errorf("echoed body %q, want %q", body, want.String())
			}
			echoes := 0
			for name := range head {
				if strings.HasPrefix(name, "echo-") {
					echoes++
				}
			}
			if echoes != len(sent) {
				return fmt.Errorf("%d echo- fields for %d sent", echoes, len(sent))
			}
		}
		r.fields.Add(int64(len(sent)))
	default:
		return fmt.Errorf("unknown check %q", r.cfg.Check)
	}
	return nil
}

// The FieldIDs of the request's pseudo-header fields, for FieldList.AddID.
var (
	idMethod    = h3.MustFieldID(":method")
	idScheme    = h3.MustFieldID(":scheme")
	idAuthority = h3.MustFieldID(":authority")
	idPath      = h3.MustFieldID(":path")
)
