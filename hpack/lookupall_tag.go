//go:build hqpack_lookupall

package hpack

// lookupAll is settable under this tag, for the tests in
// encoder_lookupall_test.go (see lookupall.go).
var lookupAll = false
