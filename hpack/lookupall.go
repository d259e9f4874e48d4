//go:build !hqpack_lookupall

package hpack

// lookupAll makes the encoder look every field up, in both tables, even
// where recent holds the field's entry or named says no entry has its name.
// It is a constant false in the package as built, so the compiler drops the
// branches; the tests built with -tags hqpack_lookupall set it (lookupall_tag.go)
// to show that skipping those lookups changes no byte.
const lookupAll = false
