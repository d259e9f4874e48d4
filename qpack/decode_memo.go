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
// the first and last 8 coded bytes. Entry buffers are allocated on first
// use and reused; strings over decMemoMax bytes (coded and decoded) are not
// kept, and all the buffers together stay within decMemoBudget bytes.
//
// A string handed out from the memo is valid until the next store, which
// may reuse its entry's buffer: until the next string decoded from the
// wire.
type decMemo struct {
	ents  [decWays << decBits]decEntry
	bytes int // total capacity of the entries' buffers
	// first is the entry of the first string of the last section where
	// decoding looked first; each entry's next is the entry of the string
	// that followed it (see fastString).
	first uint8
}

const (
	decBits       = 4
	decWays       = 4
	decMemoMax    = 768
	decMemoBudget = 8 << 10
)

type decEntry struct {
	head uint64 // the first 8 coded bytes (zero-padded)
	tail uint64 // the last 8 (0 for fewer than 8)
	n    uint32 // coded length; 0 in an empty entry
	next uint8  // where the string after this one was, last time
	buf  []byte // the coded bytes, then the decoded ones
	out  []byte // the decoded bytes in buf, capacity trimmed
}

// is reports whether en holds the coded p[start:end], whose key is head
// and tail.
func (en *decEntry) is(p []byte, start, end int, head, tail uint64) bool {
	n := end - start
	// Sixteen bytes or fewer are all in head and tail.
	return en.head == head && en.tail == tail && int(en.n) == n && (n <= 16 || string(en.buf[:n]) == string(p[start:end]))
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

// find returns the decoding of the Huffman-coded p[start:end], or nil.
func (m *decMemo) find(p []byte, start, end int) []byte {
	head, tail := decKey(p, start, end)
	n := end - start
	i := decHash(head, tail, n)
	set := (*[decWays]decEntry)(m.ents[i : i+decWays])
	for j := range set {
		if en := &set[j]; en.is(p, start, end, head, tail) {
			return en.out
		}
	}
	return nil
}

// index returns the entry that holds the Huffman-coded p[start:end], or
// -1.
func (m *decMemo) index(p []byte, start, end int) int {
	head, tail := decKey(p, start, end)
	i := decHash(head, tail, end-start)
	for j := i; j < i+decWays; j++ {
		if m.ents[j].is(p, start, end, head, tail) {
			return j
		}
	}
	return -1
}

// store remembers that the Huffman-coded s decodes to out.
func (m *decMemo) store(s, out []byte) {
	need := len(s) + len(out)
	if len(s) == 0 || need > decMemoMax {
		return
	}
	head, tail := decKey(s, 0, len(s))
	i := decHash(head, tail, len(s))
	set := (*[decWays]decEntry)(m.ents[i : i+decWays])
	// The newest goes first, the others move down a way; the oldest
	// leaves, and its buffer is reused.
	buf := set[decWays-1].buf[:0]
	if cap(buf) < need {
		if m.bytes-cap(buf)+need > decMemoBudget {
			return
		}
		m.bytes += need - cap(buf)
		buf = make([]byte, 0, need)
	}
	copy(set[1:], set[:decWays-1])
	buf = append(buf, s...)
	buf = append(buf, out...)
	set[0] = decEntry{head: head, tail: tail, n: uint32(len(s)), buf: buf, out: buf[len(s):need:need]}
}
