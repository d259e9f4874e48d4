package wire_test

import (
	"fmt"

	"github.com/hqpack/hqpack/internal/wire"
)

func ExampleAppendDigits() {
	buf := make([]byte, 0, 32)
	buf = append(buf, "content-length: "...)
	buf = wire.AppendDigits(buf, 65536)
	fmt.Println(string(buf), wire.DigitsLen(65536))

	// The same digits Huffman-coded, as an encoder writes them.
	fmt.Printf("%x %d\n", wire.AppendHuffmanDigits(nil, 65536), wire.HuffmanDigitsLen(65536))
	payload, huff := wire.DigitsChoice(wire.HuffmanAuto, 65536)
	fmt.Println(payload, huff)
	// Output:
	// content-length: 65536 5
	// 71b6d973 4
	// 4 true
}
