package hpack

import (
	"math"

	"github.com/hqpack/hqpack/internal/wire"
)

// maxTableSize bounds sizes so they stay ints on every platform; no peer
// needs a table anywhere near it.
const maxTableSize = math.MaxInt32

// SetMaxTableSize records the peer's SETTINGS_HEADER_TABLE_SIZE. The
// encoder then uses the smaller of n and its own limit; a change is
// signaled by Dynamic Table Size Updates at the start of the next section
// (RFC 7541 §4.2), never in the middle of one.
func (e *Encoder) SetMaxTableSize(n uint32) {
	e.init()
	v := int(min(uint64(n), maxTableSize))
	// Lowering the setting is answered with an update even when the
	// table already fits it: strict decoders wait for one.
	lowered := v < e.peer
	e.peer = v
	e.retarget(lowered)
}

// SetTableLimit sets the largest dynamic table the encoder will use, below
// the peer's setting: memory the encoder chooses to spend. A negative n
// counts as 0.
func (e *Encoder) SetTableLimit(n int) {
	e.init()
	e.limit = min(max(n, 0), maxTableSize)
	e.retarget(false)
}

// TableSize returns the dynamic table's current size (the sum of its
// entries' sizes) and capacity, as the peer's decoder has them after the
// last section written.
func (e *Encoder) TableSize() (size, capacity int) {
	e.init()
	return e.table.Size(), e.table.Capacity()
}

// TableLen returns the number of entries in the dynamic table.
func (e *Encoder) TableLen() int { return e.table.Len() }

// TableEntry returns dynamic table entry i, counted from the newest (0),
// which is HPACK index 62 + i. The slices alias the table: valid until the
// next call that encodes.
func (e *Encoder) TableEntry(i int) (name, value []byte, ok bool) {
	if i < 0 {
		return nil, nil, false
	}
	return e.table.Get(uint64(i))
}

// maxTableSize returns the table capacity the encoder will use from the
// next section on: min(limit, the peer's setting). Tests use it; a caller
// knows both.
func (e *Encoder) maxTableSize() int {
	e.init()
	return e.target
}

func (e *Encoder) retarget(force bool) {
	t := min(e.limit, e.peer)
	if t == e.target && !force {
		return
	}
	e.target = t
	if !e.sizePending {
		e.sizePending, e.sizeMin = true, t
	} else {
		e.sizeMin = min(e.sizeMin, t)
	}
}

// updates returns the sizes to signal: the smallest reached since the last
// section when it evicts more than the final one, then the final one.
func (e *Encoder) updates() (lowest, final int, two bool) {
	two = e.sizeMin < e.target && e.sizeMin < e.cur
	return e.sizeMin, e.target, two
}

// prepare sets what the next field of this call may see: before the
// section's first bytes, the table as the pending updates leave it.
func (e *Encoder) prepare() {
	e.lo, e.capNow, e.updLen = 0, e.table.Capacity(), 0
	if !e.sizePending || e.started {
		return
	}
	lowest, final, two := e.updates()
	e.updLen = wire.IntLen(5, uint64(final))
	keep := final
	if two {
		e.updLen += wire.IntLen(5, uint64(lowest))
		keep = lowest
	}
	e.capNow = final
	// Entries that do not fit in keep octets, oldest first, will be
	// evicted: lookups must not reference them.
	e.lo = e.table.Inserted()
	for used := 0; e.lo > e.table.Inserted()-uint64(e.table.Len()); e.lo-- {
		name, value, _ := e.table.Abs(e.lo - 1)
		used += len(name) + len(value) + 32
		if used > keep {
			break
		}
	}
}

// commitSizes writes the pending size updates and applies them to the
// table. The caller has checked that e.updLen bytes fit.
func (e *Encoder) commitSizes(dst []byte) []byte {
	lowest, final, two := e.updates()
	if two {
		dst = wire.AppendInt(dst, 0x20, 5, uint64(lowest))
		e.table.SetCapacity(lowest)
	}
	dst = wire.AppendInt(dst, 0x20, 5, uint64(final))
	e.table.SetCapacity(final)
	e.cur = final
	e.sizePending = false
	e.started = true
	e.updLen, e.lo = 0, 0
	e.capNow = final
	return dst
}
