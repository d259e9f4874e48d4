package qpack_test

import (
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
)

// A server decodes the HEADERS frame of a request stream into a reusable
// field list. The static FieldID saves string compares.
func ExampleDecoder() {
	path := fastpath.LookupField(":path") // once, in a real server
	var dec qpack.Decoder
	dec.Init(qpack.DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 16, Validate: true})

	// RFC 9204 Appendix B.1: ":path: /index.html", static name reference.
	section := []byte("\x00\x00\x51\x0b/index.html")
	fields := fastpath.NewSinkList(64, 16<<10)
	if _, err := dec.DecodeSection(0, section, fields); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < fields.Len(); i++ {
		name, value, f := fields.At(i)
		fmt.Printf("%s: %s (path: %v)\n", name, value, f.ID() == path)
	}
	// Output:
	// :path: /index.html (path: true)
}

// A section can arrive before the inserts it references. It is held, and
// handed back once the encoder stream brings them; the decoder stream then
// acknowledges it.
func ExampleDecoder_NextUnblocked() {
	var dec qpack.Decoder
	dec.Init(qpack.DecoderConfig{MaxTableCapacity: 220, MaxBlockedStreams: 100})

	// RFC 9204 Appendix B.2: stream 4 references two entries not inserted yet.
	sinks := map[uint64]*fastpath.SinkList{4: new(fastpath.SinkList)}
	blocked, err := dec.DecodeSection(4, []byte{0x03, 0x81, 0x10, 0x11}, sinks[4])
	fmt.Println("blocked:", blocked, err)

	// The encoder stream: Set Dynamic Table Capacity 220, two inserts.
	err = dec.ReadEncoderStream([]byte("\x3f\xbd\x01\xc0\x0fwww.example.com\xc1\x0c/sample/path"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		id, ok := dec.NextUnblocked()
		if !ok {
			break
		}
		if _, err := dec.DecodeUnblocked(id, sinks[id]); err != nil {
			fmt.Println(err)
			return
		}
		for i := 0; i < sinks[id].Len(); i++ {
			name, value, _ := sinks[id].At(i)
			fmt.Printf("stream %d: %s: %s\n", id, name, value)
		}
	}
	fmt.Printf("decoder stream: %x\n", dec.AppendDecoderStream(nil))
	// Output:
	// blocked: true <nil>
	// stream 4: :authority: www.example.com
	// stream 4: :path: /sample/path
	// decoder stream: 84
}
