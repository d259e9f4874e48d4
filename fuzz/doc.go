// Package fuzz holds hqpack's native Go fuzz targets (go test -fuzz) and
// nothing else: every file but this one is a _test.go file, and the package
// exports no API.
//
// The targets check what a peer's bytes or a caller's fields can do to the
// codecs: decoders never panic, stay within their limits and agree with
// golang.org/x/net/http2/hpack and github.com/quic-go/qpack wherever RFC 7541
// and RFC 9204 leave them no choice; encoders round-trip every field list
// through both our decoders and the peers'; and the raw Content-Length fast
// path writes exactly what the string path writes, call by call.
//
// README.md lists the targets, how to run them for hours, how to keep a
// crasher, the differences the RFCs allow between us and the peers, and the
// bugs planted to show that each target catches what it guards.
package fuzz
