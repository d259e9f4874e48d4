package hpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/table"
)

// A section made only of one-byte indexed field lines refers to entries,
// and while the table does not change, the same bytes refer to the same
// entries: Decode hands such a section, when it repeats the last one byte
// for byte, the fields remembered from last time without decoding it. On a
// warm connection that is a repeated request (a gRPC method called again
// without a deadline, a poll) and, on a client, a repeated response or
// trailer section (`:status 200` and `content-type: application/grpc`,
// `grpc-status: 0`).
//
// Remembering a section costs a comparison and a copy of its bytes; its
// fields are looked up only when it comes a second time, so sections that
// do not repeat pay little. Only Decode remembers: Write sees sections in
// pieces.

// repeatMax bounds the sections remembered, in bytes (and so in fields).
const repeatMax = 64

// decRepeat is the last section Decode decoded, when it qualified.
type decRepeat struct {
	block []byte
	// The table's Insert Count and length when it was decoded: while they
	// are the same, no entry was added or evicted since.
	ins   uint64
	n     int
	seen  bool // block is the last section
	ready bool // fields and size are block's
	// The fields as the sink got them (their slices alias the table, the
	// static table or nothing), and the section's size.
	fields []repeatField
	size   int
}

type repeatField struct {
	name, value []byte
	f           fastpath.Flags
}

// forget makes r remember nothing.
func (r *decRepeat) forget() {
	if r.ready {
		clear(r.fields) // drop references to a table arena
	}
	r.seen, r.ready = false, false
}

// atStart reports whether d is between sections, where a whole block
// starts.
func (d *Decoder) atStart() bool {
	return d.ready && d.err == nil && len(d.buf) == 0 && d.pos == 0 && !d.started && d.updates == 0
}

// repeat delivers block's fields to sink from the remembered section, if
// block is that section and the table has not changed, and returns true;
// End completes the section. With false, nothing was delivered: the
// section is decoded as usual, which also reports a size update the peer
// owes. The section passed the limits and the validation when it was
// remembered (only a section decoded without error is), and both stay as
// they are until Init, which forgets it.
func (d *Decoder) repeat(block []byte, sink fastpath.Sink) bool {
	r := &d.rep
	if !r.ready || len(block) != len(r.block) || d.tab.Inserted() != r.ins || d.tab.Len() != r.n ||
		string(block) != string(r.block) || d.start() != nil {
		return false
	}
	for i := range r.fields {
		f := &r.fields[i]
		if err := sink.Field(f.name, f.value, f.f); err != nil {
			d.stream, d.slow = err, true // delivery stops, as in indexedRun
			break
		}
	}
	d.used, d.fields = r.size, len(r.fields)
	d.pos = len(block)
	d.work.parsed += len(block)
	return true
}

// remember notes block, a section just decoded whole and without error:
// the first time it comes, its bytes; the second time in a row, its
// fields, for repeat. mixed tells that it had a line other than a one-byte
// index (a literal, a size update, a longer index).
func (d *Decoder) remember(block []byte, mixed bool) {
	r := &d.rep
	if d.noRepeat || mixed || len(block) > repeatMax || len(block) == 0 {
		r.forget()
		return
	}
	ins, n := d.tab.Inserted(), d.tab.Len()
	if r.seen && ins == r.ins && n == r.n && string(block) == string(r.block) {
		if !r.ready {
			d.record(block)
		}
		return
	}
	r.forget()
	r.block = append(r.block[:0], block...)
	r.ins, r.n, r.seen = ins, n, true
}

// record looks block's fields up as indexedRun does and keeps them.
func (d *Decoder) record(block []byte) {
	r := &d.rep
	r.fields, r.size = r.fields[:0], 0
	for _, b := range block {
		name, value, id, err := d.entry(uint64(b & 0x7f))
		if err != nil { // it was just decoded: cannot happen
			r.forget()
			return
		}
		r.fields = append(r.fields, repeatField{name, value, fastpath.Flags(0).WithID(id)})
		r.size += len(name) + len(value) + table.Overhead
	}
	r.ready = true
}
