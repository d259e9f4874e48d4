package bench

import (
	"testing"
	"time"
)

// evictSweep is larger than this machine's L2 cache (1 MiB per core on
// AMD Zen 4, 2 MiB on recent Intel cores): writing one byte of each of its
// cache lines pushes out of L1 and L2 whatever the last iteration left
// there, as a server's other work does between the first requests of two
// connections. L3 keeps what it had, as on a loaded server it often does.
var evictSweep = make([]byte, 2<<20)

// evictCaches writes one byte per 64-byte line of evictSweep.
func evictCaches() {
	for i := 0; i < len(evictSweep); i += 64 {
		evictSweep[i]++
	}
}

// benchEvicted runs decode once, then once per iteration after
// evictCaches, and reports the time of the decoding alone as decode-ns/op:
// the Evicted benchmarks' ns/op is mostly the eviction. The clock reads
// and the call of decode add some 40 ns to each iteration, the same for
// every implementation.
func benchEvicted(b *testing.B, decode func()) {
	decode() // one-time setup (buffers, tables built on first use) untimed
	var spent time.Duration
	b.ReportAllocs()
	for b.Loop() {
		evictCaches()
		start := time.Now()
		decode()
		spent += time.Since(start)
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N), "decode-ns/op")
}
