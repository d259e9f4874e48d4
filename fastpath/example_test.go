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

func ExampleAppendDigits() {
	buf := make([]byte, 0, 32)
	buf = append(buf, "content-length: "...)
	buf = fastpath.AppendDigits(buf, 65536)
	fmt.Println(string(buf), fastpath.DigitsLen(65536))

	// The same digits Huffman-coded, as an encoder writes them.
	fmt.Printf("%x %d\n", fastpath.AppendHuffmanDigits(nil, 65536), fastpath.HuffmanDigitsLen(65536))
	payload, huff := fastpath.DigitsChoice(fastpath.HuffmanAuto, 65536)
	fmt.Println(payload, huff)
	// Output:
	// content-length: 65536 5
	// 71b6d973 4
	// 4 true
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

func ExampleValidName() {
	fmt.Println(fastpath.ValidName("content-type"), fastpath.ValidName("Content-Type"), fastpath.ValidName("a b"))
	fmt.Println(fastpath.IsPseudo(":path"), fastpath.ValidPseudo(":path"), fastpath.KnownPseudo(":path"))
	fmt.Println(fastpath.ValidValue("text/html"), fastpath.ValidValue(" padded"), fastpath.ValidValue("a\r\nb"))
	fmt.Println(string(fastpath.AppendLower(nil, "Content-Type")))
	// Output:
	// true false false
	// true true true
	// true false false
	// content-type
}
