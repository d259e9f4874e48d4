//go:build interop && cgo

package interop_test

import (
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/interop"
	"github.com/hqpack/hqpack/qpack"
)

// hqpack's QPACK encoder, with a dynamic table, read by nghttp3's decoder;
// nghttp3's acknowledgment goes back to the encoder.
func Example() {
	var enc qpack.Encoder
	enc.Init(qpack.EncoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 16, TableCapacity: 4096})
	dec, err := interop.NewQPACKDecoder(4096, 16)
	if err != nil {
		panic(err)
	}
	defer dec.Close()

	var fields fastpath.FieldList
	for stream := uint64(0); stream <= 4; stream += 4 {
		fields.Reset()
		fields.Add(":status", "200", 0)
		fields.Add("server", "hqpack-example", 0)
		fields.AddContentLength(1024 + int64(stream))
		section := enc.AppendSection(stream, nil, &fields)
		if err := dec.ReadEncoderStream(enc.AppendEncoderStream(nil)); err != nil {
			panic(err)
		}
		got, blocked, err := dec.DecodeSection(int64(stream), section)
		if err != nil || blocked {
			panic(fmt.Sprint(blocked, err))
		}
		fmt.Println(stream, len(section), "bytes:", got)
		ack, err := dec.DecoderStream()
		if err != nil {
			panic(err)
		}
		if err := enc.ReadDecoderStream(ack); err != nil {
			panic(err)
		}
	}
	// Output:
	// 0 9 bytes: [{:status 200 false} {server hqpack-example false} {content-length 1024 false}]
	// 4 9 bytes: [{:status 200 false} {server hqpack-example false} {content-length 1028 false}]
}
