package fastpath_test

import (
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
)

// A response's fields with a raw Content-Length: the encoder sees the
// number, not a string.
func ExampleFieldList() {
	var fields fastpath.FieldList
	fields.Add(":status", "200", 0)
	fields.Add("content-type", "text/plain", 0)
	fields.AddContentLength(1024)
	fields.Add("set-cookie", "id=42", fastpath.NeverIndex)

	for fields.Next() {
		if n, ok := fields.ContentLength(); ok {
			fmt.Printf("content-length: %d (raw)\n", n)
			continue
		}
		name, value, f := fields.Field()
		fmt.Printf("%s: %s (never-indexed: %v)\n", name, value, f&fastpath.NeverIndex != 0)
	}
	// Output:
	// :status: 200 (never-indexed: false)
	// content-type: text/plain (never-indexed: false)
	// content-length: 1024 (raw)
	// set-cookie: id=42 (never-indexed: true)
}

// A decoder calls Field for every field of a section; the list copies them
// into its arena and keeps its capacity for the next section.
func ExampleSinkList() {
	var sink fastpath.SinkList
	var s fastpath.Sink = &sink // what a decoder is given
	s.Field([]byte(":status"), []byte("404"), 0)
	s.Field([]byte("content-type"), []byte("text/html"), 0)

	for i := range sink.Len() {
		name, value, _ := sink.At(i)
		fmt.Printf("%s: %s\n", name, value)
	}
	v, ok := sink.Get("content-type")
	fmt.Println(string(v), ok)
	sink.Reset()
	fmt.Println(sink.Len())
	// Output:
	// :status: 404
	// content-type: text/html
	// text/html true
	// 0
}
