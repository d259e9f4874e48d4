package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"github.com/hqpack/hqpack/examples/internal/site"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

var codecs = []codecKind{codecHQPACK, codecXNet}

// startServer serves on a loopback port until the test ends.
func startServer(t *testing.T, codec codecKind) (*server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(codec)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, ln.Addr().String()
}

// newClient is an x/net http2.Transport speaking h2c (prior knowledge).
func newClient(t *testing.T, tweak func(*http2.Transport)) *http.Client {
	t.Helper()
	tr := &http2.Transport{
		AllowHTTP: true,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
		MaxHeaderListSize: 1 << 20,
	}
	if tweak != nil {
		tweak(tr)
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// get fetches url and returns the response with its body read.
func get(t *testing.T, c *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	if resp.ProtoMajor != 2 {
		t.Fatalf("%s: protocol %s", req.URL, resp.Proto)
	}
	return resp, body
}

func newRequest(t *testing.T, method, url string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// checkRoute fetches path and checks what the route must send.
func checkRoute(t *testing.T, c *http.Client, base, path string, i int) {
	t.Helper()
	req := newRequest(t, "GET", base+path, nil)
	// Repeated fields warm the dynamic tables; the per-request one churns them.
	req.Header.Set("x-session", "abcdefghijklmnopqrstuvwxyz")
	req.Header.Set("x-seq", strconv.Itoa(i))
	resp, body := get(t, c, req)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: status %d", path, resp.StatusCode)
	}
	if resp.ContentLength != int64(len(body)) {
		t.Fatalf("%s: Content-Length %d, body %d bytes", path, resp.ContentLength, len(body))
	}
	switch {
	case path == "/":
		if string(body) != string(helloBody) {
			t.Fatalf("/: body %q", body)
		}
	case path == "/page":
		for _, name := range []string{"Content-Type", "Cache-Control", "Date", "Server", "Vary", "X-Request-Id"} {
			if resp.Header.Get(name) == "" {
				t.Fatalf("/page: no %s in %v", name, resp.Header)
			}
		}
		if len(resp.Header) != 7 { // + :status = 8 fields
			t.Fatalf("/page: %d fields: %v", len(resp.Header), resp.Header)
		}
	case path == "/echo":
		for _, want := range []string{":method: GET\n", ":path: /echo\n", "x-session: abcdefghijklmnopqrstuvwxyz\n", fmt.Sprintf("x-seq: %d\n", i)} {
			if !strings.Contains(string(body), want) {
				t.Fatalf("/echo: body %q lacks %q", body, want)
			}
		}
		if got := resp.Header.Get("Echo-X-Seq"); got != strconv.Itoa(i) {
			t.Fatalf("/echo: echo-x-seq %q, want %d", got, i)
		}
	case strings.HasPrefix(path, "/headers/"):
		n, _ := strconv.Atoi(path[len("/headers/"):])
		checkLargeHeaders(t, resp.Header, n)
	case strings.HasPrefix(path, "/bytes/"):
		n, _ := strconv.Atoi(path[len("/bytes/"):])
		checkPattern(t, body, n)
	}
}

func checkLargeHeaders(t *testing.T, h http.Header, n int) {
	t.Helper()
	for i := range n {
		if got := h.Get(site.LargeName(i)); got != site.LargeValue(i) {
			t.Fatalf("field %s: got %d bytes %.20q, want %d bytes", site.LargeName(i), len(got), got, len(site.LargeValue(i)))
		}
	}
	if h.Get(site.LargeName(n)) != "" {
		t.Fatalf("field %s should not be there", site.LargeName(n))
	}
}

func checkPattern(t *testing.T, body []byte, n int) {
	t.Helper()
	if len(body) != n {
		t.Fatalf("body: %d bytes, want %d", len(body), n)
	}
	const line = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n"
	for i, b := range body {
		if b != line[i%len(line)] {
			t.Fatalf("body byte %d is %q, want %q", i, b, line[i%len(line)])
		}
	}
}

var routes = []string{"/", "/page", "/echo", "/headers/3", "/bytes/100"}

// Many requests on one connection: both dynamic tables warm up and churn.
func TestManyRequestsOneConnection(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			srv, addr := startServer(t, codec)
			c := newClient(t, nil)
			for i := range 300 {
				checkRoute(t, c, "http://"+addr, routes[i%len(routes)], i)
			}
			if n := srv.accepted.Load(); n != 1 {
				t.Errorf("%d connections, want 1", n)
			}
			if n := srv.requests.Load(); n != 300 {
				t.Errorf("server counted %d requests, want 300", n)
			}
		})
	}
}

// Concurrent streams on one connection: handlers run at once and the writer
// interleaves their frames.
func TestConcurrentStreams(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			c := newClient(t, nil)
			paths := append(routes, "/bytes/200000", "/headers/40")
			var wg sync.WaitGroup
			for g := range 24 {
				wg.Go(func() {
					for i := range 8 {
						checkRoute(t, c, "http://"+addr, paths[(g+i)%len(paths)], g*100+i)
					}
				})
			}
			wg.Wait()
		})
	}
}

// Responses with more than 64 KiB of fields: HEADERS and CONTINUATION frames.
func TestLargeResponseHeaders(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			c := newClient(t, nil)
			for _, n := range []int{70, 150, 20, 150} {
				resp, _ := get(t, c, newRequest(t, "GET", fmt.Sprintf("http://%s/headers/%d", addr, n), nil))
				if resp.StatusCode != 200 {
					t.Fatalf("status %d", resp.StatusCode)
				}
				checkLargeHeaders(t, resp.Header, n)
			}
			checkRoute(t, c, "http://"+addr, "/echo", 1)
		})
	}
}

// The client lowers SETTINGS_HEADER_TABLE_SIZE (and its own encoder's
// table): the server's encoder must follow, with a size update first.
func TestClientLowersHeaderTableSize(t *testing.T) {
	for _, codec := range codecs {
		for _, size := range []uint32{1, 64, 512} {
			t.Run(fmt.Sprintf("%s/%d", codec, size), func(t *testing.T) {
				_, addr := startServer(t, codec)
				c := newClient(t, func(tr *http2.Transport) {
					tr.MaxDecoderHeaderTableSize = size
					tr.MaxEncoderHeaderTableSize = size
				})
				for i := range 60 {
					checkRoute(t, c, "http://"+addr, routes[i%len(routes)], i)
				}
			})
		}
	}
}

// A request body larger than our windows: the server reads and discards it
// and gives the window back, then answers.
func TestRequestBody(t *testing.T) {
	for _, codec := range codecs {
		t.Run(codec.String(), func(t *testing.T) {
			_, addr := startServer(t, codec)
			c := newClient(t, nil)
			for _, n := range []int{0, 10, 3 << 20} {
				req := newRequest(t, "POST", "http://"+addr+"/echo", bytes.NewReader(make([]byte, n)))
				resp, body := get(t, c, req)
				if resp.StatusCode != 200 || !strings.Contains(string(body), ":method: POST\n") {
					t.Fatalf("POST %d bytes: status %d, body %q", n, resp.StatusCode, body)
				}
			}
		})
	}
}

func TestRoutes(t *testing.T) {
	_, addr := startServer(t, codecHQPACK)
	c := newClient(t, nil)
	for _, tc := range []struct {
		method, path string
		status       int
		length       int64
	}{
		{"GET", "/nope", 404, 10},
		{"GET", "/bytes/x", 400, 0},
		{"GET", "/headers/100000", 400, 0},
		{"HEAD", "/bytes/1000", 200, 1000},
		{"GET", "/bytes/0", 200, 0},
		{"GET", "/?q=1", 200, int64(len(helloBody))},
		{"GET", "/debug/rusage", 200, -1},
	} {
		resp, body := get(t, c, newRequest(t, tc.method, "http://"+addr+tc.path, nil))
		if resp.StatusCode != tc.status || (tc.length >= 0 && resp.ContentLength != tc.length) {
			t.Errorf("%s %s: status %d, Content-Length %d; want %d, %d", tc.method, tc.path, resp.StatusCode, resp.ContentLength, tc.status, tc.length)
		}
		if tc.method == "HEAD" && len(body) != 0 {
			t.Errorf("HEAD: %d body bytes", len(body))
		}
		if tc.path == "/debug/rusage" && len(strings.Fields(string(body))) != 3 {
			t.Errorf("/debug/rusage: %q", body)
		}
	}
}
