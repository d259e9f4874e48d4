module github.com/hqpack/hqpack/compat/h3check

go 1.26.0

require github.com/quic-go/quic-go v0.65.0

require (
	github.com/hqpack/hqpack v0.0.0-00010101000000-000000000000 // indirect
	github.com/quic-go/qpack v0.6.0 // indirect
	golang.org/x/crypto v0.55.0 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)

// quic-go's QPACK is the drop-in; hqpack is not published yet, so both
// come from this checkout (see ../README.md).
replace (
	github.com/hqpack/hqpack => ../..
	github.com/quic-go/qpack => ../quic-go-qpack
)
