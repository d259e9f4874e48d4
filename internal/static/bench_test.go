package static_test

import (
	"testing"

	"github.com/hqpack/hqpack/internal/static"
)

// benchNames is a response's and a request's names: mostly hits, some
// misses (same length as a table name, or not).
var benchNames = []string{
	":status", "content-type", "content-length", "date", "server", "cache-control",
	"x-request-id", "strict-transport-security", "vary", "etag", ":method", ":path",
	":authority", ":scheme", "user-agent", "accept-encoding", "x-forwarded-for",
	"cookie", "x-custom-header", "access-control-allow-origin",
}

var benchPairs = [][2]string{
	{":status", "200"}, {"content-type", "text/html; charset=utf-8"}, {"content-length", "1234"},
	{"date", "Mon, 21 Oct 2013 20:13:21 GMT"}, {"server", "hqpack"}, {"cache-control", "no-cache"},
	{"x-request-id", "abc"}, {":method", "GET"}, {":path", "/"}, {"accept-encoding", "gzip, deflate, br"},
	{"vary", "accept-encoding"}, {":scheme", "https"},
}

var sinkID static.FieldID
var sinkInt int

func BenchmarkLookup(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		sinkID = static.Lookup(benchNames[i%len(benchNames)])
	}
}

func BenchmarkLookupBytes(b *testing.B) {
	names := make([][]byte, len(benchNames))
	for i, n := range benchNames {
		names[i] = []byte(n)
	}
	for i := 0; b.Loop(); i++ {
		sinkID = static.LookupBytes(names[i%len(names)])
	}
}

// BenchmarkLookupMap is the reference: one map[string] access per name.
func BenchmarkLookupMap(b *testing.B) {
	m := map[string]static.FieldID{}
	for i := uint64(0); i < static.QPACKLen; i++ {
		e, _ := static.QPACK(i)
		m[e.Name] = e.ID
	}
	for i := uint64(1); i <= static.HPACKLen; i++ {
		e, _ := static.HPACK(i)
		m[e.Name] = e.ID
	}
	for i := 0; b.Loop(); i++ {
		sinkID = m[benchNames[i%len(benchNames)]]
	}
}

// BenchmarkLookupBytesMap is the reference for []byte names: the compiler
// does not allocate for m[string(b)].
func BenchmarkLookupBytesMap(b *testing.B) {
	m := map[string]static.FieldID{}
	for i := uint64(1); i <= static.HPACKLen; i++ {
		e, _ := static.HPACK(i)
		m[e.Name] = e.ID
	}
	names := make([][]byte, len(benchNames))
	for i, n := range benchNames {
		names[i] = []byte(n)
	}
	for i := 0; b.Loop(); i++ {
		sinkID = m[string(names[i%len(names)])]
	}
}

func BenchmarkLookupHPACK(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		p := benchPairs[i%len(benchPairs)]
		e, n := static.LookupHPACK(p[0], p[1])
		sinkInt += e + n
	}
}

func BenchmarkLookupQPACK(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		p := benchPairs[i%len(benchPairs)]
		e, n := static.LookupQPACK(p[0], p[1])
		sinkInt += e + n
	}
}

// BenchmarkLookupQPACKMap is the reference: the two maps x/net's HPACK
// encoder keeps (by name, by name and value), for the QPACK table.
func BenchmarkLookupQPACKMap(b *testing.B) {
	byName := map[string]int{}
	byPair := map[[2]string]int{}
	for i := static.QPACKLen - 1; i >= 0; i-- {
		e, _ := static.QPACK(uint64(i))
		byName[e.Name] = i
		byPair[[2]string{e.Name, e.Value}] = i
	}
	for i := 0; b.Loop(); i++ {
		p := benchPairs[i%len(benchPairs)]
		n, ok := byName[p[0]]
		if !ok {
			n = -1
		}
		e, ok := byPair[p]
		if !ok {
			e = -1
		}
		sinkInt += e + n
	}
}
