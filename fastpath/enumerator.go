package fastpath

import "github.com/hqpack/hqpack/internal/static"

// Flags qualify one field. The low bits are encoder and decoder flags; the
// high byte carries the static FieldID of the name when it is known.
//
// Decoders set NeverIndex for fields that arrived never-indexed, and the
// FieldID when the name came from the static table. For encoders the
// FieldID is a hint that saves a name lookup; a field without one is
// looked up by name.
type Flags uint32

const (
	// NeverIndex marks a sensitive field: sent and kept as never-indexed.
	NeverIndex Flags = 1 << iota
	// NoIndex keeps the field out of the dynamic table (it may still be
	// sent as a reference to an entry that is there).
	NoIndex
	// Index asks the encoder to insert the field into the dynamic table even
	// where its default policy would not (it still must fit).
	Index
)

const idShift = 24

// ID returns the static FieldID carried in f (NoField when absent).
// The FieldID is only the name: for an encoder the value still decides
// whether a static entry matches exactly.
func (f Flags) ID() FieldID { return static.FieldID(f >> idShift) }

// WithID returns f carrying id.
func (f Flags) WithID(id FieldID) Flags { return f&(1<<idShift-1) | Flags(id)<<idShift }

// Enumerator iterates over one field section for an encoder. Field and
// ContentLength describe the current field and may be called any number of
// times: an encoder that stops because its buffer is full resumes with the
// same field.
type Enumerator interface {
	// Next advances to the next field; false at the end.
	Next() bool
	// Field returns the current field. For a raw Content-Length the name is
	// "content-length" and the value is empty: call ContentLength.
	Field() (name, value string, f Flags)
	// ContentLength reports whether the current field is a raw
	// Content-Length and its value.
	ContentLength() (n int64, ok bool)
}

// Sink receives decoded fields. name and value are valid only until Field
// returns; copy them to keep them. An error is a stream error: the Sink
// gets no more fields of that section, and the decoder returns the error
// as it is, for that section alone. An hpack Decoder first decodes the
// rest of the block, to keep its table in step, and returns it from
// Decode or End; a qpack Decoder returns it from DecodeSection at once.
type Sink interface {
	Field(name, value []byte, f Flags) error
}
