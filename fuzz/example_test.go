package fuzz

import (
	"fmt"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/hpack"
)

// The decode target's differential in small: RFC 7541 C.3.1 decoded by
// hqpack and by x/net, then a section whose two size updates x/net rejects
// once its table holds an entry (golang/go#29187), which RFC 7541 §4.2
// allows and hqpack accepts.
func Example() {
	c31 := unhex("828684410f7777772e6578616d706c652e636f6d")
	var ours hpack.Decoder
	var got sink
	err := ours.Decode(c31, &got)
	x := xhpack.NewDecoder(4096, nil)
	theirs, xerr := x.DecodeFull(c31)
	fmt.Println(got.got, err)
	fmt.Println(fromX(theirs), xerr)

	twoUpdates := unhex("3f45 3fe11f 82") // size 100, size 4096, :method GET
	fmt.Println(scanHPACK(twoUpdates).updates)
	fmt.Println(ours.Decode(twoUpdates, &sink{}))
	_, xerr = x.DecodeFull(twoUpdates)
	fmt.Println(xerr)
	// Output:
	// [":method": "GET" ":scheme": "http" ":path": "/" ":authority": "www.example.com"] <nil>
	// [":method": "GET" ":scheme": "http" ":path": "/" ":authority": "www.example.com"] <nil>
	// [100 4096]
	// <nil>
	// decoding error: dynamic table size update MUST occur at the beginning of a header block
}
