package qinstr_test

import (
	"fmt"

	"github.com/hqpack/hqpack/internal/qinstr"
	"github.com/hqpack/hqpack/internal/wire"
)

// RFC 9204 Appendix B.1: a section of one literal with a static name
// reference, ":path" (static 1) and "/index.html", no Huffman.
func ExampleAppendLiteralNameRef() {
	b := qinstr.AppendSectionPrefix(nil, 0, 0, 0)
	b = qinstr.AppendLiteralNameRef(b, true, 1, "/index.html", false, wire.HuffmanNever)
	fmt.Printf("%x\n", b)
	// Output:
	// 0000510b2f696e6465782e68746d6c
}
