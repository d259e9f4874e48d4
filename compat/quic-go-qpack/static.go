package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	hq "github.com/hqpack/hqpack/qpack"
)

// staticEntry is one QPACK static entry: its field and its index.
type staticEntry struct {
	HeaderField
	index uint64
}

// staticFields is the QPACK static table (RFC 9204 Appendix A) in index
// order, and staticByID its entries grouped by FieldID, lowest index first.
// hqpack's static tables are internal to it (and these files also build as
// quic-go/qpack's, where they are out of reach), so they are read back once
// by decoding an indexed field line for each static index in turn, up to
// the first the decoder rejects. Their strings are then this package's
// own, so a decoded indexed field costs no allocation.
var staticFields, staticByID = func() (t []HeaderField, byID [fastpath.MaxFieldID + 1][]staticEntry) {
	var d hq.Decoder
	d.Init(hq.DecoderConfig{})
	var s fastpath.SinkList
	for i := uint64(0); ; i++ {
		s.Reset()
		// Required Insert Count 0, Base 0, then 11xxxxxx: indexed, static.
		section := appendInt([]byte{0, 0}, 0xc0, 6, i)
		if _, err := d.DecodeSection(0, section, &s); err != nil || s.Len() != 1 {
			return t, byID // past the static table
		}
		name, value, f := s.At(0)
		hf := HeaderField{Name: string(name), Value: string(value)}
		t = append(t, hf)
		byID[f.ID()] = append(byID[f.ID()], staticEntry{hf, i})
	}
}()

// lookupStatic returns the static index of the entry matching f's name and
// value exactly and the lowest static index with f's name; -1 means none.
func lookupStatic(f HeaderField) (exact, name int) {
	id := fastpath.LookupField(f.Name)
	if id == fastpath.NoField {
		return -1, -1
	}
	es := staticByID[id]
	if len(es) == 0 { // a name only in HPACK's table
		return -1, -1
	}
	for _, e := range es {
		if e.Value == f.Value {
			return int(e.index), int(es[0].index)
		}
	}
	return -1, int(es[0].index)
}

// getStaticTable returns the static table. quic-go/qpack's own tests reach
// their package's function of this name through go:linkname, and so reach
// this one when they run against this module.
func getStaticTable() []HeaderField { return staticFields }
