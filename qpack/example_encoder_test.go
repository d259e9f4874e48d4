package qpack_test

import (
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
)

// An HTTP/3 server's response headers: the peer allows a 4096-byte table
// and 100 blocked streams. The first response inserts "server: hqpack"
// into the peer's table (with Set Dynamic Table Capacity before it) and
// references it: 0x80 is the newest entry. :status and content-type come
// from the static table, and the raw Content-Length's digits are
// Huffman-coded straight into the frame.
func ExampleEncoder() {
	var enc qpack.Encoder
	enc.Init(qpack.EncoderConfig{MaxTableCapacity: 4096, TableCapacity: 4096, MaxBlockedStreams: 100})

	var fields fastpath.FieldList
	for i, stream := range []uint64{0, 4} {
		fields.Reset()
		fields.Add(":status", "200", 0)
		fields.Add("content-type", "text/html; charset=utf-8", 0)
		fields.Add("server", "hqpack", 0)
		fields.AddContentLength(int64(1000 + i))

		n := enc.Plan(stream, &fields)     // the HEADERS frame's length
		es := enc.AppendEncoderStream(nil) // send first, on the encoder stream
		frame := make([]byte, 0, n)        // write the frame header, then
		var buf [16]byte                   // the payload, in whole field lines
		for w, res := enc.Continue(buf[:]); ; w, res = enc.Continue(buf[:]) {
			frame = append(frame, buf[:w]...)
			if res == fastpath.Done {
				break
			}
		}
		fmt.Printf("stream %d: encoder stream %d bytes, section %d bytes: %x\n", stream, len(es), n, frame)
	}
	// The peer's decoder acknowledges both sections on its decoder stream.
	if err := enc.ReadDecoderStream([]byte{0x80, 0x84}); err != nil {
		fmt.Println(err)
	}
	fmt.Println("known received:", enc.KnownReceivedCount(), "outstanding:", enc.Outstanding())
	// Output:
	// stream 0: encoder stream 11 bytes, section 10 bytes: 0200d9f480548308000f
	// stream 4: encoder stream 0 bytes, section 10 bytes: 0200d9f480548308001f
	// known received: 1 outstanding: 0
}
