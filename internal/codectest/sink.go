// Package codectest holds what the HPACK and QPACK tests share: Sinks that
// record, count, discard or fail decoded fields, and the equivalence
// harness for the encoders' Begin/Continue paths. Only _test.go files
// import it; like every internal package it imports the standard library
// and this module only (deps_test.go).
package codectest

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/static"
)

// Field is a decoded field as the tests compare it.
type Field struct {
	Name, Value string
	Flags       fastpath.Flags
}

// Never reports whether f came as never-indexed.
func (f Field) Never() bool { return f.Flags&fastpath.NeverIndex != 0 }

// Want returns the field a decoder hands over for name and value with
// flags f (fastpath.NeverIndex or 0): both decoders give every field the
// static ID of its name.
func Want(name, value string, f fastpath.Flags) Field {
	return Field{name, value, f.WithID(static.Lookup(name))}
}

// Recorder is a Sink that keeps every field. It copies the bytes: a
// decoder's slices are valid only during the call.
type Recorder struct{ Fields []Field }

// Field implements fastpath.Sink.
func (r *Recorder) Field(name, value []byte, f fastpath.Flags) error {
	r.Fields = append(r.Fields, Field{string(name), string(value), f})
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
