module github.com/hqpack/hqpack

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
	github.com/quic-go/qpack v0.6.0 // indirect
	golang.org/x/net v0.58.0 // indirect
)
