package server

import (
	"fmt"
	"io"

	"github.com/hqpack/hqpack/examples/internal/site"
)

// PrintRusage writes the process's CPU time and requests served, as the
// server prints it when it stops.
func (s *Server) PrintRusage(w io.Writer) {
	n := s.requests.Load()
	user, sys, per := site.CPUPerRequest(n)
	fmt.Fprintf(w, "h3server: impl=%s requests=%d user=%v sys=%v cpu/request=%v\n", s.impl, n, user, sys, per)
}
