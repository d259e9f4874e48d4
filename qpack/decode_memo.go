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
//
// A string handed out from the memo is valid until the next room, which
// may reuse the arena: until the next string decoded from the wire.
type decMemo struct {
	ents  [decWays << decBits]decEntry
	arena []byte
	// first is the entry of the first string of the last section where
	// decoding looked first; each entry's next is the entry of the string
	// that followed it (see fastString).
	first uint8
}

const (
	decBits       = 4
	decWays       = 4
	decMemoMax    = 768
	decMemoBudget = 8 << 10 // +decMemoMax < 1<<16: offsets are uint16
)

// decEntry is 8 bytes: the key is compared in the arena.
type decEntry struct {
	off   uint16 // the coded bytes at arena[off:], then the decoded ones
	n, dn uint16 // coded and decoded lengths; n is 0 in an empty entry
	next  uint8  // where the string after this one was, last time
}

// coded and out return en's coded and decoded bytes, capacity trimmed.
func (m *decMemo) coded(en *decEntry) []byte { return m.arena[en.off : en.off+en.n : en.off+en.n] }
func (m *decMemo) out(en *decEntry) []byte   { o := en.off + en.n; return m.arena[o : o+en.dn : o+en.dn] }

// wipe empties m (if any) for a new connection, keeping its arena's memory.
func (m *decMemo) wipe() *decMemo {
	if m != nil {
		clear(m.arena[:cap(m.arena)])
		*m = decMemo{arena: m.arena[:0]}
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
	if len(m.arena)+need > decMemoBudget {
		m.wipe() // full: start over
	}
	if len(m.arena)+need > cap(m.arena) {
		m.arena = append(make([]byte, 0, min(max(2*cap(m.arena), len(m.arena)+need, 512), decMemoBudget)), m.arena...)
	}
	return m.arena[len(m.arena)+len(c) : len(m.arena)+len(c)]
}

// keep remembers that c decodes to out, which was appended to room(c).
func (m *decMemo) keep(c, out []byte) {
	head, tail := decKey(c, 0, len(c))
	// The newest goes first, the others move down a way; the oldest leaves.
	set := (*[decWays]decEntry)(m.ents[decHash(head, tail, len(c)):])
	copy(set[1:], set[:decWays-1])
	set[0] = decEntry{off: uint16(len(m.arena)), n: uint16(len(c)), dn: uint16(len(out))}
	m.arena = append(append(m.arena, c...), out...) // out in place: copied onto itself
}
