package fuzz

import (
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
)

// readQPACKConfig reads an encoder's settings (two bytes) and the matching
// decoder's.
func readQPACKConfig(s *script) (qpack.EncoderConfig, qpack.DecoderConfig) {
	c1, c2 := s.byte(), s.byte()
	maxCap := []uint64{0, 100, 220, 256, 4096, 1000, 64, 512}[c1&7]
	e := qpack.EncoderConfig{
		MaxTableCapacity:  maxCap,
		TableCapacity:     []uint64{maxCap, maxCap / 2, 0, maxCap}[c1>>3&3],
		MaxBlockedStreams: []uint64{0, 1, 2, 100}[c1>>5&3],
		Huffman:           fastpath.HuffmanPolicy(c2 % 3),
		Indexing:          fastpath.Indexing(c2 / 3 % 3),
		AckMode:           []qpack.AckMode{qpack.AckDecoderStream, qpack.AckDecoderStream, qpack.AckImmediate, qpack.AckNever}[c2>>4&3],
		MaxOutstanding:    []int{0, 1, 4, 0}[c2>>6],
	}
	d := qpack.DecoderConfig{
		MaxTableCapacity:  e.MaxTableCapacity,
		MaxBlockedStreams: e.MaxBlockedStreams,
		MaxSectionSize:    1 << 22,
	}
	return e, d
}

// qpackSection is a section encoded and not yet decoded.
type qpackSection struct {
	stream uint64
	block  []byte
	want   []field
}

// qpackConn is an Encoder and a Decoder joined by streams the test
// delivers in its own order: the encoder stream in pieces, the sections of
// each stream in order but the streams in any order, the decoder stream in
// pieces or not at all.
type qpackConn struct {
	t        *testing.T
	ec       qpack.EncoderConfig
	enc      qpack.Encoder
	dec      qpack.Decoder
	encQ     []byte                    // encoder-stream bytes not yet delivered
	decQ     []byte                    // decoder-stream bytes not yet delivered
	pending  map[uint64][]qpackSection // per stream, in order
	held     map[uint64]qpackSection   // blocked in the decoder
	live     []uint64                  // streams that may get more sections
	last     []tfield                  // the last section's fields, to repeat
	next     uint64                    // the next new stream ID
	sections int
}

func newQPACKConn(t *testing.T, ec qpack.EncoderConfig, dc qpack.DecoderConfig) *qpackConn {
	c := &qpackConn{t: t, ec: ec, pending: map[uint64][]qpackSection{}, held: map[uint64]qpackSection{}}
	c.enc.Init(ec)
	c.dec.Init(dc)
	return c
}

func (c *qpackConn) fatalf(format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("%+v: "+format, append([]any{c.ec}, args...)...)
}

// encode encodes fields on stream, whole (frame 0) or with Begin and
// Continue in buffers of frame bytes.
func (c *qpackConn) encode(stream uint64, fields []tfield, frame int) {
	l, _ := lists(fields)
	var block []byte
	if frame == 0 {
		block = c.enc.AppendSection(stream, nil, l)
	} else {
		buf := make([]byte, frame)
		n, res := c.enc.Begin(stream, buf, l)
		total := n + c.enc.Remaining()
		for {
			if res != fastpath.Done && (res != fastpath.MoreFields || n == 0) {
				c.fatalf("%v with %d bytes written into a %d-byte buffer", res, n, len(buf))
			}
			block = append(block, buf[:n]...)
			if res == fastpath.Done {
				break
			}
			n, res = c.enc.Continue(buf)
		}
		if len(block) != total || c.enc.Remaining() != 0 {
			c.fatalf("planned %d bytes, wrote %d, %d remaining", total, len(block), c.enc.Remaining())
		}
	}
	c.encQ = c.enc.AppendEncoderStream(c.encQ)
	if n := c.enc.BlockedStreams(); uint64(n) > c.ec.MaxBlockedStreams {
		c.fatalf("encoder counts %d blocked streams, %d allowed", n, c.ec.MaxBlockedStreams)
	}
	c.pending[stream] = append(c.pending[stream], qpackSection{stream, block, expected(fields)})
	c.sections++
	if c.ec.AckMode == qpack.AckImmediate {
		// The encoder has counted the section as decoded: it must be.
		c.deliverEncoder(len(c.encQ))
		c.deliverSection(stream)
	}
}

// deliverEncoder passes n bytes of the encoder stream to the decoder and
// decodes the sections that become decodable.
func (c *qpackConn) deliverEncoder(n int) {
	n = min(n, len(c.encQ))
	if err := c.dec.ReadEncoderStream(c.encQ[:n]); err != nil {
		c.fatalf("ReadEncoderStream(% x): %v", c.encQ[:n], err)
	}
	c.encQ = c.encQ[n:]
	for {
		id, ok := c.dec.NextUnblocked()
		if !ok {
			break
		}
		sec, ok := c.held[id]
		if !ok {
			c.fatalf("stream %d unblocked, but it has no held section", id)
		}
		delete(c.held, id)
		var got sink
		if blocked, err := c.dec.DecodeUnblocked(id, &got); blocked || err != nil {
			c.fatalf("DecodeUnblocked(%d): %v, %v", id, blocked, err)
		}
		c.check(sec, got.got)
	}
}

// deliverSection passes the next section of stream to the decoder, unless
// the stream has one held.
func (c *qpackConn) deliverSection(stream uint64) {
	q := c.pending[stream]
	if len(q) == 0 {
		return
	}
	if _, ok := c.held[stream]; ok {
		return
	}
	sec := q[0]
	c.pending[stream] = q[1:]
	var got sink
	blocked, err := c.dec.DecodeSection(stream, sec.block, &got)
	switch {
	case err != nil:
		c.fatalf("DecodeSection(%d, % x): %v", stream, sec.block, err)
	case blocked:
		c.held[stream] = sec
		if n := c.dec.BlockedStreams(); uint64(n) > c.ec.MaxBlockedStreams {
			c.fatalf("%d streams blocked, %d allowed", n, c.ec.MaxBlockedStreams)
		}
	default:
		c.check(sec, got.got)
	}
}

func (c *qpackConn) check(sec qpackSection, got []field) {
	if !neverByPolicy(got, sec.want, c.ec.Indexing == fastpath.IndexDefault) {
		c.fatalf("stream %d, section % x: decoded %v, want %v", sec.stream, sec.block, got, sec.want)
	}
}

// deliverDecoder passes n bytes of the decoder stream to the encoder.
func (c *qpackConn) deliverDecoder(n int) {
	c.decQ = c.dec.AppendDecoderStream(c.decQ)
	if c.ec.AckMode != qpack.AckDecoderStream {
		// AckImmediate has counted everything already, AckNever has no
		// decoder stream.
		c.decQ = c.decQ[:0]
		return
	}
	n = min(n, len(c.decQ))
	if err := c.enc.ReadDecoderStream(c.decQ[:n]); err != nil {
		c.fatalf("ReadDecoderStream(% x): %v", c.decQ[:n], err)
	}
	c.decQ = c.decQ[n:]
}

// cancel resets a stream before its sections are all decoded.
func (c *qpackConn) cancel(stream uint64) {
	if err := c.dec.CancelStream(stream); err != nil {
		c.fatalf("CancelStream(%d): %v", stream, err)
	}
	delete(c.pending, stream)
	delete(c.held, stream)
	c.live = slices.DeleteFunc(c.live, func(id uint64) bool { return id == stream })
}

// streams returns the streams with sections to deliver, sorted.
func (c *qpackConn) streams() []uint64 {
	var ids []uint64
	for id, q := range c.pending {
		if len(q) > 0 {
			ids = append(ids, id)
		}
	}
	for id := range c.held {
		if len(c.pending[id]) == 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// finish delivers everything and checks that nothing is left: every
// section decoded, the tables equal, everything acknowledged.
func (c *qpackConn) finish() {
	c.deliverEncoder(len(c.encQ))
	for ids := c.streams(); len(ids) > 0; ids = c.streams() {
		progress := false
		for _, id := range ids {
			if _, ok := c.held[id]; !ok && len(c.pending[id]) > 0 {
				c.deliverSection(id)
				progress = true
			}
		}
		if !progress {
			c.fatalf("streams %v stay blocked with every insert delivered", ids)
		}
	}
	c.deliverDecoder(1 << 30)
	ins := c.enc.InsertCount()
	if c.dec.InsertCount() != ins {
		c.fatalf("encoder inserted %d, decoder %d", ins, c.dec.InsertCount())
	}
	es, _ := c.enc.TableSize()
	ds, _ := c.dec.TableSize()
	if es != ds {
		c.fatalf("table size: encoder %d, decoder %d", es, ds)
	}
	for abs := ins; abs > 0; abs-- {
		en, ev, eok := c.enc.TableEntry(abs - 1)
		dn, dv, dok := c.dec.TableEntry(abs - 1)
		if eok != dok || string(en) != string(dn) || string(ev) != string(dv) {
			c.fatalf("entry %d: encoder %q: %q (%v), decoder %q: %q (%v)", abs-1, en, ev, eok, dn, dv, dok)
		}
		if !eok {
			break
		}
	}
	if c.ec.AckMode == qpack.AckDecoderStream && (c.enc.Outstanding() != 0 || c.enc.KnownReceivedCount() != ins || c.enc.BlockedStreams() != 0) {
		c.fatalf("all acknowledged, but %d sections outstanding, %d of %d inserts known, %d blocked streams",
			c.enc.Outstanding(), c.enc.KnownReceivedCount(), ins, c.enc.BlockedStreams())
	}
}

// FuzzQPACKRoundTrip encodes arbitrary field lists with arbitrary settings
// (table capacity, blocked streams, Huffman, indexing and acknowledgment
// policies) on several streams, and delivers the encoder stream late and in
// pieces, the sections of different streams in any order, acknowledgments
// fed back in pieces or withheld, streams cancelled. Every section decodes
// to its list exactly (never-indexed kept), no more streams block than
// allowed, neither side reports an error, and once everything is delivered
// the tables are equal and everything is acknowledged.
// qpackRepeatSeed encodes a section of four fields (x-custom, cache-control:
// no-cache, a raw Content-Length, content-type: text/html) on a 4096-byte
// table, delivers everything and acknowledges it, then repeats the section
// on new streams, once with a new Content-Length: the third and later
// sections are repeated plans.
var qpackRepeatSeed = []byte("\x64\x00" +
	"\x00\x04\x03\x09\x08\x04\x08\x06\x00\x05\x05\x04\x03" + "\x03\x00\x04\x00\x06\x00" +
	"\x20\x03\x00\x04\x00\x06\x00" + "\x20\x03\x00\x04\x00\x06\x00" +
	"\x60\x07\x03\x00\x04\x00\x06\x00" + "\x20\x03\x00\x04\x00\x06\x00")

func FuzzQPACKRoundTrip(f *testing.F) {
	f.Add([]byte("\x02\x00\x00\x03\x03\x00\x03\x01\x04\x01\x03\x00\x04\x06\x00"))
	f.Add([]byte("\x64\x05\x08\x04\x03\x00\x00\x04\x00\x05\x04\x01\x05\x0b\x01\x06\x02\x05\x00\x03\x08\x00\x04\x00\x06\x00\x07\x00"))
	f.Add([]byte("\x21\x01\x00\x05\x03\x04\x00\x00\x05\x03\x04\x00\x00\x05\x03\x04\x00\x00\x04\x00\x04\x01\x03\x00\x06\x00"))
	f.Add([]byte("\x41\x21\x40\x03\x03\x06\x08\x06\x05\x09\x03\x0a\x02\x0b\x06\x02xx\x03yy\x03\x00\x05\x00\x06\x00"))
	f.Add([]byte("\x04\x32\x08\x04\x05\x03\x05\x01\x03\x06\x01\x03\x07\x01\x02\x08\x03\x06\x00\x02\x06\x05\x00\x07\x00"))
	f.Add([]byte("\x03\x10\x00\x02\x03\x00\x02\x00\x04\x00\x03\x05\x00\x05\x00\x00\x03\x02\x03\x00\x01\x04\x00\x03\x00"))
	f.Add(qpackRepeatSeed)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := script{data}
		ec, dc := readQPACKConfig(&s)
		c := newQPACKConn(t, ec, dc)
		for ops := 0; s.more() && ops < 64 && c.sections < 12; ops++ {
			op := s.byte()
			switch op & 7 {
			case 0, 1, 2:
				stream := c.next
				if op&8 != 0 && len(c.live) > 0 {
					stream = c.live[s.pick(len(c.live))]
				} else {
					c.next += 4
					c.live = append(c.live, stream)
				}
				frame := 0
				if op&0x10 != 0 {
					frame = 1 + s.pick(100)
				}
				// 0x20 repeats the last section with the same strings, as a
				// server does, and 0x40 gives its raw Content-Lengths new
				// numbers: the encoder's memos see the fields again.
				fields := c.last
				if op&0x20 == 0 || fields == nil {
					fields = readFields(&s, 10)
				} else if op&0x40 != 0 {
					fields = withNewLengths(&s, fields)
				}
				c.last = fields
				c.encode(stream, fields, frame)
			case 3:
				n := s.pick(64)
				if n == 0 {
					n = len(c.encQ)
				}
				c.deliverEncoder(n)
			case 4, 5:
				if ids := c.streams(); len(ids) > 0 {
					c.deliverSection(ids[s.pick(len(ids))])
				}
			case 6:
				n := s.pick(32)
				if n == 0 {
					n = 1 << 30
				}
				c.deliverDecoder(n)
			case 7:
				if ids := c.streams(); len(ids) > 0 && op&8 != 0 {
					c.cancel(ids[s.pick(len(ids))])
				}
			}
		}
		c.finish()
	})
}
