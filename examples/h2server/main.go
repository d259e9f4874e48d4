// Command h2server is a small cleartext HTTP/2 server (h2c with prior
// knowledge) built on golang.org/x/net/http2's Framer, with hqpack encoding
// and decoding every header block. With -codec xnet it uses
// golang.org/x/net/http2/hpack instead, for comparison.
//
//	go run ./examples/h2server -addr 127.0.0.1:8080
//	curl --http2-prior-knowledge http://127.0.0.1:8080/
//
// Routes: / (a small body), /page (8 response fields), /bytes/N (N bytes),
// /headers/N (N fields of about 1 KiB: CONTINUATION frames), /echo (the
// request's fields, in the body and as echo-NAME fields), /debug/rusage
// (the server's CPU time in µs, user and system, and requests served).
//
// It stops on SIGINT or SIGTERM: GOAWAY to every connection, then a line
// on stderr with its CPU time and the requests it served.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	codecName := flag.String("codec", "hqpack", "header codec: hqpack or xnet (golang.org/x/net/http2/hpack)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to this file, until the server stops")
	flag.Parse()
	codec, err := parseCodec(*codecName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "h2server:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "h2server:", err)
		os.Exit(1)
	}
	srv := newServer(codec)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "h2server:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "h2server:", err)
			os.Exit(1)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	// Scripts started with port 0 read the port from this line.
	fmt.Fprintf(os.Stderr, "h2server: listening on %s codec=%s\n", ln.Addr(), codec)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	stopped := make(chan struct{})
	go func() {
		<-sigs
		srv.Shutdown(time.Second)
		close(stopped)
	}()
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "h2server:", err)
		return
	}
	<-stopped
	srv.printRusage(os.Stderr)
}
