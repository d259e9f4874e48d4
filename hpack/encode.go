package hpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/table"
)

// DefaultTableSize is HTTP/2's initial SETTINGS_HEADER_TABLE_SIZE (RFC 9113
// §6.5.2) and the encoder's default table limit.
const DefaultTableSize = 4096

// NoTable, as a Config size, stands for 0: no dynamic table (a zero in a
// Config means the default).
const NoTable = -1

// Config configures an Encoder. The zero Config is the default: a 4096-octet
// table, Huffman coding when it is shorter, nghttp2's indexing policy.
type Config struct {
	// TableLimit is the largest dynamic table the encoder will use, in
	// RFC 7541 octets. The table it uses is the smaller of this and the
	// peer's SETTINGS_HEADER_TABLE_SIZE (see SetMaxTableSize).
	// 0 means DefaultTableSize; NoTable means none.
	TableLimit int
	// InitialTableSize is the table size both ends start with, before any
	// SETTINGS: HTTP/2's 4096 when 0 (NoTable for 0). When the encoder's
	// table is smaller, its first section starts with a size update.
	InitialTableSize int
	// Huffman is the policy for coding names and values (and raw
	// Content-Length digits): HuffmanAuto (the zero value), Always, Never.
	Huffman fastpath.HuffmanPolicy
	// Indexing is the policy for inserting into the dynamic table.
	Indexing fastpath.Indexing
	// NamesAsGiven sends names exactly as the fields give them. By
	// default an uppercase letter is lowercased on the way, since HTTP/2
	// requires lowercase names (RFC 9113 §8.2.1); an API that promises to
	// pass names through (golang.org/x/net/http2/hpack's, whose callers
	// test that peers reject uppercase names) sets it. Names then match
	// static and dynamic entries only when they are equal byte for byte.
	NamesAsGiven bool
}

func (c Config) sizes() (limit, initial int) {
	return configSize(c.TableLimit), configSize(c.InitialTableSize)
}

func configSize(n int) int {
	switch {
	case n == 0:
		return DefaultTableSize
	case n < 0:
		return 0
	}
	return n
}

// Encoder is an HPACK encoder (RFC 7541) for one direction of one
// connection; it is not safe for concurrent use. It takes a field section
// as a fastpath.Enumerator and writes it into buffers the caller owns,
// keeping the dynamic table the peer's decoder mirrors:
//
//	n, res := enc.Begin(frame, fields) // the HEADERS payload
//	for res == fastpath.MoreFields { // send frame[:n], then
//		n, res = enc.Continue(frame) // a CONTINUATION payload
//	}
//	// res == fastpath.Done: send frame[:n] with END_HEADERS
//
// or, without framing, block = enc.AppendSection(block[:0], fields).
//
// A piece holds whole fields, and a field that does not fit after them
// leaves no trace (not in the piece, not in the table) until the next
// piece, except a field larger than an empty frame, which is split across
// pieces (RFC 9113 §4.3 lets a field block break at any byte): no field is
// ever dropped, whatever the frame size. Begin and AppendSection encode
// fields from the first: a *fastpath.FieldList is rewound, so the same
// list encodes the same fields however often it is passed; another
// Enumerator is read from where it stands. Between pieces the fields must
// stay as they are: Continue finds a FieldList reset, moved or added to
// since the last piece and returns fastpath.ListChanged.
//
// Names are sent in lowercase (HTTP/2 requires it), lowercased on the way
// when they are not, unless Config.NamesAsGiven says to send them as they
// are. A raw Content-Length (fastpath.FieldList's
// AddContentLength) is formatted straight into the output and encodes
// exactly as its decimal string would. Fields flagged fastpath.NeverIndex,
// and those the fastpath.Indexing policy protects, are sent as never indexed, never
// as a reference to a table entry. Encoding a warm section allocates
// nothing. The encoder keeps no memory of the caller's strings: what it
// sends depends on their contents alone, found in the static table by a
// switch on length and bytes and in the dynamic table by a hash.
//
// The zero Encoder is ready to use with the default Config; Init sets
// another (var e Encoder; e.Init(cfg)).
type Encoder struct {
	table    table.Table
	huffman  fastpath.HuffmanPolicy
	indexing fastpath.Indexing
	asGiven  bool // Config.NamesAsGiven

	limit  int // the largest table we are willing to keep
	peer   int // the peer's SETTINGS_HEADER_TABLE_SIZE
	target int // min(limit, peer): the size we want the decoder to have
	cur    int // the size the decoder has: the last one signaled

	// A size change waits for the start of the next section.
	sizePending bool
	sizeMin     int // the smallest target since the last section

	// Per call: what the next field may see. While size updates are still
	// to be written, entries below lo will be gone by the time the decoder
	// reads the field, and an insert goes into a table of capacity capNow.
	lo     uint64
	capNow int
	updLen int // bytes of the pending size updates, 0 once written

	started bool // this section has written bytes
	have    bool // the enumerator's current field is not written yet
	end     bool // the enumerator is exhausted
	inited  bool
	at, n   int // a FieldList's position after the last piece, its length at Begin

	// fields is the section Begin started, until it is done; pend holds
	// the bytes of a field split across pieces that are still to go out,
	// from pendAt.
	fields fastpath.Enumerator
	pend   []byte
	pendAt int

	lower []byte   // scratch for lowercasing names
	num   [20]byte // scratch: a negative Content-Length

	// named has bit i set when the table may hold an entry whose name is
	// static name i: a superset (evictions do not clear bits), cleared
	// when the table is empty.
	named uint64

	recent recent
}

// Init resets e to a fresh encoder with the given configuration (a new
// connection). It keeps the memory of its table and scratch buffers, wiped:
// nothing of the last connection's fields stays, in the table, in a cache
// or in a buffer. The peer's table size starts at c's InitialTableSize.
func (e *Encoder) Init(c Config) {
	limit, initial := c.sizes()
	e.table.Init(initial, true)
	clear(e.pend[:cap(e.pend)])
	clear(e.lower[:cap(e.lower)])
	*e = Encoder{
		table:    e.table,
		pend:     e.pend[:0],
		lower:    e.lower[:0],
		huffman:  c.Huffman,
		indexing: c.Indexing,
		asGiven:  c.NamesAsGiven,
		limit:    limit,
		peer:     initial,
		cur:      initial,
		target:   min(limit, initial),
		inited:   true,
	}
	e.sizePending = e.target != e.cur
	e.sizeMin = e.target
}

func (e *Encoder) init() {
	if !e.inited {
		e.Init(Config{})
	}
}

// Begin starts a new field section and writes its first piece into
// dst[:len(dst)]: any pending Dynamic Table Size Updates, then as many
// whole fields as fit (part of the first field when it alone does not
// fit). n is the number of bytes written; res says whether the section is
// done or continues (send dst[:n], then call Continue).
//
// A new Begin or AppendSection abandons a section left unfinished. What of
// it went into the dynamic table did not reach the peer's decoder, so the
// next section starts by emptying both tables (Dynamic Table Size Updates
// to 0 and back): the encoder stays in step with a decoder that never saw
// the abandoned pieces. One that saw some cannot take another section
// anyway: HTTP/2 makes that a connection error (RFC 9113 §6.10).
func (e *Encoder) Begin(dst []byte, fields fastpath.Enumerator) (n int, res fastpath.Result) {
	e.init()
	e.start(fields)
	return e.piece(dst)
}

// Continue writes the next piece of the section Begin started into
// dst[:len(dst)], as Begin does (a CONTINUATION frame's payload). With no
// section in progress it writes nothing and returns fastpath.NoSection;
// with its FieldList reset, moved or added to, fastpath.ListChanged.
func (e *Encoder) Continue(dst []byte) (n int, res fastpath.Result) {
	e.init()
	if e.fields == nil {
		return 0, fastpath.NoSection
	} else if l, ok := e.fields.(*fastpath.FieldList); ok && (l.Pos() != e.at || l.Len() != e.n) {
		return 0, fastpath.ListChanged
	}
	return e.piece(dst)
}

// start begins a section of fields, from its first field.
func (e *Encoder) start(fields fastpath.Enumerator) {
	if e.fields != nil && (e.started || e.pendAt > 0) {
		// The last section was abandoned after it had written bytes.
		e.sizePending, e.sizeMin = true, 0
	}
	if l, ok := fields.(*fastpath.FieldList); ok {
		l.Rewind()
		e.n = l.Len()
	}
	e.started, e.have, e.end, e.at = false, false, false, -1
	e.fields = fields
	e.pend, e.pendAt = e.pend[:0], 0
}

// piece writes the next piece of the section into dst.
func (e *Encoder) piece(dst []byte) (int, fastpath.Result) {
	buf := dst[:0:len(dst)]
	if e.pendAt < len(e.pend) {
		if len(dst) == 0 {
			return 0, fastpath.BufferTooSmall
		}
		k := copy(dst, e.pend[e.pendAt:])
		if e.pendAt += k; e.pendAt < len(e.pend) {
			return k, fastpath.MoreFields
		}
		buf = dst[:k:len(dst)]
	}
	e.prepare()
	buf, ok := e.rest(buf, false, e.fields)
	if ok && e.updLen > 0 && e.updLen <= cap(buf)-len(buf) {
		// A section of no fields still carries pending size updates.
		buf = e.commitSizes(buf)
	} else if !ok || e.updLen > 0 {
		switch {
		case len(buf) > 0:
			return len(buf), fastpath.MoreFields
		case len(dst) == 0:
			return 0, fastpath.BufferTooSmall
		}
		// What comes next does not fit an empty dst: it goes out in pieces.
		e.pend = e.pend[:0]
		if ok {
			e.pend = e.commitSizes(e.pend)
		} else {
			e.pend = e.current(e.pend, e.fields)
		}
		e.pendAt = copy(dst, e.pend)
		return e.pendAt, fastpath.MoreFields
	}
	e.fields = nil
	return len(buf), fastpath.Done
}

// AppendSection appends a whole field section to dst, growing it as needed,
// and returns the extended slice. It starts a new section, as Begin does.
func (e *Encoder) AppendSection(dst []byte, fields fastpath.Enumerator) []byte {
	e.init()
	e.start(fields)
	e.fields = nil
	e.prepare()
	dst, _ = e.rest(dst, true, fields)
	if e.updLen > 0 {
		dst = e.commitSizes(dst)
	}
	return dst
}

// current encodes the enumerator's current field, which a piece could not
// hold, at the end of dst, growing it.
func (e *Encoder) current(dst []byte, fields fastpath.Enumerator) []byte {
	name, value, f, n, raw := fieldOf(fields)
	dst, _ = e.field(dst, true, name, value, f, n, raw)
	e.have = false
	return dst
}

// fieldOf returns the enumerator's current field: with raw, a raw
// Content-Length n.
func fieldOf(fields fastpath.Enumerator) (name, value string, f fastpath.Flags, n int64, raw bool) {
	name, value, f = fields.Field()
	if len(name) == len("content-length") && value == "" {
		n, raw = fields.ContentLength()
	}
	return name, value, f, n, raw
}

// rest encodes the fields that are left, as field does each one, until
// the end (true) or a field that does not fit (false). e.have is set only
// when a field did not fit: the enumerator's current field comes first in
// the next call.
func (e *Encoder) rest(buf []byte, grow bool, fields fastpath.Enumerator) ([]byte, bool) {
	if l, ok := fields.(*fastpath.FieldList); ok {
		return e.list(buf, grow, l)
	}
	for e.have || (!e.end && fields.Next()) {
		name, value, f, n, raw := fieldOf(fields)
		var ok bool
		if buf, ok = e.field(buf, grow, name, value, f, n, raw); !ok {
			e.have = true
			return buf, false
		}
		e.have = false
	}
	e.end = true
	return buf, true
}

// list is rest for the ready Enumerator, walked by index: calls the
// compiler inlines instead of three dynamic calls per field. It leaves the
// list where rest would: on the field that did not fit, or past the end.
func (e *Encoder) list(buf []byte, grow bool, l *fastpath.FieldList) ([]byte, bool) {
	i := l.Pos() + 1
	if e.have {
		i--
	}
	for ; i < l.Len(); i++ {
		name, value, f, n := l.At(i) // n: a raw Content-Length, or -1
		var ok bool
		if n >= 0 {
			buf, ok = e.contentLength(buf, grow, uint64(n), f)
		} else {
			// field's steps, the first inline: most fields are found in
			// recent and sent as one byte.
			fp := fingerprint(name, value)
			if s := e.recent.find(fp, f); s != nil {
				idx, hit := e.recall(s, name, value)
				if hit && idx < 0x7f && e.updLen == 0 && len(buf) < cap(buf) {
					e.started = true
					buf = append(buf, patIndexed|byte(idx))
					continue
				} else if hit {
					buf, ok = e.indexed(buf, grow, idx)
				} else {
					buf, ok = e.literal(buf, grow, name, value, f, fp)
				}
			} else {
				buf, ok = e.literal(buf, grow, name, value, f, fp)
			}
		}
		if !ok {
			l.Seek(i)
			e.have, e.at = true, i
			return buf, false
		}
	}
	l.Seek(l.Len())
	e.have, e.end, e.at = false, true, l.Len()
	return buf, true
}
