package server

import (
	"fmt"
	"io"
	"strconv"
	"syscall"
	"time"
)

// cpuTimes returns the process's user and system CPU time so far.
func cpuTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// appendRusage appends the /debug/rusage body: "user_us sys_us requests".
func (s *Server) appendRusage(b []byte) []byte {
	user, sys := cpuTimes()
	b = strconv.AppendInt(b, user.Microseconds(), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, sys.Microseconds(), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, s.requests.Load(), 10)
	return append(b, '\n')
}

// PrintRusage writes the process's CPU time and requests served, as the
// server prints it when it stops.
func (s *Server) PrintRusage(w io.Writer) {
	user, sys := cpuTimes()
	n := s.requests.Load()
	per := time.Duration(0)
	if n > 0 {
		per = (user + sys) / time.Duration(n)
	}
	fmt.Fprintf(w, "h3server: impl=%s requests=%d user=%v sys=%v cpu/request=%v\n", s.impl, n, user, sys, per)
}
