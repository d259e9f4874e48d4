package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A request is everything the client sends for request i of round r and
// everything the server must receive: both sides build it from (r, i), so
// a field that arrives changed, from another request, or not at all is
// caught by name.
type request struct {
	round, index int
	path         string
	header       http.Header // as sent; Cookie has one value per crumb
	trailer      http.Header // request trailers, as sent
	body         []byte
}

// id names the request in its path and in the X-H3check-Id field.
func (q *request) id() string { return fmt.Sprintf("%d-%d", q.round, q.index) }

// Alphabets for values. poorHuffman holds the characters with the longest
// Huffman codes (13 to 30 bits, obs-text included), so a value made of them
// is longer Huffman-coded than raw and an encoder must send it raw.
const (
	plain       = "abcdefghijklmnopqrstuvwxyz0123456789-_.;=/"
	mixedCase   = "aBcDeFgHiJkLmNoPqRsTuVwXyZAbCdEfGhIjKlMnOpQrStUvWxYz"
	poorHuffman = "\\^`{}<>|~\x80\x81\x9f\xa0\xc3\xa9\xe2\xfe\xff"
	digits      = "0123456789"
)

// newRequest returns request i of round r: about 60 header fields (pseudo
// fields, content-length and trailers aside), two trailer fields and a body.
func newRequest(r, i int) *request {
	q := &request{round: r, index: i}
	q.path = fmt.Sprintf("/check/%d/%d?q=%s&case=MiXeD", r, i, q.id())
	rng := rand.New(rand.NewPCG(uint64(r), uint64(i)))
	str := func(alphabet string, n int) string {
		b := make([]byte, n)
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	h := make(http.Header)
	h.Set("User-Agent", "h3check/"+q.id()) // set, so quic-go adds none
	h.Set("X-H3check-Id", q.id())
	// Static-table names, with and without a static-table value.
	h.Set("Accept", "*/*")
	h.Set("Accept-Language", "en-US,en;q=0.9,fr;q=0."+strconv.Itoa(i)+",x-"+q.id())
	h.Set("Cache-Control", "no-cache")
	h.Set("Authorization", "Bearer "+str(plain, 40))
	h.Set("If-None-Match", `"`+str(mixedCase, 24)+`"`)
	h.Set("Origin", "https://"+q.id()+".example")
	for k := range 45 {
		name := fmt.Sprintf("X-Req-%d-%d", i, k)
		var v string
		switch k % 5 {
		case 0:
			v = fmt.Sprintf("value-%s-%d-%s", q.id(), k, str(plain, 8+k))
		case 1:
			v = fmt.Sprintf("MiXeD-%s-%d-%s", q.id(), k, str(mixedCase, 5+k))
		case 2:
			v = str(poorHuffman, 4+k) + "-" + q.id()
		case 3:
			v = str(digits, 1+k%19)
		case 4:
			if k == 4 {
				v = "" // an empty value is a field too
			} else {
				v = q.id() + " " + str(plain, k) + " " + str(mixedCase, 3)
			}
		}
		h.Set(name, v)
	}
	// One name, several values: their order must survive.
	for k := range 3 {
		h.Add(fmt.Sprintf("X-Multi-%d", i), fmt.Sprintf("%s-%d-%s", q.id(), k, str(mixedCase, 6)))
	}
	// Cookies as separate fields, as browsers send them over HTTP/2 and 3.
	for k := range 6 {
		h.Add("Cookie", fmt.Sprintf("c%d_%d=%s", i, k, str(mixedCase, 10+k)))
	}
	h.Set(fmt.Sprintf("X-Long-%d", i), q.id()+":"+str(plain+mixedCase, 4000))

	q.header = h
	q.trailer = http.Header{
		"X-Req-Trailer-A": {q.id() + "/" + str(mixedCase, 20)},
		"X-Req-Trailer-B": {str(poorHuffman, 30)},
	}
	q.body = []byte(fmt.Sprintf("body of %s: %s\n", q.id(), str(plain, 64+i)))
	return q
}

// received is the header the server must see: quic-go joins the cookie
// fields into one (RFC 6265 §5.4) and reports the Content-Length it sent.
func (q *request) received() http.Header {
	h := q.header.Clone()
	h.Set("Cookie", strings.Join(q.header.Values("Cookie"), "; "))
	h.Set("Content-Length", strconv.Itoa(len(q.body)))
	return h
}

// Names of the response's trailers, declared in its header.
const (
	trailerSum  = "X-Resp-Body-Sha256"
	trailerEcho = "X-Resp-Trailer-Echo"
	trailerID   = "X-Resp-Id"
)

// response is what the server answers to a request it received with
// header h, trailer t, body b and path: about 90 header fields, three
// trailer fields and a body, every one derived from what was received.
// The client calls it on what it sent, so a response to a request that
// arrived changed, or a response that arrives changed, differs.
func response(path string, h, t http.Header, b []byte) (header, trailer http.Header, body []byte) {
	header = make(http.Header)
	header.Set("Content-Type", "text/plain; charset=utf-8")
	header.Set("Access-Control-Allow-Origin", "*")
	header.Set("X-Content-Type-Options", "nosniff")
	header.Set("Vary", "accept-encoding")
	header.Set("Cache-Control", "private, max-age="+strconv.Itoa(len(path)))
	header.Set("X-Path", path)
	// Each request field echoed: the bytes reversed, then the length.
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range h {
			if !yield(n) {
				return
			}
		}
	})
	for _, n := range names {
		if n == "Cookie" {
			continue
		}
		for _, v := range h[n] {
			header.Add("X-Echo-"+n, reverse(v)+"|"+strconv.Itoa(len(v)))
		}
	}
	for _, c := range strings.Split(h.Get("Cookie"), "; ") {
		header.Add("Set-Cookie", c+"; Path=/; Secure; HttpOnly")
	}
	// A digest of the whole request, in pieces, to reach about 90 fields.
	sum := sha256.New()
	fmt.Fprintln(sum, path)
	for _, n := range names {
		fmt.Fprintf(sum, "%s: %q\n", n, h[n])
	}
	d := hex.EncodeToString(sum.Sum(nil))
	for k := range 24 {
		header.Set(fmt.Sprintf("X-Digest-%02d", k), strings.ToUpper(d[k:k+8])+d[k+8:])
	}
	// Set, so that quic-go does not add today's date.
	when := time.Unix(1_700_000_000+int64(binary.BigEndian.Uint32(sum.Sum(nil))), 0)
	header.Set("Date", when.UTC().Format(http.TimeFormat))
	header.Set("Trailer", trailerSum+", "+trailerEcho+", "+trailerID)

	bs := sha256.Sum256(b)
	trailer = http.Header{
		trailerSum:  {hex.EncodeToString(bs[:])},
		trailerEcho: {reverse(t.Get("X-Req-Trailer-A")) + ";" + reverse(t.Get("X-Req-Trailer-B"))},
		trailerID:   {h.Get("X-H3check-Id")},
	}
	body = append([]byte("h3check "+h.Get("X-H3check-Id")+"\n"), bytes.ToUpper(b)...)
	header.Set("Content-Length", strconv.Itoa(len(body)))
	return header, trailer, body
}

// delivered is the response header the client must see: quic-go takes the
// Trailer field out of the header to declare the trailers.
func delivered(h http.Header) http.Header {
	h = h.Clone()
	h.Del("Trailer")
	return h
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// countFields is the number of fields in h, one per value.
func countFields(h http.Header) int {
	n := 0
	for _, vv := range h {
		n += len(vv)
	}
	return n
}

// diff compares two headers field by field and returns, when they differ,
// a count of the differences and then one line per difference (at most
// max): every name, every value, and the order of a name's values.
func diff(what string, got, want http.Header, max int) []string {
	var out []string
	var missing, unexpected, changed int
	names := make([]string, 0, len(got)+len(want))
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		g, okg := got[n]
		w, okw := want[n]
		var line string
		switch {
		case !okg:
			missing++
			line = fmt.Sprintf("%s: field %s missing (want %s)", what, n, short(w))
		case !okw:
			unexpected++
			line = fmt.Sprintf("%s: unexpected field %s: %s", what, n, short(g))
		case !slices.Equal(g, w):
			changed++
			line = fmt.Sprintf("%s: field %s is %s, want %s", what, n, short(g), short(w))
		default:
			continue
		}
		if len(out) < max {
			out = append(out, line)
		} else if len(out) == max {
			out = append(out, "...")
		}
	}
	if len(out) == 0 {
		return nil
	}
	sum := fmt.Sprintf("%s: %d of %d names missing, %d unexpected, %d with other values", what, missing, len(want), unexpected, changed)
	return append([]string{sum}, out...)
}

// short quotes values, cutting long ones so that a report stays readable.
func short(vv []string) string {
	q := make([]string, len(vv))
	for i, v := range vv {
		if len(v) > 80 {
			v = v[:80] + fmt.Sprintf("...(%d bytes)", len(v))
		}
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, " ") + "]"
}
