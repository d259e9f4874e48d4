package qpack

import (
	"github.com/hqpack/hqpack/internal/table"

	"github.com/hqpack/hqpack/fastpath"
)

// defaultMaxSectionSize is the section and string limit where a
// DecoderConfig field is zero: the hpack package's, 64 KiB.
const defaultMaxSectionSize = 64 << 10

// maxLimit caps every configured limit: far above any sane setting, and far
// from overflow even in a 32-bit int.
const maxLimit = 1<<31 - 1

// DecoderConfig holds a Decoder's settings and limits. The zero value is a
// static-only decoder (what quic-go/qpack does) with the default limits.
type DecoderConfig struct {
	// MaxTableCapacity is the SETTINGS_QPACK_MAX_TABLE_CAPACITY we send: the
	// largest dynamic table the peer's encoder may use. 0 is static only.
	MaxTableCapacity uint64
	// MaxBlockedStreams is the SETTINGS_QPACK_BLOCKED_STREAMS we send: how
	// many streams may wait for encoder-stream inserts at once.
	MaxBlockedStreams uint64
	// MaxSectionSize bounds a decoded section: the sum over its fields of
	// len(name)+len(value)+32, our SETTINGS_MAX_FIELD_SECTION_SIZE (RFC 9114
	// §4.2.2). It is counted as fields arrive, so a section that references
	// one large entry many times stops at the limit. 0 means 64 KiB.
	MaxSectionSize int
	// MaxStringLength bounds one name or value, on the wire length before
	// any Huffman decoding and on the decoded length, in sections and on the
	// encoder stream. 0 means MaxSectionSize.
	MaxStringLength int
	// MaxFields caps the number of fields in a section; 0 means no cap
	// (MaxSectionSize still allows at most MaxSectionSize/32).
	MaxFields int
	// MaxEncoderStreamBuffer bounds the bytes of an unfinished encoder-stream
	// instruction the decoder keeps between reads. 0 means four times
	// MaxTableCapacity plus 64, room for any insert that fits the table even
	// when Huffman coding makes it longer than its decoded size.
	MaxEncoderStreamBuffer int
	// MaxBlockedSectionSize bounds the encoded size of a section held while
	// blocked (the decoder copies it). 0 means MaxSectionSize: encoded
	// sections are rarely larger than decoded ones.
	MaxBlockedSectionSize int
	// Validate checks every field as it is decoded: names and values per
	// RFC 9114 §4.2, pseudo-header fields defined and before regular ones
	// (§4.3); the rules of HTTP/2 and of the hpack package. A malformed
	// field is a stream error (fastpath.ErrMalformedField), not a connection error.
	Validate bool
	// InitialCapacity starts the dynamic table at this capacity (at most
	// MaxTableCapacity) instead of 0, so inserts may come before any Set
	// Dynamic Table Capacity. RFC 9204 forbids that; encoders written to
	// earlier drafts relied on it (they started at the maximum), and so do
	// many QIFS interop files. 0, the default, follows the RFC.
	InitialCapacity uint64
}

// Decoder is the decoding half of a QPACK connection: it reads the peer's
// encoder stream, decodes field sections from request streams, holds
// sections that wait for inserts, and produces the decoder stream.
//
// A Decoder is set up with Init. It is not safe for concurrent use: a
// server serializes calls (one mutex per connection is enough; every call
// is short, none waits).
//
// For sections without dynamic references, from a connection's second
// one, it remembers the decoding of recent Huffman-coded literals (up to
// 8 KiB of them, compared in full on every use): a peer that does not use
// the table sends the same user-agent, accept and cookie values in every
// request (on the QIFS trace the memo saves 18 % of static-only decoding;
// used for sections with references it would cost 13 %). Init forgets
// them.
//
// After a connection error (Error.Code QPACK_DECOMPRESSION_FAILED or
// QPACK_ENCODER_STREAM_ERROR) every later call fails with fastpath.ErrClosed.
type Decoder struct {
	maxEntries uint64
	// The limits, each at most maxLimit: int32 keeps the struct at 352
	// bytes, a size class (392 took one of 416).
	maxCap, maxBlocked, maxSection, maxFields int32
	maxString, maxEncBuf, maxHeld             int32

	validate bool
	memoOn   bool // the section being decoded may use the memo
	static1  bool // a section without references was decoded

	tbl         table.Table
	err         *Error // the connection error, once failed
	closedErr   *Error
	encoderLine        // encoder-stream reader state
	*blockedSet        // held sections, made on first use, kept by Init
	nameBuf     []byte // Huffman scratch, for sections and the encoder stream
	valueBuf    []byte
	out         []byte   // pending Section Acknowledgments and Stream Cancellations
	known       uint64   // Known Received Count the encoder has once it reads out
	memo        *decMemo // Huffman strings of sections, made by startMemo, kept by Init
}

// Init makes d a fresh decoder with the settings and limits of cfg (a new
// connection). It keeps the memory of its table and buffers, wiped:
// nothing of the last connection's fields stays, in the table, in a cache
// or in a buffer. The zero Decoder is a static-only decoder with the
// default limits, as if Init(DecoderConfig{}) had been called.
func (d *Decoder) Init(cfg DecoderConfig) {
	if b := d.blockedSet; b != nil {
		for i := range b.held {
			d.recycle(b.held[i].buf)
		}
		clear(b.held)
		for i, s := range b.spare {
			b.spare[i] = wipe(s)
		}
		*b = blockedSet{held: b.held[:0], spare: b.spare}
	}
	*d = Decoder{
		memo:        d.memo.wipe(),
		tbl:         d.tbl,
		blockedSet:  d.blockedSet,
		encoderLine: encoderLine{pend: wipe(d.pend)},
		nameBuf:     wipe(d.nameBuf),
		valueBuf:    wipe(d.valueBuf),
		out:         d.out[:0],
	}
	maxCap := int(min(cfg.MaxTableCapacity, maxLimit))
	// MaxEntries follows the setting as sent, so the Required Insert Count
	// encoding agrees with the peer's even for settings past our own limit.
	d.maxEntries = min(cfg.MaxTableCapacity, 1<<62) / table.Overhead
	maxSection := clampLimit(cfg.MaxSectionSize, defaultMaxSectionSize)
	d.maxCap = int32(maxCap)
	d.maxBlocked = int32(min(cfg.MaxBlockedStreams, maxLimit))
	d.maxSection = int32(maxSection)
	d.maxFields = int32(clampLimit(cfg.MaxFields, maxLimit))
	d.maxString = int32(clampLimit(cfg.MaxStringLength, maxSection))
	d.maxEncBuf = int32(clampLimit(cfg.MaxEncoderStreamBuffer, int(min(4*uint64(maxCap)+64, maxLimit))))
	d.maxHeld = int32(clampLimit(cfg.MaxBlockedSectionSize, maxSection))
	d.validate = cfg.Validate
	d.tbl.Init(maxCap, false) // keeps memory for the largest table the peer may set
	d.tbl.SetCapacity(int(min(cfg.InitialCapacity, uint64(maxCap))))
}

// setup initializes a zero Decoder on its first use.
func (d *Decoder) setup() {
	if d.maxSection == 0 {
		d.Init(DecoderConfig{})
	}
}

// clampLimit reads a configured limit: def when not positive, at most
// maxLimit.
func clampLimit(v, def int) int {
	if v <= 0 {
		return def
	}
	return min(v, maxLimit)
}

// InsertCount returns the number of entries inserted into the dynamic table
// so far.
func (d *Decoder) InsertCount() uint64 { return d.tbl.Inserted() }

// TableSize returns the dynamic table's size in RFC 9204 octets (name +
// value + 32 per entry) and its current capacity.
func (d *Decoder) TableSize() (size, capacity int) { return d.tbl.Size(), d.tbl.Capacity() }

// TableEntry returns the dynamic table entry with absolute index abs, if it
// is still in the table. The slices are valid until the next call that
// changes the table (ReadEncoderStream).
func (d *Decoder) TableEntry(abs uint64) (name, value []byte, ok bool) { return d.tbl.Abs(abs) }

// fail records a connection error and returns it; every later call returns
// fastpath.ErrClosed.
func (d *Decoder) fail(code ErrCode, stream uint64, off int, cause error) *Error {
	e := &Error{Code: code, StreamID: stream, Offset: off, Err: cause}
	d.err = e
	d.closedErr = &Error{Code: code, StreamID: stream, Offset: off, Err: fastpath.ErrClosed}
	return e
}
