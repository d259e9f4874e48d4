// Package static holds the HPACK (RFC 7541 Appendix A, 61 entries, 1-based)
// and QPACK (RFC 9204 Appendix A, 99 entries, 0-based) static tables and
// lookups into them that neither hash nor allocate.
//
// Every distinct field name in either table has a FieldID, shared by both
// tables: HPACK's content-length (index 28) and QPACK's (index 4) are both
// ContentLength. Decoders report it so servers can switch on a small
// integer; encoders turn it back into a static index with HPACKIndex or
// QPACKIndex.
//
// Lookups switch on the name's length, then on one or two bytes that tell
// the names of that length apart, then compare one string. The code is
// generated from the tables in internal/gen:
//
//	go generate ./internal/static
package static

//go:generate go run ./internal/gen/cmd -o tables.go
