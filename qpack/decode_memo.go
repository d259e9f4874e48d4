package qpack

import "encoding/binary"

// decMemo remembers the decoding of recent Huffman-coded string literals of
// field sections, by their coded bytes. A peer that uses only the static
// table (as quic-go's encoder and most HTTP/3 clients do) sends the same
// literals, a browser's user-agent, accept and cookie, in section after
// section on a connection: a hit replaces the Huffman decoding with a
// comparison of the coded bytes and hands out the memo's copy of the
// decoded string. Every hit compares all the coded bytes, so it gives
// exactly what the Huffman decoder would.
//
// It is four-way set-associative, 16 sets, keyed by the coded length and
// the first and last 8 coded bytes. Its strings, coded and decoded, lie in
// one arena that grows on use up to decMemoBudget bytes, then starts over;
// longer than decMemoMax, they are not kept. Init wipes it, keeping memory.
// The entries are 4 bytes and the links between them apart, so the memo's
// fixed part is 352 bytes, not 576: the decoded length, read only on a
// hit, lies in the arena between the coded and the decoded bytes.
//
// A string handed out from the memo is valid until the next room, which
// may reuse the arena: until the next string decoded from the wire.
type decMemo struct {
	ents [decWays << decBits]decEntry
	// next[j] is the entry of the string that followed entry j's, last
	// time (see fastString).
	next  [decWays << decBits]uint8
	arena []byte // from decMemoHead on: coded bytes, 2-byte decoded length, decoded bytes
	// first is the entry of the first string of the last section where
	// decoding looked first.
	first uint8
}

const (
	decBits       = 4
	decWays       = 4
	decMemoMax    = 768
	decMemoBudget = 8 << 10 // +decMemoMax < 1<<16: offsets are uint16
	// decMemoHead is the arena's first bytes, always zero: the decoded
	// length of an empty entry (off and n 0), so that a hit on one, by an
	// empty coded string, gives an empty string as the Huffman decoder
	// does.
	decMemoHead = 2
)

// decEntry is 4 bytes: the key is compared in the arena.
type decEntry struct {
	off uint16 // the coded bytes at arena[off:]
	n   uint16 // coded length; 0 in an empty entry
}

// newDecMemo returns an empty memo.
func newDecMemo() *decMemo { return &decMemo{arena: make([]byte, decMemoHead, 512)} }

// coded and out return en's coded and decoded bytes, capacity trimmed.
func (m *decMemo) coded(en *decEntry) []byte { return m.arena[en.off : en.off+en.n : en.off+en.n] }
func (m *decMemo) out(en *decEntry) []byte {
	o := int(en.off) + int(en.n)
	dn := int(binary.LittleEndian.Uint16(m.arena[o:]))
	o += 2
	return m.arena[o : o+dn : o+dn]
}

// wipe empties m (if any) for a new connection, keeping its arena's memory.
func (m *decMemo) wipe() *decMemo {
	if m != nil {
		clear(m.arena[:cap(m.arena)])
		*m = decMemo{arena: m.arena[:decMemoHead]}
	}
	return m
}

// is reports whether en holds the coded p[start:end].
func (m *decMemo) is(en *decEntry, p []byte, start, end int) bool {
	return int(en.n) == end-start && string(m.coded(en)) == string(p[start:end])
}

// le64 returns the little-endian word at the start of b.
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// decHash returns the first entry of the set of a coded string of length n
// whose first 8 bytes (zero-padded) are head and last 8 are tail (0 when
// n < 8).
func decHash(head, tail uint64, n int) int {
	h := head*0x9e3779b97f4a7c15 ^ tail*0xc2b2ae3d27d4eb4f ^ uint64(n)
	return int(h>>(64-decBits)) * decWays
}

// decKey returns the head and tail of the coded p[start:end], with
// whole-word loads where p allows them.
func decKey(p []byte, start, end int) (head, tail uint64) {
	switch n := end - start; {
	case n >= 8:
		return binary.LittleEndian.Uint64(p[start:]), binary.LittleEndian.Uint64(p[end-8:])
	case start+8 <= len(p):
		return binary.LittleEndian.Uint64(p[start:]) & (1<<(8*n) - 1), 0
	}
	for i := end - 1; i >= start; i-- {
		head = head<<8 | uint64(p[i])
	}
	return head, 0
}

// index returns the entry that holds the Huffman-coded p[start:end], or
// -1.
func (m *decMemo) index(p []byte, start, end int) int {
	head, tail := decKey(p, start, end)
	i := decHash(head, tail, end-start)
	for j := i; j < i+decWays; j++ {
		if m.is(&m.ents[j], p, start, end) {
			return j
		}
	}
	return -1
}

// room returns the empty slice past the arena's end, with room for c and
// its decoding (8/5 as long at most), to decode c into for keep; or nil.
func (m *decMemo) room(c []byte) []byte {
	need := len(c) + 8*len(c)/5 + 1
	if len(c) == 0 || need > decMemoMax {
		return nil
	}
	need += 2 // the decoded length
	if len(m.arena)+need > decMemoBudget {
		m.wipe() // full: start over
	}
	if len(m.arena)+need > cap(m.arena) {
		m.arena = append(make([]byte, 0, min(max(2*cap(m.arena), len(m.arena)+need, 512), decMemoBudget)), m.arena...)
	}
	o := len(m.arena) + len(c) + 2
	return m.arena[o:o]
}

// keep remembers that c decodes to out, which was appended to room(c).
func (m *decMemo) keep(c, out []byte) {
	head, tail := decKey(c, 0, len(c))
	// The newest goes first, the others move down a way; the oldest leaves.
	i := decHash(head, tail, len(c))
	set, next := (*[decWays]decEntry)(m.ents[i:]), (*[decWays]uint8)(m.next[i:])
	copy(set[1:], set[:decWays-1])
	copy(next[1:], next[:decWays-1])
	next[0] = 0
	set[0] = decEntry{off: uint16(len(m.arena)), n: uint16(len(c))}
	m.arena = append(binary.LittleEndian.AppendUint16(append(m.arena, c...), uint16(len(out))), out...) // out in place: copied onto itself
}
