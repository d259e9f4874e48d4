package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// encoderLine is the encoder-stream reader's state between reads.
type encoderLine struct {
	pend   []byte // the unfinished instruction, from its first byte
	need   int    // how many bytes pend must hold before it is parsed again
	encOff int    // encoder-stream offset of the next instruction
}

// parsed, when set (by tests only), is called for every instruction parsed,
// complete or not: TestEncoderStreamLinear counts the calls.
var parsed func()

// ReadEncoderStream applies the next bytes of the peer's encoder stream
// (RFC 9204 §4.3). Instructions may be split anywhere across calls: the
// decoder keeps only the unfinished one, up to MaxEncoderStreamBuffer bytes,
// and parses it again only once enough bytes for progress have arrived, so
// the work stays linear in the input.
//
// Inserts may unblock held sections: see NextUnblocked. Errors are
// connection errors of code QPACK_ENCODER_STREAM_ERROR; their Offset counts
// from the start of the encoder stream.
func (d *Decoder) ReadEncoderStream(b []byte) error {
	d.setup()
	if d.err != nil {
		return d.closedErr
	}
	err := d.readEncoderStream(b)
	d.unblock()
	return err
}

func (d *Decoder) readEncoderStream(b []byte) error {
	// Finish the instruction left over from earlier reads, topping it up
	// only to the bytes it is known to need.
	for len(d.pend) > 0 && (len(b) > 0 || d.need <= len(d.pend)) {
		if k := min(d.need-len(d.pend), len(b)); k > 0 {
			d.pend = append(d.pend, b[:k]...)
			b = b[k:]
		}
		if len(d.pend) < d.need {
			return nil
		}
		n, need, err := d.instruction(d.pend)
		if err != nil {
			return err
		}
		if n == 0 {
			if need > int(d.maxEncBuf) {
				return d.encErr(len(d.pend), ErrBufferLimit)
			}
			d.need = need
			continue
		}
		d.encOff += n
		d.pend = d.pend[:copy(d.pend, d.pend[n:])]
		d.need = 0
		if len(d.pend) == 0 && cap(d.pend) > 4096 {
			d.pend = nil // do not pin one large insert's buffer
		}
	}
	for len(b) > 0 {
		n, need, err := d.instruction(b)
		if err != nil {
			return err
		}
		if n == 0 {
			if need > int(d.maxEncBuf) {
				return d.encErr(len(b), ErrBufferLimit)
			}
			d.pend = append(d.pend[:0], b...)
			d.need = need
			return nil
		}
		d.encOff += n
		b = b[n:]
	}
	return nil
}

// encErr fails the connection with an encoder-stream error at offset off of
// the current instruction.
func (d *Decoder) encErr(off int, cause error) error {
	return d.fail(ErrCodeEncoderStream, 0, d.encOff+off, cause)
}

// instruction parses and applies the instruction at the start of p. It
// returns its length n, or n == 0 and the number of bytes it needs at least
// (more than len(p)) when p ends inside it. Nothing is applied until the
// instruction is complete, so parsing it again later is safe.
func (d *Decoder) instruction(p []byte) (n, need int, err error) {
	if parsed != nil {
		parsed()
	}
	b := p[0]
	switch {
	case b&0x80 != 0: // 1Txxxxxx Insert With Name Reference
		idx, k, err := wire.ReadInt(p, 6)
		if err != nil {
			return d.encIntErr(p, 0, err)
		}
		var name []byte
		var id static.FieldID
		if b&0x40 != 0 {
			if idx >= static.QPACKLen {
				return 0, 0, d.encErr(0, fastpath.ErrInvalidIndex)
			}
			name, id = static.QPACKBytes[idx].Name, static.QPACKBytes[idx].ID
		} else {
			nm, _, tag, ok := d.tbl.GetTagged(idx)
			if !ok {
				return 0, 0, d.encErr(0, fastpath.ErrInvalidIndex)
			}
			name, id = nm, static.FieldID(tag)
		}
		value, end, need, err := d.encString(p, k, 7, len(name), &d.valueBuf)
		if end == 0 {
			return 0, need, err
		}
		return end, 0, d.insert(name, value, id)

	case b&0x40 != 0: // 01Hxxxxx Insert With Literal Name
		name, k, need, err := d.encString(p, 0, 5, 0, &d.nameBuf)
		if k == 0 {
			return 0, need, err
		}
		value, end, need, err := d.encString(p, k, 7, len(name), &d.valueBuf)
		if end == 0 {
			return 0, need, err
		}
		id := static.None
		if len(name) <= maxStaticName {
			id = static.LookupBytes(name)
		}
		return end, 0, d.insert(name, value, id)

	case b&0x20 != 0: // 001xxxxx Set Dynamic Table Capacity
		c, k, err := wire.ReadInt(p, 5)
		if err != nil {
			return d.encIntErr(p, 0, err)
		}
		if c > uint64(d.maxCap) {
			return 0, 0, d.encErr(0, ErrCapacity)
		}
		d.tbl.SetCapacity(int(c))
		return k, 0, nil

	default: // 000xxxxx Duplicate
		idx, k, err := wire.ReadInt(p, 5)
		if err != nil {
			return d.encIntErr(p, 0, err)
		}
		name, value, tag, ok := d.tbl.GetTagged(idx)
		if !ok {
			return 0, 0, d.encErr(0, fastpath.ErrInvalidIndex)
		}
		if err := d.insert(name, value, static.FieldID(tag)); err != nil {
			return 0, 0, err
		}
		return k, 0, nil
	}
}

// maxStaticName is the longest static-table name
// ("access-control-allow-credentials"); longer names skip the lookup.
const maxStaticName = 32

// encIntErr turns a ReadInt failure at p[off:] into "need one more byte"
// or a connection error.
func (d *Decoder) encIntErr(p []byte, off int, err error) (int, int, error) {
	if err == wire.ErrTruncated {
		return 0, len(p) + 1, nil
	}
	return 0, 0, d.encErr(off, err)
}

// encString reads the string literal at p[off:] (H flag at bit n, n-bit
// length) into *buf when Huffman-coded. end is the offset just past it; end
// == 0 means p ends first (need says how far it must reach) or err. extra
// is the size already committed to the entry (the name's length), so an
// entry that cannot fit the table is rejected from the length alone,
// before its bytes are awaited.
func (d *Decoder) encString(p []byte, off int, n uint8, extra int, buf *[]byte) (s []byte, end, need int, err error) {
	if off >= len(p) {
		return nil, 0, off + 1, nil
	}
	l, k, err := wire.ReadInt(p[off:], n)
	if err != nil {
		_, need, err := d.encIntErr(p, off, err)
		return nil, 0, need, err
	}
	if l > uint64(d.maxString) {
		return nil, 0, 0, d.encErr(off, fastpath.ErrStringTooLong)
	}
	least := int(l) // fewest octets this string can decode to
	if p[off]&(1<<n) != 0 && l > 0 {
		least = int((8*l - 7) / 30) // the longest Huffman code is 30 bits
	}
	if extra+least+table.Overhead > d.tbl.Capacity() {
		return nil, 0, 0, d.encErr(0, ErrCapacity)
	}
	end = off + k + int(l)
	if end > len(p) {
		return nil, 0, end, nil
	}
	s, *buf, _, err = wire.ReadString((*buf)[:0], p[off:end], n, int(d.maxString))
	if err != nil {
		return nil, 0, 0, d.encErr(off, err)
	}
	return s, end, 0, nil
}

// insert adds an entry, or fails the connection when it cannot fit. name
// and value may alias an entry the insert evicts: the table allows it.
func (d *Decoder) insert(name, value []byte, id static.FieldID) error {
	if len(name)+len(value)+table.Overhead > d.tbl.Capacity() {
		return d.encErr(0, ErrCapacity)
	}
	// The FieldID rides with the entry: found once here, not per reference.
	d.tbl.AddTagged(name, value, uint8(id))
	return nil
}
