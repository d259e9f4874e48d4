package fuzz

import (
	"errors"
	"testing"

	"github.com/hqpack/hqpack/qpack"
)

// Regression tests for what the fuzz targets found. Each crasher is also
// kept as a seed under testdata/fuzz/<Target>/regress-*, which plain
// go test runs.

// FuzzQPACKDecode, testdata/fuzz/FuzzQPACKDecode/regress-second-section-on-blocked-stream:
// a second section on a stream whose first section is held was decoded
// when it did not block itself, where DecodeSection promises
// ErrStreamBlocked and an unchanged Decoder. Decoding it ahead of the held
// one would acknowledge the stream's sections out of order.
func TestRegressSecondSectionOnBlockedStream(t *testing.T) {
	var d qpack.Decoder
	d.Init(qpack.DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 1})
	if blocked, err := d.DecodeSection(0, unhex("303030303030"), &sink{}); !blocked || err != nil {
		t.Fatalf("first section: blocked %v, %v; want held", blocked, err)
	}
	for _, sec := range []string{"0030", "0000d1", "3030"} {
		var got sink
		if blocked, err := d.DecodeSection(0, unhex(sec), &got); blocked || err != qpack.ErrStreamBlocked || len(got.got) > 0 {
			t.Fatalf("second section %s: blocked %v, %v, %v; want ErrStreamBlocked alone", sec, blocked, err, got.got)
		}
	}
	if d.BlockedStreams() != 1 || len(d.AppendDecoderStream(nil)) != 0 {
		t.Fatalf("decoder changed: %d blocked, decoder stream % x", d.BlockedStreams(), d.AppendDecoderStream(nil))
	}
	// Another stream is not affected.
	if blocked, err := d.DecodeSection(4, unhex("0000d1"), &sink{}); blocked || err != nil {
		t.Fatalf("another stream: %v, %v", blocked, err)
	}
	if err := d.CancelStream(0); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeSection(0, unhex("0000d1"), &sink{}); errors.Is(err, qpack.ErrStreamBlocked) {
		t.Fatalf("after the cancellation: %v", err)
	}
}
