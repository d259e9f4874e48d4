module github.com/hqpack/hqpack/examples/h3server

go 1.26.0

require (
	github.com/hqpack/hqpack v0.0.0-00010101000000-000000000000
	github.com/quic-go/quic-go v0.65.0
)

require (
	github.com/quic-go/qpack v0.6.0 // indirect
	golang.org/x/crypto v0.55.0 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)

// hqpack is not published yet: the example builds against this checkout.
replace github.com/hqpack/hqpack => ../..
