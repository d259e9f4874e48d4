package hpack

import "github.com/hqpack/hqpack/internal/static"

// decStaticEntry is a static-table entry as the decoder hands it out.
type decStaticEntry struct {
	name, value []byte
	id          static.FieldID
}

// decStatic holds the HPACK static table as byte slices, built once: a
// Sink takes []byte, and converting the static strings per field would
// allocate. The slices share one array and have no spare capacity, so a
// Sink that appends to one cannot write into another (or race with another
// decoder doing the same).
var decStatic = func() (t [static.HPACKLen]decStaticEntry) {
	var all []byte
	for i := range t {
		e, _ := static.HPACK(uint64(i + 1))
		all = append(append(all, e.Name...), e.Value...)
	}
	off := 0
	for i := range t {
		e, _ := static.HPACK(uint64(i + 1))
		n, v := off+len(e.Name), off+len(e.Name)+len(e.Value)
		t[i] = decStaticEntry{name: all[off:n:n], value: all[n:v:v], id: e.ID}
		off = v
	}
	return t
}()
