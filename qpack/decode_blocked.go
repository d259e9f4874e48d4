package qpack

import "github.com/hqpack/hqpack/fastpath"

// heldSection is a section that arrived before the inserts it needs.
type heldSection struct {
	stream uint64
	ric    uint64 // Required Insert Count
	base   uint64
	seq    uint64 // arrival order
	off    int    // prefix length, so error offsets count from the section start
	buf    []byte // a copy of the whole section
}

// blockedSet holds sections sorted by Required Insert Count, then arrival.
// Insert counts only grow, so the decodable ones are always a prefix. A
// Decoder makes it when it first holds a section.
type blockedSet struct {
	held     []heldSection
	ready    int // held[:ready] have all their inserts
	notified int // held[:notified] were named by NextUnblocked
	seq      uint64
	spare    [][]byte // buffers of decoded sections, for reuse
}

// Reuse bounds: a decoder keeps at most maxSpare buffers of at most
// maxSpareSize bytes once its held sections are gone.
const (
	maxSpare     = 64
	maxSpareSize = 16 << 10
)

// hold copies a section whose Required Insert Count is not reached yet.
// DecodeSection has checked that the stream has none held.
func (d *Decoder) hold(stream, ric, base uint64, section []byte, off int) error {
	if d.blockedSet == nil {
		d.blockedSet = new(blockedSet)
	}
	if len(d.held)-d.ready >= int(d.maxBlocked) {
		return d.fail(ErrCodeDecompressionFailed, stream, 0, ErrTooManyBlocked)
	}
	if len(section) > int(d.maxHeld) {
		// Never acknowledged: cancel it so the encoder drops its references.
		d.cancel(stream)
		return &Error{Code: ErrCodeMessage, StreamID: stream, Err: fastpath.ErrSectionTooLarge}
	}
	var buf []byte
	if n := len(d.spare); n > 0 {
		buf, d.spare = d.spare[n-1], d.spare[:n-1]
	}
	h := heldSection{stream, ric, base, d.seq, off, append(buf[:0], section...)}
	d.seq++
	i := len(d.held)
	for i > d.ready && d.held[i-1].ric > ric {
		i--
	}
	d.held = append(d.held, heldSection{})
	copy(d.held[i+1:], d.held[i:])
	d.held[i] = h
	return nil
}

// unblock marks the held sections whose inserts have all arrived.
func (d *Decoder) unblock() {
	if d.blockedSet == nil {
		return
	}
	n := d.tbl.Inserted()
	for d.ready < len(d.held) && d.held[d.ready].ric <= n {
		d.ready++
	}
}

// find returns the index of stream's held section, or -1.
func (d *Decoder) find(stream uint64) int {
	if d.blockedSet == nil {
		return -1
	}
	for i := range d.held {
		if d.held[i].stream == stream {
			return i
		}
	}
	return -1
}

// remove drops held[i] and returns it.
func (d *Decoder) remove(i int) heldSection {
	h := d.held[i]
	copy(d.held[i:], d.held[i+1:])
	d.held[len(d.held)-1] = heldSection{}
	d.held = d.held[:len(d.held)-1]
	if i < d.ready {
		d.ready--
	}
	if i < d.notified {
		d.notified--
	}
	return h
}

func (d *Decoder) recycle(buf []byte) {
	if buf != nil && cap(buf) <= maxSpareSize && len(d.spare) < maxSpare {
		d.spare = append(d.spare, buf[:0])
	}
}

// BlockedStreams returns how many held sections still wait for inserts.
func (d *Decoder) BlockedStreams() int {
	if d.blockedSet == nil {
		return 0
	}
	return len(d.held) - d.ready
}

// NextUnblocked returns a stream whose held section can now be decoded,
// each such stream once, in the order the sections became decodable (then
// arrival order). After ReadEncoderStream, call it until ok is false and
// route each stream to DecodeUnblocked with that request's sink: the
// decoder keeps the section until then. Held sections that are ready but
// not decoded no longer count as blocked, so drain them promptly.
func (d *Decoder) NextUnblocked() (streamID uint64, ok bool) {
	if d.err != nil || d.blockedSet == nil || d.notified >= d.ready {
		return 0, false
	}
	d.notified++
	return d.held[d.notified-1].stream, true
}

// DecodeUnblocked decodes the section held for streamID into sink, as
// DecodeSection would have, and releases it. blocked is true (and nothing
// happens) while the inserts it needs have not all arrived. A stream with
// no held section is ErrNoBlockedSection, a usage error that leaves the
// Decoder as it was.
func (d *Decoder) DecodeUnblocked(streamID uint64, sink fastpath.Sink) (blocked bool, err error) {
	d.setup()
	if d.err != nil {
		return false, d.closedErr
	}
	i := d.find(streamID)
	if i < 0 {
		return false, ErrNoBlockedSection
	}
	if i >= d.ready {
		return true, nil
	}
	h := d.remove(i)
	err = d.decodeLines(h.stream, h.ric, h.base, h.buf, h.off, sink)
	d.recycle(h.buf)
	return false, err
}

// CancelStream tells the decoder that streamID was reset, or its reading
// abandoned, before all of its field sections were decoded (RFC 9204
// §2.2.2.2). A section held for it is released, and a Stream Cancellation
// is queued for the decoder stream so the encoder drops the stream's
// references. It is queued whether or not a section was seen: the decoder
// cannot know what the unread part of the stream referenced. A decoder
// with MaxTableCapacity 0 sends none (the RFC allows omitting them, as no
// section can reference the dynamic table).
func (d *Decoder) CancelStream(streamID uint64) error {
	d.setup()
	if d.err != nil {
		return d.closedErr
	}
	if i := d.find(streamID); i >= 0 {
		d.recycle(d.remove(i).buf)
	}
	d.cancel(streamID)
	return nil
}
