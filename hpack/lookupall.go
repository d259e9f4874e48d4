//go:build !hqpack_lookupall

package hpack

// lookupAll makes the encoder look every field up, even where recent or
// named would skip the lookups: a constant false unless the tests are built
// with -tags hqpack_lookupall, to show that skipping changes no byte.
const lookupAll = false
