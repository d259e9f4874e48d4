module github.com/hqpack/hqpack

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/leanovate/gopter v0.2.11
	github.com/quic-go/qpack v0.6.0
	golang.org/x/net v0.58.0
)

require golang.org/x/text v0.41.0 // indirect
