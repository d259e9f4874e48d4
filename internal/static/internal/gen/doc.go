// Package gen writes static/tables.go: the HPACK and QPACK static tables,
// the FieldID constants and the lookup decision trees.
//
// The table data is transcribed from RFC 7541 Appendix A and RFC 9204
// Appendix A in data.go. Run it through `go generate ./internal/static`; the static
// package's tests fail when tables.go differs from what Generate returns.
package gen
