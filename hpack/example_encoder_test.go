package hpack_test

import (
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
)

// A server encodes a response into its frame buffer: HEADERS, then as many
// CONTINUATION payloads as it takes. Content-Length goes in as a number.
func ExampleEncoder_Begin() {
	var enc hpack.Encoder // one per connection
	var fields fastpath.FieldList
	fields.Add(":status", "200", 0)
	fields.Add("content-type", "text/html; charset=utf-8", 0)
	fields.AddContentLength(1024)
	fields.Add("server", "hqpack", 0)

	frame := make([]byte, 24) // tiny, to show the framing
	n, res := enc.Begin(frame, &fields)
	fmt.Printf("HEADERS      % x (%v)\n", frame[:n], res)
	for res == fastpath.MoreFields {
		n, res = enc.Continue(frame)
		fmt.Printf("CONTINUATION % x (%v)\n", frame[:n], res)
	}

	// The same response again (Begin starts the list from its first
	// field): its fields are in the dynamic table now.
	n, res = enc.Begin(frame, &fields)
	fmt.Printf("HEADERS      % x (%v)\n", frame[:n], res)
	// Output:
	// HEADERS      88 5f 92 49 7c a5 89 d3 4d 1f 6a 12 71 d8 82 a6 0b 53 2a cf 7f (MoreFields)
	// CONTINUATION 0f 0d 83 08 04 d7 76 85 9f b5 63 27 5f (Done)
	// HEADERS      88 bf 0f 0d 83 08 04 d7 be (Done)
}

// A field larger than the frame is split across frames: none is dropped,
// whatever the frame size.
func ExampleEncoder_Continue() {
	var enc hpack.Encoder
	var fields fastpath.FieldList
	fields.Add(":status", "200", 0)
	fields.Add("x-large", "0123456789abcdefghij", 0)
	frame := make([]byte, 10)
	n, res := enc.Begin(frame, &fields)
	for {
		fmt.Printf("% x (%v)\n", frame[:n], res)
		if res != fastpath.MoreFields {
			break
		}
		n, res = enc.Continue(frame)
	}
	// Output:
	// 88 (MoreFields)
	// 40 86 f2 b5 03 b2 62 ff 8f 00 (MoreFields)
	// 44 cb 4d b8 eb cf 8e 32 48 59 (MoreFields)
	// 66 9c dd 3f (Done)
}

// AppendSection is for callers who do not frame: it appends whole sections.
func ExampleEncoder_AppendSection() {
	var enc hpack.Encoder
	enc.Init(hpack.Config{Huffman: fastpath.HuffmanNever})
	var fields fastpath.FieldList
	fields.Add(":method", "GET", 0)
	fields.Add(":path", "/index.php?q=1", 0) // never indexed: paths rarely repeat
	fields.Add("user-agent", "hqpack-example", 0)
	fields.Add("Authorization", "Basic dXNlcjpwdw==", 0) // lowercased; sent never-indexed

	block := enc.AppendSection(nil, &fields)
	fmt.Printf("%d bytes\n", len(block))

	// Decode it: names come out lowercase, authorization flagged.
	var dec hpack.Decoder
	var got fastpath.SinkList
	if err := dec.Decode(block, &got); err != nil {
		fmt.Println(err)
	}
	for i := range got.Len() {
		name, value, f := got.At(i)
		fmt.Printf("%s: %s (never indexed: %v)\n", name, value, f&fastpath.NeverIndex != 0)
	}
	fmt.Println("table entries:", enc.TableLen())
	// Output:
	// 54 bytes
	// :method: GET (never indexed: false)
	// :path: /index.php?q=1 (never indexed: false)
	// user-agent: hqpack-example (never indexed: false)
	// authorization: Basic dXNlcjpwdw== (never indexed: true)
	// table entries: 1
}

// The peer's SETTINGS_HEADER_TABLE_SIZE, once acknowledged, is applied with
// SetMaxTableSize; the next section starts with the size updates.
func ExampleEncoder_SetMaxTableSize() {
	var enc hpack.Encoder
	enc.Init(hpack.Config{TableLimit: 16384}) // we would use up to 16 KiB
	var fields fastpath.FieldList
	fields.Add(":status", "204", 0)

	fmt.Printf("% x\n", enc.AppendSection(nil, &fields)) // the peer allows 4096
	enc.SetMaxTableSize(65536)                           // SETTINGS: 64 KiB
	fields.Rewind()
	fmt.Printf("% x\n", enc.AppendSection(nil, &fields)) // grows to our limit
	_, capacity := enc.TableSize()
	fmt.Println(capacity)
	// Output:
	// 89
	// 3f e1 7f 89
	// 16384
}
