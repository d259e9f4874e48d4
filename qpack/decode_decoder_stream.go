package qpack

import "github.com/hqpack/hqpack/internal/wire"

// AppendDecoderStream appends the decoder-stream instructions (RFC 9204
// §4.4) that are due, for the caller to send on its decoder stream, and
// returns the extended slice:
//   - a Section Acknowledgment for each decoded section that referenced the
//     dynamic table, and a Stream Cancellation for each cancelled stream,
//     in the order they happened;
//   - then one Insert Count Increment for the inserts the encoder has not
//     yet learned of from those acknowledgments.
//
// The increment is computed here, not per insert, so one call after each
// ReadEncoderStream sends at most one, and acknowledgments that cover the
// inserts make it unnecessary (as in RFC 9204 Appendix B.2). Call it after
// any call that may have queued something; it appends nothing when nothing
// is due, and nothing after a connection error.
func (d *Decoder) AppendDecoderStream(dst []byte) []byte {
	if d.err != nil {
		return dst
	}
	dst = append(dst, d.out...)
	d.out = d.out[:0]
	if n := d.tbl.Inserted(); n > d.known {
		dst = wire.AppendInt(dst, 0x00, 6, n-d.known)
		d.known = n
	}
	return dst
}

// cancel queues a Stream Cancellation (01, 6-bit stream ID).
func (d *Decoder) cancel(stream uint64) {
	if d.maxCap > 0 {
		d.out = wire.AppendInt(d.out, 0x40, 6, stream)
	}
}
