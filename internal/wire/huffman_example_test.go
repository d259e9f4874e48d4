package wire_test

import (
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/internal/wire"
)

func ExampleAppendHuffman() {
	s := "www.example.com"
	enc := wire.AppendHuffman(nil, s)
	fmt.Printf("%d bytes, %d coded: %x\n", len(s), wire.HuffmanLen(s), enc)
	// Output: 15 bytes, 12 coded: f1e3c2e5f23a6ba0ab90f4ff
}

func ExampleAppendHuffmanDecode() {
	enc := []byte{0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf} // RFC 7541 C.4.2
	buf := make([]byte, 0, 64)                        // reused: no allocation
	buf, err := wire.AppendHuffmanDecode(buf[:0], enc, 64)
	fmt.Println(string(buf), err)

	_, err = wire.AppendHuffmanDecode(buf[:0], enc, 4)
	fmt.Println(errors.Is(err, wire.ErrStringTooLong))

	_, err = wire.AppendHuffmanDecode(buf[:0], append(enc, 0xff), 64)
	fmt.Println(err)
	// Output:
	// no-cache <nil>
	// true
	// huffman: padding longer than 7 bits
}
