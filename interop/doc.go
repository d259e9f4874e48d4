// Package interop checks hqpack against the HPACK and QPACK coders of
// nghttp2 and nghttp3, the C libraries curl uses for HTTP/2 and HTTP/3:
// hqpack's encoders against their decoders, their encoders against
// hqpack's decoders, with the dynamic tables, table-size changes,
// blocked streams and acknowledgments (the decoder stream of each side is
// read by the other). It also sets their compression beside hqpack's on
// the public corpora, and fuzzes hqpack's decoders against theirs on the
// same bytes (FuzzNghttp2Decode, FuzzNghttp3Decode): nghttp3's is the only
// dynamic-table QPACK decoder hqpack's can be compared with, as no Go one
// has a dynamic table. It runs the trace benchmarks of package bench with
// nghttp2's and nghttp3's rows added (trace.go runs each trace in one cgo
// call), so that one run sets hqpack, the Go peer and the C library side by
// side:
//
//	go test -tags interop ./interop -run '^$' -bench Trace
//
// The package wraps the libraries through cgo, so it builds only with the
// build tag interop and the libraries' headers installed (Debian:
// libnghttp2-dev and libnghttp3-dev). .ci/run installs them and runs
//
//	go test -tags interop ./interop
//
// Without the tag the package is empty and its test says how to run it.
// The tests read the corpora from HQPACK_CORPUS (default ../shared/corpus)
// and skip when it is absent. Nothing in the module imports this package.
package interop
