//go:build hqpack_lookupall

package hpack

// lookupAll: see lookupall.go; settable under this tag.
var lookupAll = false
