package qpack

import "github.com/hqpack/hqpack/static"

// staticFields is the QPACK static table (RFC 9204 Appendix A) as
// HeaderFields. Their strings are hqpack's own, so a decoded indexed field
// costs no allocation.
var staticFields = func() (t [static.QPACKLen]HeaderField) {
	for i := range t {
		e, _ := static.QPACK(uint64(i))
		t[i] = HeaderField{Name: e.Name, Value: e.Value}
	}
	return t
}()

// getStaticTable returns the static table. quic-go/qpack's own tests reach
// their package's function of this name through go:linkname, and so reach
// this one when they run against this module.
func getStaticTable() []HeaderField { return staticFields[:] }
