// Command h3client sends HTTP/3 requests on one connection, N at once,
// and checks every response: with hqpack's QPACK over quic-go's QUIC
// (dynamic table on, encoder and decoder streams, blocked streams), or
// with -impl quic-go, quic-go's own http3 client. The CI script and the
// measurements in ../README.md use it.
//
//	go run ./h3client -addr 127.0.0.1:4433 -n 200 -c 20 -path /echo -fields 30 -check echo -stats
package main

import (
	"crypto/x509"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hqpack/hqpack/examples/h3server/internal/client"
)

type headerFlag [][2]string

// String returns the fields given so far.
func (h *headerFlag) String() string { return fmt.Sprint(*h) }

// Set adds a field given as 'name: value'.
func (h *headerFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return fmt.Errorf("want 'name: value', got %q", s)
	}
	*h = append(*h, [2]string{strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)})
	return nil
}

func main() {
	var cfg client.Config
	var header headerFlag
	flag.StringVar(&cfg.Addr, "addr", "127.0.0.1:4433", "server host:port")
	flag.StringVar(&cfg.ServerName, "sni", "", "TLS server name (default: the host of -addr)")
	ca := flag.String("ca", "", "PEM certificate to trust (default: no verification)")
	flag.StringVar(&cfg.Impl, "impl", "hqpack", "hqpack, or quic-go: quic-go's http3 client (static-only QPACK)")
	flag.IntVar(&cfg.Requests, "n", 100, "requests, on one connection")
	flag.IntVar(&cfg.Parallel, "c", 10, "requests at once")
	paths := flag.String("path", "/", "comma-separated paths, taken in turn")
	flag.Var(&header, "H", "a field every request carries, 'name: value' (repeatable)")
	flag.IntVar(&cfg.Fields, "fields", 0, "generated fields per request (2 in 3 the same each time, the others cycling)")
	flag.StringVar(&cfg.Check, "check", client.CheckStatus, "status, echo (the server's /echo) or docroot")
	flag.StringVar(&cfg.DocRoot, "docroot", "", "the directory the server serves, for -check docroot")
	flag.Uint64Var(&cfg.H3.MaxTableCapacity, "qpack-capacity", 4096, "SETTINGS_QPACK_MAX_TABLE_CAPACITY to send; also the most of the server's table our encoder uses")
	flag.Uint64Var(&cfg.H3.MaxBlockedStreams, "qpack-blocked", 100, "SETTINGS_QPACK_BLOCKED_STREAMS to send")
	flag.IntVar(&cfg.H3.MaxFieldSectionSize, "max-field-section", 1<<20, "SETTINGS_MAX_FIELD_SECTION_SIZE to send")
	flag.DurationVar(&cfg.H3.HoldEncoderStream, "hold-encoder", 0, "delay each encoder-stream write by this much, so the server's sections block (tests)")
	flag.DurationVar(&cfg.Warmup, "warmup", 0, "send the first 3 requests one at a time, pausing this long after each, so that inserts and acknowledgments have gone both ways before the rest")
	flag.DurationVar(&cfg.Timeout, "timeout", time.Minute, "time limit for the run")
	stats := flag.Bool("stats", false, "print the connection's QPACK counters (hqpack)")
	quiet := flag.Bool("q", false, "print only failures")
	body := flag.Bool("body", false, "write every response body to standard output")
	flag.Parse()
	cfg.Paths = strings.Split(*paths, ",")
	cfg.Header = header
	cfg.H3.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "h3client: "+format+"\n", args...) }
	if *ca != "" {
		pem, err := os.ReadFile(*ca)
		if err != nil {
			fatal(err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			fatal(fmt.Errorf("%s: no certificate", *ca))
		}
	}
	if *body {
		cfg.Body = os.Stdout
	}
	res, err := client.Run(cfg)
	if *stats && cfg.Impl != "quic-go" {
		fmt.Printf("h3client: stats %v\n", res.Counters)
	}
	if err != nil {
		fatal(err)
	}
	if !*quiet {
		fmt.Printf("h3client: ok: %d requests (%d at once, impl=%s) in %v, %.0f req/s, %d request fields checked, %d body bytes\n",
			res.Requests, cfg.Parallel, cfg.Impl, res.Elapsed.Round(time.Millisecond),
			float64(res.Requests)/res.Elapsed.Seconds(), res.FieldsChecked, res.BodyBytes)
	}
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "h3client: FAIL: %v\n", err)
	os.Exit(1)
}
