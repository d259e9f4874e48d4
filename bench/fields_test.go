package bench

import (
	"strconv"

	"github.com/hqpack/hqpack/fastpath"
)

// The inputs every HPACK and QPACK benchmark shares: a server's response and
// a browser's request. Both are package-level constants, so each iteration
// passes the same strings, as a server does with its constant fields and
// its once-a-second cached Date.

// field is one name and value of an input section.
type field struct{ name, value string }

// responseContentLength is the response's Content-Length: a raw number for
// hqpack, strconv.Itoa's string for the peers (what a server does today).
const responseContentLength = 1024

// response is the 7-field response; content-length's value is set apart
// (responseContentLength) and is the only field built per iteration.
var response = []field{
	{":status", "200"},
	{"content-type", "text/html; charset=utf-8"},
	{"content-length", ""}, // responseContentLength
	{"date", "Tue, 02 Dec 2025 09:38:12 GMT"},
	{"server", "nginx/1.27.3"},
	{"cache-control", "private, max-age=0, must-revalidate"},
	{"vary", "Accept-Encoding"},
}

// request is the 13-field request of Chrome 131 navigating within a site,
// in Chrome's order.
var request = []field{
	{":method", "GET"},
	{":authority", "www.example.com"},
	{":scheme", "https"},
	{":path", "/products/widgets?color=blue&page=2"},
	{"upgrade-insecure-requests", "1"},
	{"user-agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
	{"accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"},
	{"sec-fetch-site", "same-origin"},
	{"sec-fetch-mode", "navigate"},
	{"referer", "https://www.example.com/products?color=blue"},
	{"accept-encoding", "gzip, deflate, br, zstd"},
	{"accept-language", "en-US,en;q=0.9,de;q=0.8"},
	{"cookie", "session_id=3f9a2c7e8b1d4f60a5e2c9d8b7a6f5e4; theme=dark; _ga=GA1.1.1234567890.1733130000"},
}

// buildResponse fills l with the response, Content-Length raw: what a server
// using hqpack does for every response, a call per field (the strings are
// response's, so the peers get the same ones).
func buildResponse(l *fastpath.FieldList) {
	buildResponseWith(l, response[3].value, responseContentLength)
}

// buildResponseWith fills l with the response with another date and
// Content-Length.
func buildResponseWith(l *fastpath.FieldList, date string, cl int64) {
	r := response[:7]
	l.Reset()
	l.Add(r[0].name, r[0].value, 0)
	l.Add(r[1].name, r[1].value, 0)
	l.AddContentLength(cl) // r[2]
	l.Add(r[3].name, date, 0)
	l.Add(r[4].name, r[4].value, 0)
	l.Add(r[5].name, r[5].value, 0)
	l.Add(r[6].name, r[6].value, 0)
}

// buildRequest fills l with the request.
func buildRequest(l *fastpath.FieldList) {
	l.Reset()
	for _, f := range request {
		l.Add(f.name, f.value, 0)
	}
}

// responseStrings returns the response with content-length as a string, as
// a peer's encoder is given it.
func responseStrings() []field {
	fs := make([]field, len(response))
	for i, f := range response {
		if f.name == "content-length" {
			f.value = strconv.Itoa(responseContentLength)
		}
		fs[i] = f
	}
	return fs
}

// fieldStats counts what a decoder delivered: fields and name+value bytes.
// Both implementations' sinks count the same way, so each benchmark can
// check that they decoded the same section.
type fieldStats struct{ fields, bytes int }

// want returns the stats of fs, as every decode must deliver them.
func want(fs []field) fieldStats {
	var s fieldStats
	for _, f := range fs {
		s.fields++
		s.bytes += len(f.name) + len(f.value)
	}
	return s
}

// countSink is the hqpack decoders' zero-copy sink: it looks at each name
// and value (their lengths) and keeps nothing, the counterpart of an x/net
// emit func that receives strings the decoder already made.
type countSink struct{ fieldStats }

func (s *countSink) Field(name, value []byte, _ fastpath.Flags) error {
	s.fields++
	s.bytes += len(name) + len(value)
	return nil
}
