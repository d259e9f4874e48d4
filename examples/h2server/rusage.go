package main

import (
	"fmt"
	"io"

	"github.com/hqpack/hqpack/examples/internal/site"
)

// printRusage writes the process's CPU time and requests served, as the
// server prints it when it stops.
func (s *server) printRusage(w io.Writer) {
	n := s.requests.Load()
	user, sys, per := site.CPUPerRequest(n)
	fmt.Fprintf(w, "h2server: codec=%s requests=%d user=%v sys=%v cpu/request=%v\n", s.codec, n, user, sys, per)
}
