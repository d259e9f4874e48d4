package qpack

import (
	"errors"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// FuzzDecoder drives one decoder with a script read from the input: a
// settings byte, then records of a kind byte, a length byte and a payload.
// Kinds (low two bits): encoder-stream bytes, a section on stream kind>>2,
// a cancellation, a drain of unblocked sections and of the decoder stream.
// Nothing may panic, errors are typed, memory stays within the limits, and
// after a connection error every call reports fastpath.ErrClosed.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("\x01\x00\x22\x3f\xbd\x01\xc0\x0fwww.example.com\xc1\x0c/sample/path\x05\x04\x03\x81\x10\x11\x03\x00"))
	f.Add([]byte("\x01\x05\x05\x05\x00\x80\xc1\x81\x0a\x00\x00\x02\x01\x02\x03\x00"))
	f.Add([]byte("\x00\x05\x0f\x00\x00\x51\x0b/index.html"))
	f.Add([]byte("\x03\x00\x09\x3f\xe1\x1f\x4a\x63\x75\x73\x74\x6f\x6d\x00\x03\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) == 0 {
			return
		}
		cfg := DecoderConfig{
			MaxTableCapacity:       []uint64{0, 220, 4096, 100}[script[0]&3],
			MaxBlockedStreams:      uint64(script[0]>>2) & 3,
			Validate:               script[0]&0x10 != 0,
			InitialCapacity:        uint64(script[0]&0x20) << 7,
			MaxSectionSize:         []int{0, 100}[script[0]>>6&1],
			MaxEncoderStreamBuffer: []int{0, 50}[script[0]>>7],
		}
		d := newDecoder(cfg)
		closed := false
		check := func(err error) {
			var e *Error
			switch {
			case err == nil, err == ErrStreamBlocked, err == ErrNoBlockedSection:
			case errors.As(err, &e):
				if closed && !errors.Is(err, fastpath.ErrClosed) {
					t.Fatalf("after a connection error: %v", err)
				}
				if e.ConnectionError() {
					closed = true
				}
			default:
				t.Fatalf("untyped error %v", err)
			}
		}
		var out []byte
		for rest := script[1:]; len(rest) >= 2; {
			kind, n := rest[0], int(rest[1])
			rest = rest[2:]
			n = min(n, len(rest))
			payload := rest[:n]
			rest = rest[n:]
			stream := uint64(kind >> 2)
			switch kind & 3 {
			case 0:
				check(d.ReadEncoderStream(payload))
			case 1:
				_, err := d.DecodeSection(stream, payload, codectest.Discard{})
				check(err)
			case 2:
				check(d.CancelStream(stream))
			case 3:
				for {
					id, ok := d.NextUnblocked()
					if !ok {
						break
					}
					_, err := d.DecodeUnblocked(id, codectest.Discard{})
					check(err)
				}
				out = d.AppendDecoderStream(out[:0])
			}
			if len(d.pend) > int(d.maxEncBuf) {
				t.Fatalf("holding %d encoder-stream bytes, bound %d", len(d.pend), int(d.maxEncBuf))
			}
			if d.BlockedStreams() > int(d.maxBlocked) {
				t.Fatalf("%d blocked streams, limit %d", d.BlockedStreams(), int(d.maxBlocked))
			}
			if size, c := d.TableSize(); size > c || c > int(d.maxCap) {
				t.Fatalf("table size %d capacity %d, max %d", size, c, int(d.maxCap))
			}
		}
	})
}
