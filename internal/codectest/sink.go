// Package codectest holds what the HPACK and QPACK tests share: Sinks that
// record, count, discard or fail decoded fields, the equivalence harness
// for the encoders' Begin/Continue paths and RandFlags for generators of
// fields. Only _test.go files import it; like every internal package it
// imports the standard library and this module only (deps_test.go).
package codectest

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
)

// Field is a decoded field as the tests compare it; Never and ID are what
// its fastpath.Flags carried.
type Field struct {
	Name, Value string
	Never       bool
	ID          static.FieldID
}

// Want returns the field an HPACK decoder hands over for name and value:
// every name carries its static ID. (A QPACK decoder gives none to a
// literal name.)
func Want(name, value string, never bool) Field {
	return Field{name, value, never, static.Lookup(name)}
}

// Recorder is a Sink that keeps every field. It copies the bytes: a
// decoder's slices are valid only during the call.
type Recorder struct {
	Fields []Field
	// NoIDs leaves every ID static.None, for comparisons with fields whose
	// IDs are not known (an encoder's input, another decoder's output).
	NoIDs bool
}

// Field implements fastpath.Sink.
func (r *Recorder) Field(name, value []byte, f fastpath.Flags) error {
	id := f.ID()
	if r.NoIDs {
		id = static.None
	}
	r.Fields = append(r.Fields, Field{string(name), string(value), f&fastpath.NeverIndex != 0, id})
	return nil
}

// Pairs returns the names and values, for comparison with lists that have
// no flags.
func (r *Recorder) Pairs() [][2]string {
	out := make([][2]string, len(r.Fields))
	for i, f := range r.Fields {
		out[i] = [2]string{f.Name, f.Value}
	}
	return out
}

// Discard is a Sink that drops every field.
type Discard struct{}

// Field implements fastpath.Sink.
func (Discard) Field(name, value []byte, f fastpath.Flags) error { return nil }

// Counter is a Sink that counts fields and their name and value bytes.
type Counter struct{ Fields, Bytes int }

// Field implements fastpath.Sink.
func (c *Counter) Field(name, value []byte, f fastpath.Flags) error {
	c.Fields++
	c.Bytes += len(name) + len(value)
	return nil
}

// FailAt is a Sink that returns Err at its At-th field (from 1) and counts
// in Seen the fields it was handed.
type FailAt struct {
	At, Seen int
	Err      error
}

// Field implements fastpath.Sink.
func (s *FailAt) Field(name, value []byte, f fastpath.Flags) error {
	if s.Seen++; s.Seen == s.At {
		return s.Err
	}
	return nil
}
