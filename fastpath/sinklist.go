package fastpath

// Default bounds of what a SinkList keeps between sections: a request's
// fields in a busy server fit, a rare large one is let go.
const (
	defaultKeepFields = 64
	defaultKeepBytes  = 16 << 10
)

// SinkList is a ready decoder Sink: a reusable field list whose names and
// values are copied into one byte arena. Once it has grown to the size of
// the sections it receives, it takes fields without allocating.
//
// Reset keeps the field slice and the arena for the next section, but only
// up to a bound: whatever grew past it is released, so one huge section
// from a peer does not pin memory for the life of a connection. The zero
// SinkList keeps the default bounds: 64 fields and 16 KiB of names and
// values.
type SinkList struct {
	arena  []byte
	fields []sinkField
	// The bounds as NewSinkList took them: 0 is the default.
	keepFields, keepBytes int
}

// sinkField is one field of a SinkList: its name is the arena from the end
// of the previous field's value up to nameEnd, its value the arena from
// nameEnd up to valueEnd.
type sinkField struct {
	nameEnd, valueEnd int
	flags             Flags
}

// NewSinkList returns an empty SinkList that keeps up to keepFields fields
// and keepBytes bytes of names and values between sections. A bound of 0
// is the default (64 fields, 16 KiB), as in the zero SinkList, so
// NewSinkList(0, 0) is new(SinkList); a negative bound keeps nothing.
func NewSinkList(keepFields, keepBytes int) *SinkList {
	return &SinkList{keepFields: keepFields, keepBytes: keepBytes}
}

// keepBound is the reading of a NewSinkList bound: 0 the default, negative
// none.
func keepBound(n, def int) int {
	if n == 0 {
		return def
	}
	return max(n, 0)
}

// Field appends a copy of the field. It never fails.
func (s *SinkList) Field(name, value []byte, f Flags) error {
	s.arena = append(s.arena, name...)
	nameEnd := len(s.arena)
	s.arena = append(s.arena, value...)
	s.fields = append(s.fields, sinkField{nameEnd, len(s.arena), f})
	return nil
}

// Len returns the number of fields.
func (s *SinkList) Len() int { return len(s.fields) }

// At returns field i (0 <= i < Len()). name and value point into the
// arena: they stay valid, and unchanged, until Reset.
func (s *SinkList) At(i int) (name, value []byte, f Flags) {
	p := &s.fields[i]
	start := 0
	if i > 0 {
		start = s.fields[i-1].valueEnd
	}
	return s.arena[start:p.nameEnd:p.nameEnd], s.arena[p.nameEnd:p.valueEnd:p.valueEnd], p.flags
}

// Get returns the value of the first field named name.
func (s *SinkList) Get(name string) (value []byte, ok bool) {
	start := 0
	for _, p := range s.fields {
		if string(s.arena[start:p.nameEnd]) == name {
			return s.arena[p.nameEnd:p.valueEnd:p.valueEnd], true
		}
		start = p.valueEnd
	}
	return nil, false
}

// Bytes returns the total length of all names and values.
func (s *SinkList) Bytes() int { return len(s.arena) }

// Reset empties the list for the next section. The field slice and the
// arena are kept when within the bounds; a part that grew past its bound
// is replaced by a fresh one of the bound's capacity.
func (s *SinkList) Reset() {
	keepFields, keepBytes := keepBound(s.keepFields, defaultKeepFields), keepBound(s.keepBytes, defaultKeepBytes)
	if cap(s.fields) > keepFields {
		s.fields = make([]sinkField, 0, keepFields)
	} else {
		s.fields = s.fields[:0]
	}
	if cap(s.arena) > keepBytes {
		s.arena = make([]byte, 0, keepBytes)
	} else {
		s.arena = s.arena[:0]
	}
}

// capacity returns the capacity the list holds now: fields and arena bytes.
func (s *SinkList) capacity() (fields, bytes int) { return cap(s.fields), cap(s.arena) }

var _ Sink = (*SinkList)(nil)
