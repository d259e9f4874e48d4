//go:build !hqpack_lookupall

package hpack

// lookupAll makes the encoder look every field up, where recent or named
// would skip lookups: false, constant but for tests (-tags hqpack_lookupall).
const lookupAll = false
