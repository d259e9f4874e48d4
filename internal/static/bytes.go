package static

// BytesEntry is a static-table entry as byte slices, as decoders hand it to
// a Sink: a Sink takes []byte, and converting the strings per field would
// allocate.
type BytesEntry struct {
	Name, Value []byte
	ID          FieldID
}

// HPACKBytes and QPACKBytes are the static tables as BytesEntry values,
// indexed from 0 (HPACK index i is HPACKBytes[i-1]). Each table's slices
// share one array and have no spare capacity, so a Sink that appends to
// one cannot write into another, nor race with another decoder doing the
// same.
var (
	HPACKBytes = asBytes[[HPACKLen]BytesEntry](hpackTable[:])
	QPACKBytes = asBytes[[QPACKLen]BytesEntry](qpackTable[:])
)

func asBytes[T [HPACKLen]BytesEntry | [QPACKLen]BytesEntry](es []Entry) (t T) {
	var all []byte
	for _, e := range es {
		all = append(append(all, e.Name...), e.Value...)
	}
	off := 0
	for i, e := range es {
		n, v := off+len(e.Name), off+len(e.Name)+len(e.Value)
		t[i] = BytesEntry{all[off:n:n], all[n:v:v], e.ID}
		off = v
	}
	return t
}
