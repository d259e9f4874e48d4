package hpack

import "cmp"

// SetTableCapacity sets the dynamic table's capacity to n at once,
// evicting the oldest entries to fit, and leaves the signaling to the
// caller: the encoder writes no Dynamic Table Size Update for it, drops any
// that was pending, and from then on takes n as both its own limit and the
// peer's setting (as if SetTableLimit(n) and SetMaxTableSize(n) had been
// called and the update written). It is for callers that write their own
// updates, as golang.org/x/net/http2/hpack's Encoder does before its next
// field: the peer's decoder must see an update to n before the next
// section, or it will not mirror the table. Call it between sections.
func (e *Encoder) SetTableCapacity(n uint32) {
	e.init()
	v := int(min(uint64(n), maxTableSize))
	e.table.SetCapacity(v)
	e.limit, e.peer, e.target, e.cur = v, v, v, v
	e.sizePending, e.sizeMin = false, v
}

// SetTableCapacity sets the dynamic table's capacity to n at once,
// evicting the oldest entries to fit, as a Dynamic Table Size Update from
// the peer would, but without checking n against our setting
// (SetMaxTableSize) and without the peer sending anything: for callers that
// learn the peer's table size some other way (golang.org/x/net/http2/hpack's
// Decoder.SetMaxDynamicTableSize). Like an update, it settles any update
// the peer owed after we lowered our setting. Call it between sections.
func (d *Decoder) SetTableCapacity(n uint32) {
	d.init()
	v := int(min(uint64(n), decMaxTable))
	d.tab.SetCapacity(v)
	// Nothing is owed, even above our setting.
	d.lowTable = max(d.maxTable, v)
}

// SetMaxStringLength sets the bound on each name and value from the next
// string decoded on, as DecoderConfig.MaxStringLength does (0 or less
// means the section size limit). Checked on the wire length before any
// Huffman decoding and again on the decoded length. It may be called at
// any time, also between the fragments of a section.
func (d *Decoder) SetMaxStringLength(n int) {
	d.init()
	d.maxString = min(cmp.Or(max(n, 0), d.maxSect), decMaxTable)
}
