package conformance_test

import (
	"fmt"
	"os"

	"github.com/hqpack/hqpack/internal/conformance"
	"github.com/hqpack/hqpack/qpack"
)

// A story of hpack-test-case, decoded case by case with one decoder.
func ExampleInflate() {
	story, err := conformance.ReadStory([]byte(`{"cases": [
		{"seqno": 0, "wire": "828684410f7777772e6578616d706c652e636f6d"},
		{"seqno": 1, "wire": "828684be58086e6f2d6361636865"}
	]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := conformance.Inflate(story, 4096); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range story.Cases {
		fmt.Println(c.Headers)
	}
	// Output:
	// [{:method GET} {:scheme http} {:path /} {:authority www.example.com}]
	// [{:method GET} {:scheme http} {:path /} {:authority www.example.com} {cache-control no-cache}]
}

// Header lists in the QIF format, encoded into a QIFS file and decoded back.
func ExampleDecodeQIFS() {
	lists, err := conformance.ReadQIF([]byte(":method\tGET\n:path\t/\n\n:status\t404\n\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	file := conformance.EncodeQIF(lists, qpack.EncoderConfig{}) // static table only
	recs, err := conformance.ReadRecords(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	got, err := conformance.DecodeQIFS(recs, qpack.DecoderConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d records, %d bytes\n", len(recs), len(file))
	os.Stdout.Write(conformance.AppendQIF(nil, got))
	// Output:
	// 2 records, 31 bytes
	// :method	GET
	// :path	/
	//
	// :status	404
	//
}
