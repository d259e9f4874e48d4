package hpack

import (
	"github.com/hqpack/hqpack/internal/field"
	"math"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// decMaxTable bounds table sizes and string lengths so that they stay ints
// (and lengths fit the table's uint32) on every platform.
const decMaxTable = math.MaxInt32

// decKeep is the most scratch memory a Decoder keeps between sections.
const decKeep = 16 << 10

// defaultMaxSectionSize is the default bound on a decoded field section:
// 64 KiB of name + value + 32 per field, the size nghttp2 and most proxies
// accept before answering 431.
const defaultMaxSectionSize = 64 << 10

// DecoderConfig configures a Decoder. The zero DecoderConfig is the
// default: HTTP/2's initial 4096-octet table, 64 KiB sections, strings up
// to the section size, no field-count cap, no validation.
type DecoderConfig struct {
	// MaxTableSize is our SETTINGS_HEADER_TABLE_SIZE when decoding starts:
	// the largest table size the peer may set. 0 means DefaultTableSize
	// and NoTable means 0; SetMaxTableSize changes it later, when the peer
	// acknowledges new SETTINGS.
	MaxTableSize int
	// InitialTableSize is the table size the peer starts with, before any
	// Dynamic Table Size Update: HTTP/2's DefaultTableSize when 0 (NoTable
	// for 0). When it is above MaxTableSize, the first section must start
	// with an update to at most MaxTableSize.
	InitialTableSize int
	// MaxSectionSize bounds each field section: the sum over its fields of
	// len(name) + len(value) + 32, our SETTINGS_MAX_HEADER_LIST_SIZE (RFC
	// 9113 §6.5.2). It is counted as fields arrive, so a section that
	// references one large entry thousands of times stops at the limit.
	// 0 means 64 KiB; math.MaxInt means no limit.
	MaxSectionSize int
	// MaxStringLength bounds each name and value, checked on the wire
	// length before any Huffman decoding and again on the decoded length.
	// 0 means MaxSectionSize.
	MaxStringLength int
	// MaxFields caps the number of fields in a section; 0 means no cap.
	MaxFields int
	// Validate checks every field as it is decoded: names and values per
	// RFC 9113 §8.2.1, pseudo-header fields before regular ones (§8.3).
	// A malformed field is reported as an *Error with ErrCodeProtocol, a
	// stream error: the decoder keeps decoding (its table stays in sync)
	// and stays usable.
	Validate bool
}

// A Decoder decodes HPACK field sections (RFC 7541) for one direction of
// one connection. The zero Decoder is ready to use with the default
// DecoderConfig; Init sets another. A Decoder is not safe for concurrent
// use.
//
// Fields go to a fastpath.Sink as they are decoded. Names and values are
// byte slices that alias the input, the dynamic table, a scratch buffer or
// the static table, valid until the Sink's Field returns. Their Flags carry
// NeverIndex for never-indexed literals and the name's fastpath.FieldID
// whenever the name is a static-table name.
//
// Errors: an *Error whose ConnectionError is true (COMPRESSION_ERROR, final:
// every later call fails with fastpath.ErrClosed), or a stream-level error for
// the section alone: an *Error with ErrCodeProtocol when validation is on, or
// an error the Sink returned.
type Decoder struct {
	tab       table.Table
	ready     bool
	maxTable  int // our setting: the largest size update accepted
	lowTable  int // smallest setting since the peer last signaled a size
	maxSect   int
	maxString int
	maxFields int // math.MaxInt for no cap
	validate  bool
	slow      bool // validate, or the section has a stream error

	// The section being decoded.
	pos     int         // section offset of the representation being decoded
	used    int         // section size so far
	fields  int         // fields so far
	updates int         // size updates at the start of the section
	started bool        // a field was decoded: no more size updates
	check   field.Check // validation of the section's fields so far
	stream  error       // first stream-level error; delivery stopped

	err  error  // fatal error: the decoder is closed
	buf  []byte // streaming: the unfinished representation
	want int    // streaming: bytes buf needs before it is measured again
	huff []byte // Huffman-decoded strings of the current field
	work decWork
}

// decWork counts the decoder's work over its life, so that tests can check
// that it stays linear in the input however the input is cut.
type decWork struct {
	parsed   int // bytes handed to the representation decoder
	measures int // length-prefix scans of a cut representation
}

// Init resets d to a fresh decoding context configured by c (a new
// connection). It keeps the memory of its table and scratch buffers, wiped:
// nothing of the last connection's fields stays.
func (d *Decoder) Init(c DecoderConfig) {
	clear(d.buf[:cap(d.buf)])
	clear(d.huff[:cap(d.huff)])
	*d = Decoder{buf: d.buf[:0], huff: d.huff[:0], tab: d.tab, work: d.work}
	d.maxTable = decTableSize(c.MaxTableSize)
	d.lowTable = d.maxTable
	d.maxSect = c.MaxSectionSize
	if d.maxSect <= 0 {
		d.maxSect = defaultMaxSectionSize
	}
	d.maxString = c.MaxStringLength
	if d.maxString <= 0 {
		d.maxString = d.maxSect
	}
	d.maxString = min(d.maxString, decMaxTable)
	d.maxFields = c.MaxFields
	if d.maxFields <= 0 {
		d.maxFields = math.MaxInt
	}
	d.validate, d.slow = c.Validate, c.Validate
	d.tab.Init(decTableSize(c.InitialTableSize), false)
	d.ready = true
}

// decTableSize reads a DecoderConfig table size: 0 is the default, NoTable
// (any negative) is 0.
func decTableSize(n int) int {
	switch {
	case n == 0:
		return DefaultTableSize
	case n < 0:
		return 0
	}
	return min(n, decMaxTable)
}

func (d *Decoder) init() {
	if !d.ready {
		d.Init(DecoderConfig{})
	}
}

// SetMaxTableSize records a new SETTINGS_HEADER_TABLE_SIZE of ours, once
// the peer has acknowledged it: the largest Dynamic Table Size Update
// accepted from then on. When n is below the table size the peer uses,
// the peer must start its next section with an update to at most n (the
// smallest setting since its last update, RFC 7541 §4.2); a section that
// does not is ErrSizeUpdate. Call it between sections.
func (d *Decoder) SetMaxTableSize(n uint32) {
	d.init()
	v := int(min(uint64(n), decMaxTable))
	d.maxTable = v
	d.lowTable = min(d.lowTable, v)
}

// TableSize returns the dynamic table's size (the sum of its entries'
// sizes) and its capacity, the size the peer last set.
func (d *Decoder) TableSize() (size, capacity int) {
	d.init()
	return d.tab.Size(), d.tab.Capacity()
}

// TableLen returns the number of entries in the dynamic table.
func (d *Decoder) TableLen() int { return d.tab.Len() }

// TableEntry returns dynamic table entry i, counted from the newest (0),
// which is HPACK index 62 + i. The slices alias the table: valid until the
// next call that decodes.
func (d *Decoder) TableEntry(i int) (name, value []byte, ok bool) {
	if i < 0 {
		return nil, nil, false
	}
	return d.tab.Get(uint64(i))
}

// Decode decodes block, one whole field section, into sink. It is Write
// followed by End.
func (d *Decoder) Decode(block []byte, sink fastpath.Sink) error {
	if err := d.Write(block, sink); err != nil {
		return err
	}
	return d.End()
}

// Write decodes the next fragment of a field section (the payload of a
// HEADERS, PUSH_PROMISE or CONTINUATION frame), passing each field to sink
// as soon as all of its bytes are there. A representation cut by the end
// of fragment waits for the next Write: only that tail is kept, and it is
// never decoded twice, so decoding stays linear however the section is cut
// (compare CVE-2022-41723). Its length prefixes are read as soon as they
// arrive, so the tail is bounded by MaxStringLength, never by the peer.
//
// Write returns only fatal errors (*Error); after one, every call fails.
// A stream-level error (a malformed field, or an error from sink) stops
// delivery to sink for the rest of the section and is returned by End.
func (d *Decoder) Write(fragment []byte, sink fastpath.Sink) error {
	if d.err != nil {
		return d.closed()
	}
	d.init()
	p := fragment
	if len(d.buf) > 0 {
		for {
			take := min(d.want-len(d.buf), len(p))
			d.buf = append(d.buf, p[:take]...)
			p = p[take:]
			if len(d.buf) < d.want {
				return nil
			}
			want, err := d.need(d.buf)
			if err != nil {
				return d.fail(d.pos, err)
			}
			if want > len(d.buf) {
				d.want = want
				continue
			}
			d.work.parsed += len(d.buf)
			n, err := d.next(d.buf, sink)
			if err != nil {
				return d.fail(d.pos, err)
			}
			d.pos += n
			d.buf = d.buf[:0]
			break
		}
	}
	for len(p) > 0 {
		if b := p[0]; b > 0x80 && b < 0xff && !d.slow {
			// As next does: a section must first signal a size it owes.
			if err := d.start(); err != nil {
				return d.fail(d.pos, err)
			}
			n, err := d.indexedRun(p, sink)
			d.work.parsed += n
			d.pos += n
			p = p[n:]
			if err != nil {
				return d.fail(d.pos, err)
			}
			if n > 0 {
				continue
			}
		}
		var n int
		var err error
		if p[0]&0xc0 == 0x40 { // a new field: next's case, without its call
			n, err = d.literalIndexed(p, sink)
		} else {
			n, err = d.next(p, sink)
		}
		if err != nil {
			if err != wire.ErrTruncated {
				return d.fail(d.pos, err)
			}
			d.work.parsed += len(p)
			want, err := d.need(p)
			if err != nil {
				return d.fail(d.pos, err)
			}
			d.buf = append(d.buf[:0], p...)
			d.want = max(want, len(p)+1)
			return nil
		}
		d.work.parsed += n
		d.pos += n
		p = p[n:]
	}
	return nil
}

// End ends the field section that Write was given. It fails with
// fastpath.ErrTruncated when the section ended inside a representation, and
// returns the section's stream-level error, if any. The decoder is then ready
// for the next section.
func (d *Decoder) End() error {
	if d.err != nil {
		return d.closed()
	}
	d.init()
	if len(d.buf) > 0 {
		return d.fail(d.pos, fastpath.ErrTruncated)
	}
	// A section with no field still owes the size update (RFC 7541 §4.2:
	// the first header block after the change starts with it).
	if err := d.start(); err != nil {
		return d.fail(d.pos, err)
	}
	err := d.stream
	// One section of huge strings must not pin its buffers for the life of
	// the connection.
	if cap(d.huff) > decKeep {
		d.huff = nil
	}
	if cap(d.buf) > decKeep {
		d.buf = nil
	}
	d.pos, d.used, d.fields, d.updates = 0, 0, 0, 0
	d.started, d.check, d.stream, d.slow = false, field.Check{}, nil, d.validate
	return err
}

// next decodes the representation at the start of p (non-empty). It
// returns the bytes it took, or wire.ErrTruncated, with no effect, when p
// ends inside it.
func (d *Decoder) next(p []byte, sink fastpath.Sink) (int, error) {
	b := p[0]
	switch {
	case b&0x80 != 0: // indexed field line, §6.1
		// The common one-byte index without a call.
		i, n := uint64(b&0x7f), 1
		if i == 0x7f {
			var err error
			if i, n, err = wire.ReadInt(p, 7); err != nil {
				return 0, err
			}
		}
		if err := d.start(); err != nil {
			return 0, err
		}
		name, value, id, err := d.entry(i)
		if err != nil {
			return 0, err
		}
		return n, d.emit(name, value, fastpath.Flags(0).WithID(id), sink)
	case b&0xc0 == 0x40: // literal with incremental indexing, §6.2.1
		return d.literalIndexed(p, sink)
	case b&0xe0 == 0x20: // dynamic table size update, §6.3
		return d.sizeUpdate(p)
	case b&0x10 != 0: // literal never indexed, §6.2.3
		return d.literal(p, 4, fastpath.NeverIndex, false, sink)
	default: // literal without indexing, §6.2.2
		return d.literal(p, 4, 0, false, sink)
	}
}

// indexedRun decodes the one-byte indexed field lines at the start of p,
// the bulk of a warm section, in one loop: what next, entry and emit do
// for them, without their calls. It stops before anything else, and before
// a field that needs emitSlow's care.
//
// The section's limits are kept as what is left of them, in locals written
// back once, so a field checks both with one branch.
func (d *Decoder) indexedRun(p []byte, sink fastpath.Sink) (int, error) {
	// What is left of the section's limits: both stay >= 0 while it fits.
	room, left := d.maxSect-d.used, d.maxFields-d.fields
	n := 0
	for ; n < len(p); n++ {
		b := p[n]
		if b <= 0x80 || b == 0xff {
			break
		}
		i := uint64(b & 0x7f)
		var name, value []byte
		var id static.FieldID
		if i <= static.HPACKLen {
			e := &decStatic[i-1]
			name, value, id = e.name, e.value, e.id
		} else {
			e := d.tab.Ref(i - 1 - static.HPACKLen)
			if e == nil {
				d.used, d.fields = d.maxSect-room, d.maxFields-left
				return n, &IndexError{Index: i}
			}
			name, value = d.tab.Bytes(e)
			id = static.FieldID(e.Tag())
		}
		room -= len(name) + len(value) + table.Overhead
		left--
		if room|left < 0 {
			d.used, d.fields = d.maxSect-room, d.maxFields-left
			return n, fastpath.ErrSectionTooLarge
		}
		if err := sink.Field(name, value, fastpath.Flags(0).WithID(id)); err != nil {
			// Delivery stops: the rest of the section takes the slow path.
			d.stream, d.slow = err, true
			n++
			break
		}
	}
	d.used, d.fields = d.maxSect-room, d.maxFields-left
	return n, nil
}

func (d *Decoder) literal(p []byte, prefix uint8, f fastpath.Flags, index bool, sink fastpath.Sink) (int, error) {
	// The name index almost always fits the prefix: read it without a
	// call. (prefix&7 tells the compiler the shift is small.)
	m := uint64(1)<<(prefix&7) - 1
	i, n := uint64(p[0])&m, 1
	var err error
	if i == m {
		if i, n, err = wire.ReadInt(p, prefix); err != nil {
			return 0, err
		}
	}
	var name, value []byte
	var id static.FieldID
	d.huff = d.huff[:0]
	if i == 0 {
		if name, n, err = d.str(p, n); err != nil {
			return 0, err
		}
		id = static.LookupBytes(name)
	} else if name, _, id, err = d.entry(i); err != nil {
		return 0, err
	}
	if value, n, err = d.str(p, n); err != nil {
		return 0, err
	}
	if err := d.start(); err != nil {
		return 0, err
	}
	if err := d.emit(name, value, f.WithID(id), sink); err != nil {
		return 0, err
	}
	if index {
		// After emit: name may alias an entry that this insert evicts.
		d.tab.AddTagged(name, value, uint8(id))
	}
	return n, nil
}

// literalIndexed is literal for a literal with incremental indexing, the
// representation of every new field: when its name is an index that fits
// the prefix and its value's length fits a byte, as nearly always, it is
// decoded here without literal's and str's calls and generality, in the
// same order, with the same checks.
func (d *Decoder) literalIndexed(p []byte, sink fastpath.Sink) (int, error) {
	i := uint64(p[0] & 0x3f)
	if i == 0 || i == 0x3f || len(p) < 2 {
		return d.literal(p, 6, 0, true, sink)
	}
	b := p[1]
	l := int(b & 0x7f)
	if l == 0x7f || l >= len(p)-1 || l > d.maxString {
		return d.literal(p, 6, 0, true, sink)
	}
	var name []byte
	var id static.FieldID
	if i <= static.HPACKLen {
		e := &decStatic[i-1]
		name, id = e.name, e.id
	} else {
		e := d.tab.Ref(i - 1 - static.HPACKLen)
		if e == nil {
			return 0, &IndexError{Index: i}
		}
		name, _ = d.tab.Bytes(e)
		id = static.FieldID(e.Tag())
	}
	value := p[2 : 2+l : 2+l]
	if b&0x80 != 0 {
		// Into the table where AddFresh will find it, if there is room.
		var err error
		if sp := d.tab.Spare(); i <= static.HPACKLen && len(sp) >= len(name)+2*l {
			value, err = wire.AppendHuffmanDecode(sp[len(name):len(name)], value, d.maxString)
		} else {
			d.huff, err = wire.AppendHuffmanDecode(d.huff[:0], value, d.maxString)
			value = d.huff
		}
		if err != nil {
			return 0, err
		}
		value = value[:len(value):len(value)]
	}
	if err := d.start(); err != nil {
		return 0, err
	}
	// emit, written out.
	f := fastpath.Flags(0).WithID(id)
	d.used += len(name) + len(value) + table.Overhead
	d.fields++
	if d.used > d.maxSect || d.fields > d.maxFields || d.slow {
		if err := d.emitSlow(name, value, f, sink); err != nil {
			return 0, err
		}
	} else if err := sink.Field(name, value, f); err != nil {
		d.stream, d.slow = err, true
	}
	// After emit: name may alias an entry that this insert evicts.
	if i <= static.HPACKLen {
		d.tab.AddFresh(name, value, uint8(id))
	} else {
		d.tab.AddTagged(name, value, uint8(id))
	}
	return 2 + l, nil
}

// str reads the string literal at p[n:], Huffman-decoded into d.huff if it
// is coded, and returns it and the offset after it. A string with a
// one-byte length, nearly every one, takes no call but the decoding's.
func (d *Decoder) str(p []byte, n int) ([]byte, int, error) {
	if n < len(p) {
		b := p[n]
		if l := int(b & 0x7f); l < 0x7f && l < len(p)-n && l <= d.maxString {
			s := p[n+1 : n+1+l : n+1+l]
			if b&0x80 == 0 {
				return s, n + 1 + l, nil
			}
			start := len(d.huff)
			var err error
			if d.huff, err = wire.AppendHuffmanDecode(d.huff, s, d.maxString); err != nil {
				return nil, 0, err
			}
			return d.huff[start:len(d.huff):len(d.huff)], n + 1 + l, nil
		}
	}
	s, huff, k, err := wire.ReadString(d.huff, p[n:], 7, d.maxString)
	d.huff = huff
	return s, n + k, err
}

// start checks, at the first field of a section, that the peer signaled a
// table size it had to.
func (d *Decoder) start() error {
	if d.started {
		return nil
	}
	if d.lowTable < d.tab.Capacity() {
		return ErrSizeUpdate
	}
	d.started = true
	return nil
}

func (d *Decoder) sizeUpdate(p []byte) (int, error) {
	v, n, err := wire.ReadInt(p, 5)
	if err != nil {
		return 0, err
	}
	// At the start of a section only, and at most two: the smallest size
	// since the last section, then the final one (RFC 7541 §4.2).
	if d.started || d.updates == 2 || v > uint64(d.maxTable) {
		return 0, ErrSizeUpdate
	}
	if d.updates == 0 && d.lowTable < d.tab.Capacity() && v > uint64(d.lowTable) {
		return 0, ErrSizeUpdate
	}
	d.updates++
	d.lowTable = d.maxTable
	d.tab.SetCapacity(int(v))
	return n, nil
}

// entry returns the field at HPACK index i: static below 62, dynamic from 62.
func (d *Decoder) entry(i uint64) (name, value []byte, id static.FieldID, err error) {
	if i-1 < static.HPACKLen { // i == 0 wraps around
		e := &decStatic[i-1]
		return e.name, e.value, e.id, nil
	}
	e := d.tab.Ref(i - 1 - static.HPACKLen)
	if e == nil {
		return nil, nil, 0, &IndexError{Index: i}
	}
	name, value = d.tab.Bytes(e)
	return name, value, static.FieldID(e.Tag()), nil
}

// emit accounts for a decoded field and passes it to sink, when the field
// is within the limits and the section has no stream error; emitSlow does
// the rest.
func (d *Decoder) emit(name, value []byte, f fastpath.Flags, sink fastpath.Sink) error {
	d.used += len(name) + len(value) + table.Overhead
	d.fields++
	if d.used > d.maxSect || d.fields > d.maxFields || d.slow {
		return d.emitSlow(name, value, f, sink)
	}
	if err := sink.Field(name, value, f); err != nil {
		d.stream, d.slow = err, true
	}
	return nil
}

// emitSlow is emit past a limit, with validation on, or after a stream
// error, which stops delivery for the rest of the section.
func (d *Decoder) emitSlow(name, value []byte, f fastpath.Flags, sink fastpath.Sink) error {
	if d.used > d.maxSect || d.fields > d.maxFields {
		return fastpath.ErrSectionTooLarge
	}
	if d.stream != nil {
		return nil
	}
	if d.validate {
		if err := d.check.Field(name, value, f.ID()); err != nil {
			d.stream = &Error{Code: ErrCodeProtocol, Offset: d.pos, Err: err}
			return nil
		}
	}
	if err := sink.Field(name, value, f); err != nil {
		d.stream = err
	}
	return nil
}

// need returns how many bytes the representation at the start of p (cut
// short) needs in all, as far as p tells: exact once its length prefixes
// are read, else len(p)+1. It rejects a string over MaxStringLength, and
// lengths that already overrun the section size, before their bytes arrive.
func (d *Decoder) need(p []byte) (int, error) {
	d.work.measures++
	b := p[0]
	prefix, literal := uint8(4), true
	switch {
	case b&0x80 != 0:
		prefix, literal = 7, false
	case b&0xc0 == 0x40:
		prefix = 6
	case b&0xe0 == 0x20:
		prefix, literal = 5, false
	}
	i, n, err := wire.ReadInt(p, prefix)
	if err == wire.ErrTruncated {
		return len(p) + 1, nil
	}
	if err != nil || !literal {
		// Complete indexed fields and size updates are never cut short.
		return n, err
	}
	least := 0 // fewest decoded bytes the strings read so far stand for
	if i == 0 {
		k, l, err := d.stringLen(p[n:])
		if err != nil || k == 0 {
			return len(p) + 1, err
		}
		least += l
		n += k
	} else {
		// A name index that names no entry is an error already, as it
		// is when the whole representation is there.
		name, _, _, err := d.entry(i)
		if err != nil {
			return n, err
		}
		least += len(name)
	}
	if n >= len(p) {
		return n + 1, d.fits(least)
	}
	k, l, err := d.stringLen(p[n:])
	if err != nil || k == 0 {
		return max(n+1, len(p)+1), err
	}
	return n + k, d.fits(least + l)
}

// stringLen reads the length prefix of the string literal at the start of
// p: the whole encoded length (0 while the prefix is cut short) and the
// fewest decoded bytes it stands for.
func (d *Decoder) stringLen(p []byte) (total, least int, err error) {
	l, k, err := wire.ReadInt(p, 7)
	if err == wire.ErrTruncated {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	if l > uint64(d.maxString) {
		return 0, 0, fastpath.ErrStringTooLong
	}
	if p[0]&0x80 == 0 {
		return k + int(l), int(l), nil
	}
	// A Huffman code is at most 30 bits long.
	return k + int(l), int(l) * 8 / 30, nil
}

// fits reports fastpath.ErrSectionTooLarge when a field of at least least bytes
// cannot fit in what is left of the section.
func (d *Decoder) fits(least int) error {
	if d.used+least+table.Overhead > d.maxSect {
		return fastpath.ErrSectionTooLarge
	}
	return nil
}

// fail closes the decoder with err at section offset off.
func (d *Decoder) fail(off int, err error) error {
	e := &Error{Code: ErrCodeCompression, Offset: off, Err: err}
	d.err = e
	d.buf = nil
	return e
}

// closed is the error of every call after a fatal one.
func (d *Decoder) closed() error {
	off := 0
	if e, ok := d.err.(*Error); ok {
		off = e.Offset
	}
	return &Error{Code: ErrCodeCompression, Offset: off, Err: &closedError{cause: d.err}}
}
