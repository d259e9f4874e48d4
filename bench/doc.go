// Package bench holds side-by-side benchmarks of hqpack and its peers
// (golang.org/x/net/http2/hpack, github.com/quic-go/qpack) on the same
// inputs, in one run. Each benchmark has one sub-benchmark per
// implementation, named impl=NAME, so benchstat can put them in columns:
//
//	go test ./bench -run '^$' -bench . -count 10 -benchmem > new.txt
//	benchstat -col /impl new.txt
package bench
