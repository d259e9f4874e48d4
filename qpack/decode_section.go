package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// DecodeSection decodes one encoded field section (the payload of a HEADERS
// frame) received on streamID, handing each field to sink in order.
//
// When the section needs inserts the decoder has not received yet, it is
// copied and held, blocked is true, and sink is not called: once
// ReadEncoderStream brings the inserts, NextUnblocked names the stream and
// DecodeUnblocked decodes it. At most MaxBlockedStreams sections wait at
// once; one more is ErrTooManyBlocked. Otherwise section is not retained:
// the caller may reuse it once DecodeSection returns.
//
// Errors:
//   - *Error with Code QPACK_DECOMPRESSION_FAILED: the section cannot be
//     decoded (fastpath.ErrInvalidIndex, ErrRequiredInsertCount,
//     fastpath.ErrTruncated, ErrTooManyBlocked, ...); a connection error,
//     the Decoder is closed.
//   - *Error with Code H3_MESSAGE_ERROR (fastpath.ErrMalformedField and its
//     kinds, fastpath.ErrSectionTooLarge, fastpath.ErrStringTooLong,
//     ErrTooManyFields): the message is malformed or over a limit; a stream
//     error, the Decoder stays usable.
//     A blocked section over MaxBlockedSectionSize is one too; the decoder
//     then queues the stream's Stream Cancellation itself.
//   - an error returned by sink, as is; the Decoder stays usable.
//   - ErrStreamBlocked, as is, for a second section on a stream whose first
//     is held; the Decoder is unchanged.
//
// A section that references the dynamic table is acknowledged on the decoder
// stream once decoded, including after a stream error or a sink error.
func (d *Decoder) DecodeSection(streamID uint64, section []byte, sink fastpath.Sink) (blocked bool, err error) {
	d.setup()
	if d.err != nil {
		return false, d.closedErr
	}
	if d.blockedSet != nil && len(d.held) > 0 && d.find(streamID) >= 0 {
		// Even a section that would not block: decoding it ahead of the
		// held one would acknowledge sections out of order.
		return false, ErrStreamBlocked
	}
	var ric, base uint64
	k := 2
	if len(section) < 2 || section[0] != 0 || section[1] != 0 { // not static-only
		var err error
		if ric, base, k, err = d.prefix(section); err != nil {
			return false, d.fail(ErrCodeDecompressionFailed, streamID, k, err)
		}
	}
	if ric > d.tbl.Inserted() {
		if err := d.hold(streamID, ric, base, section, k); err != nil {
			return false, err
		}
		return true, nil
	}
	return false, d.decodeLines(streamID, ric, base, section, k, sink)
}

// prefix decodes the Required Insert Count and Base (RFC 9204 §4.5.1). It
// returns the prefix length, or the error's offset.
//
// A Required Insert Count larger than the section's references need is
// accepted (§2.2.1 allows, but does not require, rejecting it): it costs
// the peer a needless block at worst, and no file of the QIFS corpus sends
// one.
func (d *Decoder) prefix(p []byte) (ric, base uint64, n int, err error) {
	enc, k, err := wire.ReadInt(p, 8)
	if err != nil {
		return 0, 0, 0, err
	}
	if enc != 0 {
		full := 2 * d.maxEntries
		if enc > full {
			return 0, 0, 0, ErrRequiredInsertCount
		}
		maxValue := d.tbl.Inserted() + d.maxEntries
		ric = maxValue/full*full + enc - 1
		if ric > maxValue {
			if ric <= full {
				return 0, 0, 0, ErrRequiredInsertCount
			}
			ric -= full
		}
		if ric == 0 {
			return 0, 0, 0, ErrRequiredInsertCount
		}
	}
	if k >= len(p) {
		return 0, 0, k, fastpath.ErrTruncated
	}
	delta, k2, err := wire.ReadInt(p[k:], 7)
	if err != nil {
		return 0, 0, k, err
	}
	if p[k]&0x80 == 0 {
		base = ric + delta
	} else {
		// The Base must not be negative: RIC <= DeltaBase is invalid.
		if ric <= delta {
			return 0, 0, k, ErrRequiredInsertCount
		}
		base = ric - delta - 1
	}
	return ric, base, k + k2, nil
}

// decodeLines decodes the field lines of p from off, then acknowledges the
// section when it has dynamic references (even after a stream error).
func (d *Decoder) decodeLines(stream, ric, base uint64, p []byte, off int, sink fastpath.Sink) (err error) {
	st := lineState{stream: stream, ric: ric, base: base, budget: int(d.maxSection)}
	// The memo is for sections without dynamic references (see Decoder).
	d.memoOn = ric == 0 && (d.memo != nil || d.startMemo())
	if d.memoOn {
		st.pred = &d.memo.first
	}
	for {
		if off, err = d.fastLines(p, off, &st, sink); err != nil || off >= len(p) {
			break
		}
		// A line fastLines leaves.
		if off, err = d.line(p, off, &st, sink); err != nil {
			break
		}
	}
	if ric == 0 && !d.memoOn {
		// The first section without references: from the next, the memo
		// takes its strings, so the scratch it grew need not stay.
		wipe(d.nameBuf)
		wipe(d.valueBuf)
		d.nameBuf, d.valueBuf = nil, nil
	}
	if d.err == nil && ric != 0 {
		// A Section Acknowledgment (RFC 9204 §4.4.1).
		d.out = wire.AppendInt(d.out, 0x80, 7, stream)
		d.known = max(d.known, ric)
	}
	return err
}

// startMemo makes the memo at the second section without dynamic
// references (one request alone never needs it) and reports whether it did.
func (d *Decoder) startMemo() bool {
	if d.static1 {
		d.memo = newDecMemo()
	}
	d.static1 = true
	return d.memo != nil
}

// line decodes the line at p[off:], with every form and every check, and
// returns the offset past it.
func (d *Decoder) line(p []byte, off int, st *lineState, sink fastpath.Sink) (int, error) {
	stream, budget := st.stream, st.budget
	b := p[off]
	start := off
	var (
		name, value []byte
		id          static.FieldID
		f           fastpath.Flags
		err         error
		idx         uint64
		k           int
		ok          bool
	)
	// A reference: its prefix bits n, whether a value literal follows,
	// and whether its index is static or post-base.
	n, lit, stat, post := uint8(6), false, b&0x40 != 0, false
	switch {
	case b&0x80 != 0: // 1Txxxxxx Indexed Field Line
	case b&0x40 != 0: // 01NTxxxx Literal Field Line with Name Reference
		n, lit, stat = 4, true, b&0x10 != 0
		if b&0x20 != 0 {
			f = fastpath.NeverIndex
		}
	case b&0x20 != 0: // 001NHxxx Literal Field Line with Literal Name
		if b&0x10 != 0 {
			f = fastpath.NeverIndex
		}
		if name, off, err = d.sectionString(p, off, 3, &d.nameBuf, budget, true); err != nil {
			return 0, d.sectionErr(stream, off, err)
		}
		if value, off, err = d.sectionString(p, off, 7, &d.valueBuf, budget-len(name), false); err != nil {
			return 0, d.sectionErr(stream, off, err)
		}
		goto field // nothing of a reference lives across the strings
	case b&0x10 != 0: // 0001xxxx Indexed Field Line with Post-Base Index
		n, post = 4, true
	default: // 0000Nxxx Literal Field Line with Post-Base Name Reference
		n, lit, post = 3, true, true
		if b&0x08 != 0 {
			f = fastpath.NeverIndex
		}
	}
	if idx, k, err = wire.ReadInt(p[off:], n); err != nil {
		return 0, d.sectionErr(stream, off, err)
	}
	switch {
	case stat:
		if ok = idx < static.QPACKLen; ok {
			e := &static.QPACKBytes[idx]
			name, value, id = e.Name, e.Value, e.ID
		}
	case post:
		name, value, id, ok = d.dynamic(st.base+idx, st.ric)
	case idx < st.base:
		name, value, id, ok = d.dynamic(st.base-1-idx, st.ric)
	}
	if !ok {
		return 0, d.sectionErr(stream, off, fastpath.ErrInvalidIndex)
	}
	off += k
	if lit {
		if value, off, err = d.sectionString(p, off, 7, &d.valueBuf, budget-len(name), false); err != nil {
			return 0, d.sectionErr(stream, off, err)
		}
	}
field:
	size := len(name) + len(value) + table.Overhead
	if size > budget {
		return 0, d.sectionErr(stream, start, fastpath.ErrSectionTooLarge)
	}
	st.budget = budget - size
	if st.fields++; st.fields > int(d.maxFields) {
		return 0, d.sectionErr(stream, start, ErrTooManyFields)
	}
	f = f.WithID(id)
	if d.validate {
		if err := st.check.Field(name, value, f.ID()); err != nil {
			return 0, d.sectionErr(stream, start, err)
		}
	}
	return off, sink.Field(name, value, f)
}

// dynamic returns the entry with absolute index abs, which the section may
// reference only below its Required Insert Count and only while it is in
// the table (RFC 9204 §2.2.3).
func (d *Decoder) dynamic(abs, ric uint64) (name, value []byte, id static.FieldID, ok bool) {
	// Past the table, n-1-abs wraps around, and Ref returns nil.
	e := d.tbl.Ref(d.tbl.Inserted() - 1 - abs)
	if abs >= ric || e == nil {
		return nil, nil, 0, false
	}
	name, value = d.tbl.Bytes(e)
	return name, value, static.FieldID(e.Tag()), true
}

// sectionString reads the string literal at p[off:] (H flag at bit n,
// n-bit length), decoding Huffman into *buf or taking it from the memo.
// room is what is left of the section budget before this field's 32-byte
// overhead. It returns the offset past the string; on error, the offset of
// the string. With own, a string from the memo is copied into *buf: it
// stays valid while another string is read (whose decoding may evict the
// memo's entry).
func (d *Decoder) sectionString(p []byte, off int, n uint8, buf *[]byte, room int, own bool) ([]byte, int, error) {
	limit := min(int(d.maxString), room-table.Overhead)
	if limit < 0 {
		return nil, off, fastpath.ErrSectionTooLarge
	}
	if off >= len(p) || p[off]&(1<<n) == 0 || !d.memoOn {
		return d.readString(p, off, n, buf, limit)
	}
	l, k, err := wire.ReadInt(p[off:], n)
	if err != nil || l > uint64(limit) || l > uint64(len(p)-off-k) {
		return d.readString(p, off, n, buf, limit) // the error, as it says it
	}
	start, end := off+k, off+k+int(l)
	var s []byte
	if j := d.memo.index(p, start, end); j >= 0 {
		if s = d.memo.out(&d.memo.ents[j]); len(s) > limit {
			return d.readString(p, off, n, buf, limit)
		}
	} else if b := d.memo.room(p[start:end]); b == nil {
		return d.readString(p, off, n, buf, limit)
	} else if s, _, err = d.readString(p, off, n, &b, limit); err != nil {
		return nil, off, err
	} else {
		d.memo.keep(p[start:end], s) // decoded into the memo, not into *buf
	}
	if own {
		*buf = append((*buf)[:0], s...)
		s = (*buf)[:len(s):len(s)]
	}
	return s, end, nil
}

// readString reads the string literal at p[off:] with wire.ReadString,
// decoding Huffman into *buf, as sectionString does without the memo.
func (d *Decoder) readString(p []byte, off int, n uint8, buf *[]byte, limit int) ([]byte, int, error) {
	s, nb, k, err := wire.ReadString((*buf)[:0], p[off:], n, limit)
	*buf = nb
	if err != nil {
		if err == fastpath.ErrStringTooLong && limit < int(d.maxString) {
			err = fastpath.ErrSectionTooLarge
		}
		return nil, off, err
	}
	return s, off + k, nil
}

// sectionErr classifies a failure inside a section: limits and malformed
// fields leave the decoder's state intact and end only the stream; anything
// else fails the connection.
func (d *Decoder) sectionErr(stream uint64, off int, cause error) error {
	switch cause {
	case fastpath.ErrSectionTooLarge, fastpath.ErrStringTooLong, ErrTooManyFields,
		fastpath.ErrInvalidFieldName, fastpath.ErrInvalidFieldValue, fastpath.ErrPseudoAfterRegular:
		return &Error{Code: ErrCodeMessage, StreamID: stream, Offset: off, Err: cause}
	}
	return d.fail(ErrCodeDecompressionFailed, stream, off, cause)
}
