// Package conformance loads the public HPACK and QPACK test corpora
// (hpack-test-case stories, QIF header lists, QIFS encoded files, the RFC
// examples as data) and runs hqpack's codecs over them, suite by suite,
// into a Report: cases, passed, failed with the first difference, bytes,
// and compression tables beside every implementation in the corpus.
//
// Run runs every suite; `hqpack conformance` prints its report. The
// package is internal: the command line is its interface.
//
//   - rfc-examples: RFC 7541 Appendix C and RFC 9204 Appendix B, decoded
//     and encoded byte for byte.
//   - hpack-decode: every story of every encoder folder of hpack-test-case
//     decodes to its headers.
//   - hpack-encode: every raw-data story through our encoder at table
//     sizes 4096, 0, 256 and 16384 (and each folder's own settings),
//     decoded by our decoder and by golang.org/x/net/http2/hpack.
//   - qpack-decode: every QIFS file of qifs encoded/qpack-05 decodes to its
//     QIF at the settings in its name.
//   - qpack-encode: every QIF at every setting the corpus uses, the encoder
//     stream delivered late so that sections block, decoded by our decoder
//     (and by github.com/quic-go/qpack at capacity 0).
//   - errors: the qifs error files and hand-made malformed inputs fail with
//     the right sentinel error and protocol error code.
//   - hpack-vectors, qpack-vectors: the module's own vectors (testdata/
//     vectors, embedded) decode to their header lists and re-encode to the
//     same bytes, so that any change in encoder output is seen;
//     `go generate ./internal/conformance` regenerates them, deliberately.
//
// Without a corpus, Run checks what the module embeds: the RFC examples,
// the vectors and the hand-made inputs.
package conformance
