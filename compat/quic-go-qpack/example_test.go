package qpack

import (
	"bytes"
	"fmt"
	"io"
)

// The Encoder and Decoder are used as quic-go/qpack's are: one Encoder per
// section written, one Decoder per connection, shared by its streams. (The
// example is in package qpack, not qpack_test: in a module that replaces
// quic-go/qpack with this one, nothing answers to this module's own path.)
func Example() {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, f := range []HeaderField{
		{Name: ":status", Value: "200"},
		{Name: "content-type", Value: "text/html; charset=utf-8"},
		{Name: "x-request-id", Value: "7f3a"},
	} {
		if err := enc.WriteField(f); err != nil {
			panic(err)
		}
	}
	enc.Close()

	dec := NewDecoder()
	next := dec.Decode(buf.Bytes())
	for {
		f, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s (pseudo: %v)\n", f.Name, f.Value, f.IsPseudo())
	}
	// Output:
	// :status: 200 (pseudo: true)
	// content-type: text/html; charset=utf-8 (pseudo: false)
	// x-request-id: 7f3a (pseudo: false)
}
