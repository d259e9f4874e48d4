// Package site is what the example servers (h2server, h3server) serve the
// same way: the Date value, /headers/N's fields, /bytes/N's content and
// the /debug/rusage body, so that the two servers answer alike and their
// CPU figures compare.
package site

import (
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// LargeValueLen is the value length of /headers/N's fields: Huffman-coded,
// about 20 of them fill a 16 KiB HTTP/2 frame.
const LargeValueLen = 1024

// LargeName and LargeValue are /headers/N's field i; tests rebuild them.
func LargeName(i int) string { return "x-large-" + strconv.Itoa(i) }

// LargeValue is the value of /headers/N's field i.
func LargeValue(i int) string {
	c := byte('a' + i%26)
	return strconv.Itoa(i) + "-" + strings.Repeat(string(c), LargeValueLen)
}

// The Date value, formatted once a second.
type dateCache struct {
	sec int64
	s   string
}

var lastDate atomic.Pointer[dateCache]

// HTTPDate returns the current time as a Date field value (RFC 9110
// §5.6.7), formatted once a second and shared.
func HTTPDate() string {
	now := time.Now()
	if d := lastDate.Load(); d != nil && d.sec == now.Unix() {
		return d.s
	}
	d := &dateCache{now.Unix(), now.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")}
	lastDate.Store(d)
	return d.s
}

// Pattern is the content of /bytes/N: a repeating printable line, shared
// read-only by every response.
var Pattern = func() []byte {
	const line = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n"
	b := make([]byte, 64<<10) // a whole number of lines
	for i := range b {
		b[i] = line[i%len(line)]
	}
	return b
}()

// CPUTimes returns the process's user and system CPU time so far.
func CPUTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// AppendRusage appends the /debug/rusage body: "user_us sys_us requests".
func AppendRusage(b []byte, requests int64) []byte {
	user, sys := CPUTimes()
	b = strconv.AppendInt(b, user.Microseconds(), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, sys.Microseconds(), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, requests, 10)
	return append(b, '\n')
}

// CPUPerRequest returns the process's CPU time so far and its share per
// request (0 before the first).
func CPUPerRequest(requests int64) (user, sys, per time.Duration) {
	user, sys = CPUTimes()
	if requests > 0 {
		per = (user + sys) / time.Duration(requests)
	}
	return user, sys, per
}
