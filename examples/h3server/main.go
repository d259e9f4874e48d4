// Command h3server is an HTTP/3 server (RFC 9114) on quic-go's QUIC
// transport with hqpack's QPACK, dynamic table on: the control stream and
// SETTINGS, the QPACK encoder and decoder streams in both directions,
// blocked request streams held until their inserts arrive, Section
// Acknowledgments and Stream Cancellations, responses encoded with
// Plan/Continue and a raw Content-Length. -impl quic-go serves the same
// routes with quic-go's own http3 package instead, for comparison.
//
//	go run . -addr 127.0.0.1:4433 -stats
//
// See README.md for the routes, the flags and the measurements.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hqpack/hqpack/examples/h3server/internal/h3"
	"github.com/hqpack/hqpack/examples/h3server/internal/server"
	"github.com/quic-go/quic-go"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4433", "UDP address to listen on (port 0: any; the port is printed)")
	certFile := flag.String("cert", "", "certificate PEM file (none: a self-signed one is made)")
	keyFile := flag.String("key", "", "private key PEM file")
	makeCert := flag.String("make-cert", "", "write a self-signed cert.pem and key.pem into this directory and exit")
	capacity := flag.Uint64("qpack-capacity", 4096, "SETTINGS_QPACK_MAX_TABLE_CAPACITY to send; also the most of the peer's table our encoder uses")
	blocked := flag.Uint64("qpack-blocked", 100, "SETTINGS_QPACK_BLOCKED_STREAMS to send")
	maxSection := flag.Int("max-field-section", h3.DefaultMaxFieldSectionSize, "SETTINGS_MAX_FIELD_SECTION_SIZE to send, and the decoder's bound")
	stats := flag.Bool("stats", false, "print each connection's QPACK counters when it ends, and the totals at exit")
	impl := flag.String("impl", "hqpack", "hqpack, or quic-go: the same routes on quic-go's http3 package")
	flag.Parse()

	if *makeCert != "" {
		_, certPEM, keyPEM, err := h3.SelfSigned()
		if err == nil {
			err = os.WriteFile(filepath.Join(*makeCert, "cert.pem"), certPEM, 0o644)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(*makeCert, "key.pem"), keyPEM, 0o600)
		}
		if err != nil {
			fatal(err)
		}
		return
	}
	var cert tls.Certificate
	var err error
	if *certFile != "" {
		cert, err = tls.LoadX509KeyPair(*certFile, *keyFile)
	} else {
		cert, _, _, err = h3.SelfSigned()
	}
	if err != nil {
		fatal(err)
	}
	tlsConf := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h3"}}

	cfg := h3.Config{MaxTableCapacity: *capacity, MaxBlockedStreams: *blocked, MaxFieldSectionSize: *maxSection, Logf: logf}
	s := server.New(cfg, *impl, *stats, os.Stderr)
	udpAddr, err := net.ResolveUDPAddr("udp", *addr)
	if err != nil {
		fatal(err)
	}
	udp, err := net.ListenUDP("udp", udpAddr)
	if err != nil {
		fatal(err)
	}
	quicConf := &quic.Config{MaxIncomingStreams: 100, MaxIncomingUniStreams: 16}
	var stop func()
	switch *impl {
	case "hqpack":
		ln, err := quic.Listen(udp, tlsConf, quicConf)
		if err != nil {
			fatal(err)
		}
		go s.Serve(ln)
		stop = func() { s.Shutdown(); ln.Close() }
	case "quic-go":
		stop = s.ServeStd(udp, tlsConf, quicConf)
	default:
		fatal(fmt.Errorf("unknown -impl %q", *impl))
	}
	fmt.Fprintf(os.Stderr, "h3server: listening on %v impl=%s qpack-capacity=%d qpack-blocked=%d\n", udp.LocalAddr(), *impl, *capacity, *blocked)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	stop()
	s.PrintRusage(os.Stderr)
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, "h3server: "+format+"\n", args...) }

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "h3server: %v\n", err)
	os.Exit(1)
}
