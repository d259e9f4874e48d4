package hpack_test

import (
	"bytes"
	"errors"
	"fmt"

	// The one line that changes when moving from
	// golang.org/x/net/http2/hpack.
	"github.com/hqpack/hqpack/compat/xnet-hpack"
)

// Encode a request's fields and decode them again, as x/net's http2 does.
func Example() {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for _, f := range []hpack.HeaderField{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/"},
		{Name: "authorization", Value: "Basic dXNlcjpwYXNz", Sensitive: true},
	} {
		if err := enc.WriteField(f); err != nil {
			panic(err)
		}
	}
	fmt.Printf("%d bytes\n", buf.Len())

	dec := hpack.NewDecoder(4096, func(f hpack.HeaderField) { fmt.Println(f) })
	if _, err := dec.Write(buf.Bytes()); err != nil {
		panic(err)
	}
	if err := dec.Close(); err != nil {
		panic(err)
	}
	// Output:
	// 20 bytes
	// header field ":method" = "GET"
	// header field ":path" = "/"
	// header field "authorization" = "Basic dXNlcjpwYXNz" (sensitive)
}

// Names go out as they are given: a test can send a malformed one.
func ExampleEncoder_WriteField() {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	enc.WriteField(hpack.HeaderField{Name: "X-Upper", Value: "1"})
	fields, err := hpack.NewDecoder(4096, nil).DecodeFull(buf.Bytes())
	fmt.Println(fields, err)
	// Output:
	// [header field "X-Upper" = "1"] <nil>
}

// The peer's SETTINGS_HEADER_TABLE_SIZE changes the table; the next field
// carries the Dynamic Table Size Update.
func ExampleEncoder_SetMaxDynamicTableSize() {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	enc.SetMaxDynamicTableSize(8192) // bounded by the limit, 4096
	enc.SetMaxDynamicTableSize(1024)
	enc.WriteField(hpack.HeaderField{Name: ":method", Value: "GET"})
	fmt.Printf("%d %x\n", enc.MaxDynamicTableSize(), buf.Bytes())
	// Output:
	// 1024 3fe10782
}

// Errors compare as x/net's do.
func ExampleDecoder_Write() {
	dec := hpack.NewDecoder(4096, nil)
	dec.SetMaxStringLength(4)
	_, err := dec.Write([]byte{0x00, 0x01, 'n', 0x05, 'v', 'a', 'l', 'u', 'e'})
	fmt.Println(err == hpack.ErrStringLength)

	dec = hpack.NewDecoder(4096, nil)
	_, err = dec.Write([]byte{0xc6}) // index 70: the dynamic table is empty
	var de hpack.DecodingError
	fmt.Println(errors.As(err, &de), de.Err == hpack.InvalidIndexError(70))
	fmt.Println(err)
	// Output:
	// true
	// true true
	// decoding error: invalid indexed representation index 70
}

func ExampleHuffmanDecodeToString() {
	b := hpack.AppendHuffmanString(nil, "www.example.com")
	s, err := hpack.HuffmanDecodeToString(b)
	fmt.Println(len(b), hpack.HuffmanEncodeLength("www.example.com"), s, err)
	_, err = hpack.HuffmanDecodeToString([]byte{0x00})
	fmt.Println(err == hpack.ErrInvalidHuffman)
	// Output:
	// 12 12 www.example.com <nil>
	// true
}
