// Command h3check sends HTTP/3 traffic through quic-go's client and server
// and checks every field of it, both ways, to prove the QPACK package that
// quic-go is built with.
//
// It starts an http3.Server on a loopback UDP port with a certificate made
// in memory, and sends rounds of requests at once from one http3.Transport,
// so that one connection carries them all and each side's QPACK decoder is
// shared by concurrent streams, as quic-go shares it. Every request has
// about 60 header fields and two trailer fields of its own; the server
// checks each against what the client sent and answers with about 90
// header fields and three trailer fields derived from what it received,
// which the client checks against what it derives from what it sent. Any
// difference, HTTP/3 error or panic fails the run.
//
// Usage:
//
//	go run . [-rounds N] [-parallel N] [-timeout D] [-v]
//
// With a go.mod replace of github.com/quic-go/qpack (see README.md) it
// checks that replacement.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	cfg := config{}
	flag.IntVar(&cfg.Rounds, "rounds", 20, "rounds of requests, one after the other")
	flag.IntVar(&cfg.Parallel, "parallel", 8, "requests sent at once in each round")
	flag.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "time limit for each round")
	verbose := flag.Bool("v", false, "print a line per round")
	flag.Parse()
	if *verbose {
		cfg.Log = os.Stderr
	}
	st, err := run(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "h3check: FAIL: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(st.summary())
}

// summary is the one line a passing run prints.
func (st stats) summary() string {
	return fmt.Sprintf("h3check: ok: %d requests on %d connection (up to %d at once in the handler), %d request fields and %d response fields checked",
		st.Requests, st.Connections, st.MaxInFlight, st.RequestFields, st.ResponseFields)
}
