module github.com/hqpack/hqpack/compat/quic-go-qpack/peer

go 1.25.0

require (
	github.com/hqpack/hqpack v0.0.0-00010101000000-000000000000
	github.com/hqpack/hqpack/compat/quic-go-qpack v0.0.0-00010101000000-000000000000
	github.com/quic-go/qpack v0.6.0
)

require golang.org/x/net v0.58.0 // indirect

replace (
	github.com/hqpack/hqpack => ../../..
	github.com/hqpack/hqpack/compat/quic-go-qpack => ..
)
