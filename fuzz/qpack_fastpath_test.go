package fuzz

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
)

// FuzzQPACKFastPath is DESIGN.md's equivalence for QPACK: for arbitrary
// field lists with raw Content-Lengths, encoder settings, streams,
// acknowledgments and a buffer size, the fast path (raw Content-Length) and
// the string path (its decimal string) give, call by call of Begin and
// Continue, the same result, the same bytes, the same enumerator position
// and the same encoder state, and the same encoder-stream bytes. The pieces
// make what AppendSection makes, and a Decoder fed them (whose
// acknowledgments go back to all encoders, or are withheld) gets the list.
func FuzzQPACKFastPath(f *testing.F) {
	f.Add([]byte("\x04\x00\x00\x03\x00\x00\x00\x00\x03\x04\x00\x01\x02"))
	f.Add([]byte("\x02\x01\x10\x01\x04\x00\x01\x00\x02\x80\x01\x02\x03\x04\x05\x06\x07\x08\x09\x06\x03\x04\x05\x01"))
	f.Add([]byte("\x64\x05\x05\x03\x04\x03\x00\x05\x01\x05\x0b\x01\x05\x00\x02\x03\x03\x05\x03\x07\x04\x03\x01"))
	f.Add([]byte("\x43\x22\x00\x04\x06\x04\x31\x32\x33\x34\x01\x01\x80\x00\x00\x00\x00\x00\x00\x10\x00\x01\x01\x06"))
	f.Add([]byte("\x24\x30\x01\x04\x02\x03\x03\x03\x06\x02\x00\x01\x00\x03\x01\x03\x07\x02\x00\x02"))
	// x-custom, cache-control: no-cache, a raw Content-Length and
	// content-type: text/html on a 4096-byte table, acknowledged, then
	// repeated, once with a new Content-Length.
	f.Add([]byte("\x64\x00\x00\x04\x04\x03\x09\x08\x04\x08\x06\x00\x05\x05\x04\x03\x14\x14\x34\x06\x14\x14"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := script{data}
		ec, dc := readQPACKConfig(&s)
		size := s.pick(128)
		var fast, str, whole qpack.Encoder
		fast.Init(ec)
		str.Init(ec)
		whole.Init(ec)
		var dec qpack.Decoder
		dec.Init(dc)
		var es, es2, es3, ack, block, ref []byte
		var last []tfield
		for i := 0; i < 8 && s.more(); i++ {
			op := s.byte()
			stream := uint64(4 * (op & 3))
			// 0x10 repeats the last section with the same strings, 0x20
			// with new raw Content-Lengths: the fast path's list then
			// repeats a plan, the string path's (Content-Length a
			// string) plans it anew.
			fields := last
			if op&0x10 == 0 || fields == nil {
				fields = readFields(&s, 10)
			} else if op&0x20 != 0 {
				fields = withNewLengths(&s, fields)
			}
			last = fields
			lf, ls := lists(fields)
			where := fmt.Sprintf("%+v, buffer %d, section %d on stream %d", ec, size, i, stream)
			block = qpackEquivalent(t, where, &fast, &str, stream, lf, ls, size, block[:0])
			lw, _ := lists(fields)
			if ref = whole.AppendSection(stream, ref[:0], lw); !bytes.Equal(block, ref) {
				t.Fatalf("%s: pieces % x, AppendSection % x", where, block, ref)
			}
			es, es2, es3 = fast.AppendEncoderStream(es[:0]), str.AppendEncoderStream(es2[:0]), whole.AppendEncoderStream(es3[:0])
			if !bytes.Equal(es, es2) || !bytes.Equal(es, es3) {
				t.Fatalf("%s: encoder stream\nfast path:     % x\nstring path:   % x\nAppendSection: % x", where, es, es2, es3)
			}
			if err := dec.ReadEncoderStream(es); err != nil {
				t.Fatalf("%s: ReadEncoderStream(% x): %v", where, es, err)
			}
			var got sink
			if blocked, err := dec.DecodeSection(stream, block, &got); blocked || err != nil ||
				!neverByPolicy(got.got, expected(fields), ec.Indexing == fastpath.IndexDefault) {
				t.Fatalf("%s: % x decodes to %v, %v, %v; want %v", where, block, got.got, blocked, err, expected(fields))
			}
			ack = dec.AppendDecoderStream(ack)
			if ec.AckMode != qpack.AckDecoderStream {
				ack = ack[:0]
			} else if op&4 != 0 {
				// Acknowledge; otherwise withhold until a later section.
				for _, e := range []*qpack.Encoder{&fast, &str, &whole} {
					if err := e.ReadDecoderStream(ack); err != nil {
						t.Fatalf("%s: ReadDecoderStream(% x): %v", where, ack, err)
					}
				}
				ack = ack[:0]
			}
		}
	})
}

// qpackEquivalent encodes one section on both paths, call by call, in
// buffers of size bytes (0: one large buffer), and returns the section.
func qpackEquivalent(t *testing.T, where string, fast, str *qpack.Encoder, stream uint64, lf, ls *fastpath.FieldList, size int, block []byte) []byte {
	if size == 0 {
		size = 1 << 16
	}
	bf, bs := make([]byte, size), make([]byte, size)
	nf, rf := fast.Begin(stream, bf, lf)
	ns, rs := str.Begin(stream, bs, ls)
	for call := 0; ; call++ {
		switch {
		case rf != rs || nf != ns || !bytes.Equal(bf[:nf], bs[:ns]):
			t.Fatalf("%s, call %d: fast path %v % x, string path %v % x", where, call, rf, bf[:nf], rs, bs[:ns])
		case lf.Pos() != ls.Pos():
			t.Fatalf("%s, call %d: fast path at field %d, string path at %d", where, call, lf.Pos(), ls.Pos())
		}
		if a, b := qpackState(fast), qpackState(str); !slices.Equal(a, b) {
			t.Fatalf("%s, call %d: encoder state\nfast path:   %q\nstring path: %q", where, call, a, b)
		}
		if rf != fastpath.Done && (rf != fastpath.MoreFields || nf == 0) {
			t.Fatalf("%s, call %d: %v with %d bytes written into a %d-byte buffer", where, call, rf, nf, len(bf))
		}
		block = append(block, bf[:nf]...)
		if rf == fastpath.Done {
			return block
		}
		nf, rf = fast.Continue(bf)
		ns, rs = str.Continue(bs)
	}
}

// qpackState is what an Encoder shows of its state.
func qpackState(e *qpack.Encoder) []string {
	size, c := e.TableSize()
	st := []string{fmt.Sprintf("size %d capacity %d inserts %d known %d outstanding %d blocked %d remaining %d stream %d",
		size, c, e.InsertCount(), e.KnownReceivedCount(), e.Outstanding(), e.BlockedStreams(), e.Remaining(), e.EncoderStreamLen())}
	for abs := e.InsertCount(); abs > 0; abs-- {
		n, v, ok := e.TableEntry(abs - 1)
		if !ok {
			break
		}
		st = append(st, string(n)+": "+string(v))
	}
	return st
}
