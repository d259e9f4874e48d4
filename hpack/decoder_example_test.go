package hpack_test

import (
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
)

// The request of RFC 7541 C.3.1: indexed fields and a literal that enters
// the dynamic table.
var request = []byte{0x82, 0x86, 0x84, 0x41, 0x0f, 'w', 'w', 'w', '.', 'e', 'x', 'a', 'm', 'p', 'l', 'e', '.', 'c', 'o', 'm'}

func ExampleDecoder_Decode() {
	var dec hpack.Decoder // HTTP/2's defaults: 4096-octet table, 64 KiB sections
	fields := fastpath.NewSinkList(64, 16<<10)
	if err := dec.Decode(request, fields); err != nil {
		fmt.Println(err)
		return
	}
	for i := range fields.Len() {
		name, value, f := fields.At(i)
		fmt.Printf("%s: %s (%v)\n", name, value, f.ID())
	}
	fields.Reset() // keep the memory for the next section
	// Output:
	// :method: GET (Method)
	// :scheme: http (Scheme)
	// :path: / (Path)
	// :authority: www.example.com (Authority)
}

// printer is a Sink that prints, and switches on the static ID rather than
// comparing names.
type printer struct{}

// authority is the FieldID of ":authority", looked up once.
var authority = fastpath.LookupField(":authority")

func (printer) Field(name, value []byte, f fastpath.Flags) error {
	if f.ID() == authority {
		fmt.Printf("host is %s\n", value)
		return nil
	}
	fmt.Printf("%s: %s\n", name, value)
	return nil
}

// A section cut across HEADERS and CONTINUATION frames: each field goes to
// the sink as soon as its last byte arrives.
func ExampleDecoder_Write() {
	var dec hpack.Decoder
	frames := [][]byte{request[:5], request[5:12], request[12:]}
	for i, frag := range frames {
		fmt.Printf("frame %d\n", i)
		if err := dec.Write(frag, printer{}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := dec.End(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// frame 0
	// :method: GET
	// :scheme: http
	// :path: /
	// frame 1
	// frame 2
	// host is www.example.com
}

func ExampleDecoder_errors() {
	var dec hpack.Decoder
	dec.Init(hpack.DecoderConfig{Validate: true})
	// "X-Upper: 1" is malformed in HTTP/2 (uppercase): a stream error.
	err := dec.Decode([]byte{0x82, 0x00, 0x07, 'X', '-', 'U', 'p', 'p', 'e', 'r', 0x01, '1'}, printer{})
	var e *hpack.Error
	fmt.Println(errors.As(err, &e), errors.Is(err, fastpath.ErrInvalidFieldName), e.Code, e.ConnectionError())

	// Index 70 does not exist: a connection error, and the end of dec.
	err = dec.Decode([]byte{0xc6}, printer{})
	fmt.Println(err, errors.Is(err, fastpath.ErrInvalidIndex), errors.As(err, &e) && e.ConnectionError())
	err = dec.Decode(request, printer{})
	fmt.Println(errors.Is(err, fastpath.ErrClosed))
	// Output:
	// :method: GET
	// true true PROTOCOL_ERROR false
	// hpack: invalid index 70 at offset 0 true true
	// true
}
