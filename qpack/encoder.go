package qpack

import (
	"slices"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// AckMode says how an Encoder learns what the peer's decoder has processed.
type AckMode uint8

const (
	// AckDecoderStream is the normal mode: acknowledgments arrive on the
	// peer's decoder stream, passed to ReadDecoderStream.
	AckDecoderStream AckMode = iota
	// AckImmediate acts as if each section were acknowledged, and every
	// insert made so far received, as soon as the section is written (QIFS
	// ack mode 1). For offline encoding and tests: the encoder stream must
	// reach the decoder before each section.
	AckImmediate
	// AckNever tells the encoder that nothing will ever be acknowledged (no
	// decoder stream; QIFS ack mode 0). Inserts stay unevictable forever and
	// each blocked stream is spent for good, so the encoder inserts only
	// what sections can reference, and once the table is full keeps the
	// blocked streams for the sections that gain the most.
	AckNever
)

// String returns the constant's name.
func (m AckMode) String() string {
	switch m {
	case AckDecoderStream:
		return "AckDecoderStream"
	case AckImmediate:
		return "AckImmediate"
	case AckNever:
		return "AckNever"
	}
	return "AckMode(?)"
}

// defaultMaxOutstanding is the default bound on the unacknowledged sections
// with dynamic references that an Encoder keeps track of.
const defaultMaxOutstanding = 1024

// encMaxCapacity keeps the table capacity far from integer overflow.
const encMaxCapacity = 1 << 40

// EncoderConfig holds an Encoder's settings. The zero value is a
// static-only encoder (no encoder stream at all) that Huffman-codes a
// string when that is shorter.
type EncoderConfig struct {
	// MaxTableCapacity is the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY. It
	// fixes MaxEntries for the Required Insert Count encoding (§4.5.1.1).
	MaxTableCapacity uint64
	// MaxBlockedStreams is the peer's SETTINGS_QPACK_BLOCKED_STREAMS: how
	// many streams may at once hold a section that references an entry the
	// decoder may not have received yet.
	MaxBlockedStreams uint64
	// TableCapacity is the dynamic table capacity the encoder uses, capped
	// at MaxTableCapacity; 0 is static only. It is announced with Set
	// Dynamic Table Capacity just before the first insert.
	TableCapacity uint64
	// Huffman is the policy for string literals, in sections and on the
	// encoder stream, and for raw Content-Length digits.
	Huffman fastpath.HuffmanPolicy
	// Indexing is the policy for inserting into the dynamic table.
	Indexing fastpath.Indexing
	// AckMode says how acknowledgments arrive.
	AckMode AckMode
	// MaxOutstanding bounds the unacknowledged sections with dynamic
	// references that the encoder tracks; past it, sections use only the
	// static table and literals until acknowledgments arrive. 0 means 1024.
	MaxOutstanding int
}

// Encoder is the encoding half of a QPACK connection (RFC 9204): it encodes
// field sections for request streams, writes the encoder stream (inserts
// into the peer's dynamic table) and reads the peer's decoder stream. It is
// not safe for concurrent use.
//
// A section is planned whole before any byte of it is written, so its exact
// length is known first (an HTTP/3 HEADERS frame carries its length before
// its payload):
//
//	n := enc.Plan(streamID, fields)      // the section's exact length
//	es = enc.AppendEncoderStream(es[:0]) // send on the encoder stream first
//	frame = appendFrameHeader(frame, n)  // HEADERS: type and length n
//	frame = enc.AppendPlanned(frame)     // then the section itself
//
// Continue writes the planned section into fixed buffers instead, whole
// field lines only; Begin is Plan and a first Continue; AppendSection is
// Plan and AppendPlanned.
//
// The encoder never evicts an entry that the decoder has not acknowledged
// or that an unacknowledged section references, and references an entry
// the decoder may not have yet only while the blocked-streams budget allows
// (a stream already blocked may reference more). Otherwise it falls back to
// acknowledged entries, the static table and literals.
//
// What it inserts: the fastpath.Indexing policy and per-field flags say what may go
// in; within that, the encoder inserts a field once it has repeated (or at
// once while the table has free room and the section can reference the
// entry), inserts a name alone when it keeps coming back with new values,
// duplicates entries about to be evicted when sections keep using them, and
// does not reference entries close to eviction (the draining zone). Names
// are sent in lowercase, lowercased on the way when they are not. A raw
// Content-Length (fastpath.FieldList's AddContentLength) encodes exactly as
// its decimal string would: the indexed static entry 4 for 0, else a
// literal with static name reference 4 whose digits are formatted straight
// into the output. Encoding a warm section allocates nothing.
//
// A static-only encoder (table capacity 0) writes a section in one pass
// and remembers the lines of recent fields, by the addresses of their
// strings: a server's constant fields and cached Date cost a comparison
// and a copy each (every byte is compared, so a string changed in place
// only misses). With a dynamic table, it remembers the line of each
// position of the last section: a field equal byte for byte to the dynamic
// entry that the field at its position matched skips the static lookup and
// the hashing, when no entry inserted since can hold it (the lines are
// those the lookups would give).
//
// The zero Encoder is a static-only encoder with the zero EncoderConfig;
// Init sets another configuration.
type Encoder struct {
	capacity   int    // our dynamic table capacity
	maxEntries uint64 // from the peer's maximum, for Required Insert Count
	maxBlocked uint64
	maxOut     int
	huff       wire.Huffman
	indexing   fastpath.Indexing
	ack        AckMode

	tbl     table.Table
	capSent bool   // Set Dynamic Table Capacity written
	stream  []byte // encoder-stream bytes not yet taken by the caller
	krc     uint64 // Known Received Count
	out     []outSection
	// Scratch, one use at a time: the blocked stream IDs (collectBlocked,
	// read by streamBlocked at once), then Plan's pending lines, then
	// chooseBase's references.
	blocked []uint64
	err     *Error // decoder-stream failure, once failed
	dec     decStreamReader

	pl      sectionPlan
	pend    []byte // a unit split across pieces by Continue: pend[pendAt:] is to go
	pendAt  int
	scratch []byte // lowercased names and negative Content-Lengths of the plan
	hist    *fieldHistory
	gainSum uint64 // AckNever: estimated gains of sections (worthBlocking)
	gainN   uint64
}

// outSection is a planned section with dynamic references that the decoder
// has not acknowledged yet.
type outSection struct {
	stream uint64
	ric    uint64 // Required Insert Count, > 0
	minRef uint64 // smallest absolute index it references
}

// Init makes e a fresh encoder with the settings of cfg (a new
// connection). It keeps the memory of its table and buffers, wiped:
// nothing of the last connection's fields stays, in the table, in a cache
// or in a buffer, and nothing it learned of them steers what it inserts.
func (e *Encoder) Init(cfg EncoderConfig) {
	capacity := int(min(cfg.TableCapacity, cfg.MaxTableCapacity, encMaxCapacity))
	e.tbl.InitSeeded(capacity, encSeed)
	e.pl.reset()
	clear(e.pl.fields[:cap(e.pl.fields)]) // the lines of the last connection's sections
	pl := sectionPlan{fields: e.pl.fields[:0], buf: wipe(e.pl.buf), ends: e.pl.ends[:0]}
	if e.hist != nil {
		clear(e.hist.meta)
		*e.hist = fieldHistory{meta: e.hist.meta}
	}
	*e = Encoder{
		capacity:   capacity,
		maxEntries: min(cfg.MaxTableCapacity, 1<<62) / table.Overhead,
		maxBlocked: cfg.MaxBlockedStreams,
		maxOut:     cfg.MaxOutstanding,
		huff:       cfg.Huffman,
		indexing:   cfg.Indexing,
		ack:        cfg.AckMode,
		tbl:        e.tbl,
		stream:     wipe(e.stream),
		out:        e.out[:0],
		blocked:    e.blocked[:0],
		pl:         pl,
		pend:       wipe(e.pend),
		scratch:    wipe(e.scratch),
		hist:       e.hist,
	}
	if e.maxOut <= 0 {
		e.maxOut = defaultMaxOutstanding
	}
}

// encSeed seeds the encoder's index, fixed so that the history keeps its
// records of values by the index's hash of them (see insertField)
// and two encoders write the same bytes. A fixed seed is safe: the index
// is not built to stand an adversary anyway, and a table's chains stay as
// short as the table whatever collides (see internal/table's strHash).
const encSeed = 0x9e3779b97f4a7c15

// wipe returns b emptied, its bytes up to its capacity cleared: a buffer
// kept for the next connection holds nothing of the last.
func wipe(b []byte) []byte {
	clear(b[:cap(b)])
	return b[:0]
}

// InsertCount returns the number of inserts the encoder has made.
func (e *Encoder) InsertCount() uint64 { return e.tbl.Inserted() }

// KnownReceivedCount returns the number of inserts the decoder is known to
// have received: acknowledged by Section Acknowledgment or Insert Count
// Increment (or assumed, with AckImmediate).
func (e *Encoder) KnownReceivedCount() uint64 { return e.krc }

// TableSize returns the dynamic table's size (name + value + 32 per entry)
// and the capacity the encoder uses.
func (e *Encoder) TableSize() (size, capacity int) { return e.tbl.Size(), e.capacity }

// TableEntry returns the dynamic table entry with absolute index abs, if it
// is still in the table. The slices are valid until the next Plan.
func (e *Encoder) TableEntry(abs uint64) (name, value []byte, ok bool) { return e.tbl.Abs(abs) }

// Outstanding returns the number of sections with dynamic references that
// the decoder has neither acknowledged nor cancelled.
func (e *Encoder) Outstanding() int { return len(e.out) }

// BlockedStreams returns the number of streams whose unacknowledged
// sections reference entries the decoder may not have received.
func (e *Encoder) BlockedStreams() int { return int(e.blockedStreams()) }

// EncoderStreamLen returns the number of encoder-stream bytes waiting to be
// taken by AppendEncoderStream.
func (e *Encoder) EncoderStreamLen() int { return len(e.stream) }

// AppendEncoderStream appends the pending encoder-stream bytes to dst and
// forgets them. Send them on the encoder stream before the sections planned
// since the last call. Given no buffer (capacity 0, as nil), it returns
// the encoder's own, which the caller then owns: no copy, and an encoder
// that has stopped inserting holds no encoder-stream buffer.
func (e *Encoder) AppendEncoderStream(dst []byte) []byte {
	if cap(dst) == 0 && len(e.stream) > 0 {
		// 128 bytes held for good after a typical first response. A
		// caller that passes its own buffer keeps both, allocating nothing.
		dst, e.stream = e.stream, nil
		return dst
	}
	if len(e.stream) > 0 { // (no call for none)
		dst = append(dst, e.stream...)
		e.stream = e.stream[:0]
	}
	return dst
}

// blockedStreams counts the streams with an outstanding section whose
// Required Insert Count is above the Known Received Count.
func (e *Encoder) blockedStreams() uint64 {
	e.collectBlocked()
	return uint64(len(e.blocked))
}

// collectBlocked sets e.blocked to the sorted IDs of the blocked streams.
func (e *Encoder) collectBlocked() {
	b := e.blocked[:0]
	for i := range e.out {
		if e.out[i].ric > e.krc {
			b = append(b, e.out[i].stream)
		}
	}
	if len(b) > 1 { // (the usual none or one need no call)
		slices.Sort(b)
		b = slices.Compact(b)
	}
	e.blocked = b
}

// streamBlocked reports whether stream id is in e.blocked.
func (e *Encoder) streamBlocked(id uint64) bool {
	if len(e.blocked) < 2 {
		return len(e.blocked) == 1 && e.blocked[0] == id
	}
	_, found := slices.BinarySearch(e.blocked, id)
	return found
}

// pinnedFloor returns the smallest absolute index that an outstanding
// section references (Inserted when none): entries from there on cannot be
// evicted.
func (e *Encoder) pinnedFloor() uint64 {
	floor := e.tbl.Inserted()
	for i := range e.out {
		floor = min(floor, e.out[i].minRef)
	}
	return floor
}

// ackSection applies a Section Acknowledgment for stream id: the earliest
// unacknowledged section of the stream.
func (e *Encoder) ackSection(id uint64) bool {
	for i := range e.out {
		if e.out[i].stream == id {
			e.krc = max(e.krc, e.out[i].ric)
			if i+1 < len(e.out) { // (the usual last one: no call)
				copy(e.out[i:], e.out[i+1:])
			}
			e.out = e.out[:len(e.out)-1] // (the length alone: no pointer store)
			return true
		}
	}
	return false
}

// cancelStream drops every outstanding section of stream id.
func (e *Encoder) cancelStream(id uint64) {
	k := 0
	for _, s := range e.out {
		if s.stream != id {
			e.out[k] = s
			k++
		}
	}
	e.out = e.out[:k]
}
