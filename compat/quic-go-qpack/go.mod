module github.com/hqpack/hqpack/compat/quic-go-qpack

go 1.25.0

require github.com/hqpack/hqpack v0.0.0-00010101000000-000000000000

// hqpack is not yet published: this module builds against the hqpack
// around it. A user's go.mod needs the same line (see ../README.md).
replace github.com/hqpack/hqpack => ../..
