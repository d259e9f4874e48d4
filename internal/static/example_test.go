package static_test

import (
	"fmt"

	"github.com/hqpack/hqpack/internal/static"
)

func ExampleLookup() {
	id := static.Lookup("content-length")
	fmt.Println(id, id.Name(), id.HPACKIndex(), id.QPACKIndex())
	fmt.Println(static.Lookup("x-request-id"))
	// Output:
	// ContentLength content-length 28 4
	// None
}

func ExampleLookupBytes() {
	// A decoder's name, still in its read buffer.
	name := []byte(":status")
	switch static.LookupBytes(name) {
	case static.Status:
		fmt.Println("status")
	case static.None:
		fmt.Println("not in the static tables")
	}
	// Output: status
}

func ExampleLookupHPACK() {
	fmt.Println(static.LookupHPACK(":method", "POST")) // indexed field
	fmt.Println(static.LookupHPACK(":method", "PUT"))  // literal, name index 2
	fmt.Println(static.LookupHPACK("x-request-id", "1"))
	// Output:
	// 3 2
	// -1 2
	// -1 -1
}

func ExampleLookupQPACK() {
	fmt.Println(static.LookupQPACK("content-length", "0"))
	fmt.Println(static.LookupQPACK("content-length", "1024"))
	fmt.Println(static.LookupQPACK("www-authenticate", "Basic")) // HPACK only
	// Output:
	// 4 4
	// -1 4
	// -1 -1
}

func ExampleQPACK() {
	for _, i := range []uint64{0, 25, 98, 99} {
		e, ok := static.QPACK(i)
		fmt.Printf("%d %q %q %v %v\n", i, e.Name, e.Value, e.ID, ok)
	}
	// Output:
	// 0 ":authority" "" Authority true
	// 25 ":status" "200" Status true
	// 98 "x-frame-options" "sameorigin" XFrameOptions true
	// 99 "" "" None false
}

func ExampleHPACK() {
	e, _ := static.HPACK(28)
	fmt.Println(e.Name, e.ID == static.ContentLength)
	// Output: content-length true
}

func ExampleFieldID_IsPseudo() {
	for _, n := range []string{":path", "host"} {
		fmt.Println(n, static.Lookup(n).IsPseudo())
	}
	// Output:
	// :path true
	// host false
}
