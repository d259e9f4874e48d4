// Package peer holds the tests and benchmarks that put the drop-in
// (github.com/hqpack/hqpack/compat/quic-go-qpack) beside the module it
// replaces, github.com/quic-go/qpack v0.6.0: the same bytes out of both
// encoders, the same fields and errors out of both decoders, and their
// speed. It is a module of its own so that the drop-in itself requires
// nothing but hqpack.
package peer
