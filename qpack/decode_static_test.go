package qpack

import (
	"errors"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/wire"
)

// appendingSink appends to every name and value it is handed, as a careless
// Sink might, and keeps the results.
type appendingSink struct{ got [][]byte }

func (s *appendingSink) Field(name, value []byte, _ fastpath.Flags) error {
	if cap(name) != len(name) || cap(value) != len(value) {
		return errSpare
	}
	s.got = append(s.got, append(name, '!'), append(value, '!'))
	return nil
}

var errSpare = errors.New("a name or value with spare capacity")

// TestStaticBytesReadOnly decodes a reference to every static entry with a
// Sink that appends to what it gets: the shared static bytes must not change.
func TestStaticBytesReadOnly(t *testing.T) {
	section := []byte{0, 0} // Required Insert Count 0, Base 0
	for i := range uint64(static.QPACKLen) {
		section = wire.AppendInt(section, 0xc0, 6, i) // indexed field line, static
	}
	for round := range 2 {
		var d Decoder
		var s appendingSink
		if _, err := d.DecodeSection(0, section, &s); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for i := range uint64(static.QPACKLen) {
			e, _ := static.QPACK(i)
			if string(static.QPACKBytes[i].Name) != e.Name || string(static.QPACKBytes[i].Value) != e.Value {
				t.Fatalf("static entry %d now %q: %q", i, static.QPACKBytes[i].Name, static.QPACKBytes[i].Value)
			}
		}
	}
}
