//go:build hqpack_lookupall

package hpack

var lookupAll = false // settable by the tests under this tag: see lookupall.go
