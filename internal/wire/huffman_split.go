package wire

import "encoding/binary"

// A single decoding stream is bound by latency, not work: each lookup needs
// the bits the previous one took (index, table load, shift), about 7
// cycles, while the CPU could do three times the work. So a long string is
// decoded as three streams at once, over three thirds of the input.
//
// A starts at the beginning. B and C start at byte boundaries, which may
// fall inside a code: they decode garbage for a few symbols until they fall
// into step with the true symbol boundaries (Huffman codes resynchronize
// quickly). B and C write to scratch buffers. Once a stream reaches the
// next one's start, it goes on until one of its lookups starts on one of
// the next stream's symbol boundaries (they join): from that bit on both
// decode the same symbols, so the next stream's output from that symbol on
// is the true output. A's output, then B's and C's from where they were
// joined, is the decoding up to where C stopped. If two streams never join,
// the later one is dropped and the earlier one's state stands, so the split
// changes speed only, never output or errors.

const (
	// huffmanSplitMin is the input length from which three streams pay
	// off. Measured: below it, setting them up and joining them costs more
	// than they save; the gain also shrinks when another thread shares the
	// core, as it needs the core's spare execution units.
	huffmanSplitMin = 256
	// huffmanSplitMaxPart caps the share of B and C so that their output
	// (at most 8/5 symbols per input byte) fits their scratch buffers.
	huffmanSplitMaxPart = (huffmanSplitHalf-16)*5/8 - huffmanSplitSlack
	// huffmanSplitSlack is how much longer C's part is than A's and B's.
	huffmanSplitSlack = 16
	// huffmanSplitHalf is the size of B's and C's scratch buffers, the
	// halves of a huffmanScratch.
	huffmanSplitHalf = 512
)

// huffmanScratch holds B's output in its first half and C's in the second.
type huffmanScratch [2 * huffmanSplitHalf]byte

// huffmanStream is the state of one stream: the bit of src where its next
// lookup starts, and the length of its output.
type huffmanStream struct{ pos, n int }

// huffmanDecodeSplit decodes src from bit pos, a symbol boundary, into
// out[n:len(out)], in rounds of three streams while enough input is left.
// It returns the new n and pos; the caller decodes the rest (the last
// bytes, codes longer than 16 bits and any error).
func huffmanDecodeSplit(out []byte, n int, src []byte, pos int) (int, int) {
	var sc huffmanScratch
	for len(src)-pos>>3 >= huffmanSplitMin {
		a, ok := huffmanSplitRound(out, huffmanStream{pos, n}, src, &sc)
		n, pos = a.n, a.pos
		if !ok {
			break
		}
	}
	return n, pos
}

// huffmanSplitRound decodes up to three parts of src at once and joins
// them. ok is false when A stopped early (at a long code, or the end of src
// or of out), so that another round would not get far either.
func huffmanSplitRound(out []byte, a huffmanStream, src []byte, scratch *huffmanScratch) (huffmanStream, bool) {
	sb, sc := scratch[:huffmanSplitHalf], scratch[huffmanSplitHalf:]
	// C gets the longest part: it stops some 14 bytes short of the end of
	// src (a group needs 8 bytes to load and may take 6), and A and B
	// should reach their ends first, so that they need not go on alone.
	part := min((len(src)-a.pos>>3-huffmanSplitSlack)/3, huffmanSplitMaxPart)
	startB := 8 * (a.pos>>3 + part)
	startC := startB + 8*part
	b := huffmanStream{startB, 0}
	c := huffmanStream{startC, 0}

	a, b, c = huffmanDecode3(out, scratch, src, a, b, c)
	// One of them stopped: the others go on alone to the next start.
	a = huffmanDecode1(out, src, a, startB)
	b = huffmanDecode1(sb, src, b, startC)

	// Join B to C, then A to B.
	b, jc, bc := huffmanJoin(sb, src, b, sc[:c.n], startC)
	a, jb, ab := huffmanJoin(out, src, a, sb[:b.n], startB)
	if !ab {
		return a, a.pos >= startB
	}
	if a.n+b.n-jb > len(out) {
		return a, false
	}
	a.n += copy(out[a.n:], sb[jb:b.n])
	a.pos = b.pos
	if !bc || a.n+c.n-jc > len(out) {
		return a, true
	}
	a.n += copy(out[a.n:], sc[jc:c.n])
	a.pos = c.pos
	return a, true
}

// huffmanJoin continues stream s (writing to out) until one of its lookups
// starts on a symbol boundary of the next stream, which started at bit
// start and decoded next. It returns s at that bit and the index in next of
// the symbol that starts there. ok is false if s cannot go on, or if next
// ends before they meet, or if they do not meet within 32 lookups.
func huffmanJoin(out, src []byte, s huffmanStream, next []byte, start int) (_ huffmanStream, j int, ok bool) {
	q := start // the bit where next[j] starts
	// Streams fall into step within a few symbols; giving up after a
	// while bounds the single lookups spent when they do not.
	for tries := 0; s.pos >= start && tries < 32; tries++ {
		for j < len(next) && q < s.pos {
			q += int(huffmanBits[next[j]])
			j++
		}
		if q == s.pos {
			return s, j, true
		}
		if q < s.pos {
			break // next ended before s got there
		}
		// s is inside one of next's symbols: one more lookup.
		if s.pos>>3+8 > len(src) || s.n+4 > len(out) {
			break
		}
		acc := binary.BigEndian.Uint64(src[s.pos>>3:]) << (s.pos & 7)
		e := huffmanDecodeTable[acc>>48]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(out[s.n:], e>>6)
		s.n += int(e >> 30)
		s.pos += int(e & 63)
	}
	return s, 0, false
}

// huffmanDecode3 runs the three streams side by side until one meets a long
// code or the end of its input or output room: C normally reaches the end
// of src last, as its part is the longest. A writes to out, B and C to the
// halves of sc. A and B go on past the start of the next part with the
// others: the extra groups cost little beside the others', and the join
// then only has to find where two streams meet, not decode up to it
// alone.
//
// The three streams' groups are written out in one loop, not called as a
// function: a call per group costs as much as the group (Go keeps no
// registers across calls).
func huffmanDecode3(out []byte, sc *huffmanScratch, src []byte, a, b, c huffmanStream) (_, _, _ huffmanStream) {
	const half = huffmanSplitHalf
	t := &huffmanDecodeTable
	sb, scc := (*[half]byte)(sc[:half]), (*[half]byte)(sc[half:])
	pa, na, pb, nb, pc, nc := uint(a.pos), uint(a.n), uint(b.pos), uint(b.n), uint(c.pos), uint(c.n)
	for {
		// As many groups as surely fit, so that the inner loop checks
		// nothing but its count: a group takes at most 48 bits (6 bytes)
		// and writes at most 9 bytes (with 10 of room for its last store).
		g := min(huffmanGroupsIn(len(src)-8-int(max(pa, pb, pc)>>3), 6),
			huffmanGroupsIn(len(out)-int(na)-10, 9),
			huffmanGroupsIn(half-10-int(max(nb, nc)), 9))
		if g == 0 {
			break
		}
		// An entry of 0 (a long code) takes no bits and writes nothing
		// past n, so a stream that meets one just stops, and the groups
		// need no check: the loop below looks for stopped streams after.
		for ; g > 0; g-- {
			acc := binary.BigEndian.Uint64(src[pa>>3:pa>>3+8]) << (pa & 7)
			e0 := t[acc>>48]
			acc <<= e0 & 63
			e1 := t[acc>>48]
			acc <<= e1 & 63
			e2 := t[acc>>48]
			pa += uint((e0 + e1 + e2) & 63) // no carry: 3*16 < 64
			na = huffmanStore3((*[10]byte)(out[na:na+10]), na, e0, e1, e2)

			acc = binary.BigEndian.Uint64(src[pb>>3:pb>>3+8]) << (pb & 7)
			e0 = t[acc>>48]
			acc <<= e0 & 63
			e1 = t[acc>>48]
			acc <<= e1 & 63
			e2 = t[acc>>48]
			pb += uint((e0 + e1 + e2) & 63)
			nb = huffmanStore3((*[10]byte)(sb[nb:nb+10]), nb, e0, e1, e2)

			acc = binary.BigEndian.Uint64(src[pc>>3:pc>>3+8]) << (pc & 7)
			e0 = t[acc>>48]
			acc <<= e0 & 63
			e1 = t[acc>>48]
			acc <<= e1 & 63
			e2 = t[acc>>48]
			pc += uint((e0 + e1 + e2) & 63)
			nc = huffmanStore3((*[10]byte)(scc[nc:nc+10]), nc, e0, e1, e2)
		}
		if huffmanStopped(src, pa) || huffmanStopped(src, pb) || huffmanStopped(src, pc) {
			break
		}
	}
	return huffmanStream{int(pa), int(na)}, huffmanStream{int(pb), int(nb)}, huffmanStream{int(pc), int(nc)}
}

// huffmanStore3 writes the symbols of three entries at w, which is out[n:],
// and returns the new n.
func huffmanStore3(w *[10]byte, n uint, e0, e1, e2 uint32) uint {
	binary.LittleEndian.PutUint32(w[0:4], e0>>6)
	k := uint(e0 >> 30)
	binary.LittleEndian.PutUint32(w[k:k+4], e1>>6)
	k += uint(e1 >> 30)
	binary.LittleEndian.PutUint32(w[k:k+4], e2>>6)
	return n + k + uint(e2>>30)
}

// huffmanStopped reports whether the stream at bit pos meets a long code.
func huffmanStopped(src []byte, pos uint) bool {
	if pos>>3+8 > uint(len(src)) {
		return false
	}
	acc := binary.BigEndian.Uint64(src[pos>>3:]) << (pos & 7)
	return huffmanDecodeTable[acc>>48] == 0
}

// huffmanGroupsIn returns how many groups fit when the first needs room >= 0
// and each takes up to step more.
func huffmanGroupsIn(room, step int) int {
	if room < 0 {
		return 0
	}
	return room/step + 1
}

// huffmanDecode1 is one stream alone, until it reaches bit end.
func huffmanDecode1(out, src []byte, s huffmanStream, end int) huffmanStream {
	for ok := true; ok && s.pos < end && s.pos>>3+8 <= len(src) && s.n+10 <= len(out); {
		s, ok = huffmanGroup(out, src, s)
	}
	return s
}

// huffmanGroup does 3 lookups of stream s, or none if there is a long code
// among them (ok false). It needs 8 bytes of src at s.pos and 10 of room
// in out at s.n.
//
// A stream's state is just its bit position and output length: a group
// loads 8 bytes at the position, which leaves at least 57 bits for the 3
// lookups of at most 16. With so little state the group's critical path
// stays in registers, and the CPU runs the groups of different streams
// side by side. (Inlined into one loop, the three streams' state is more
// than the registers, and the compiler spills the critical path.)
func huffmanGroup(out, src []byte, s huffmanStream) (_ huffmanStream, ok bool) {
	t := &huffmanDecodeTable
	acc := binary.BigEndian.Uint64(src[s.pos>>3:]) << (s.pos & 7)
	e0 := t[acc>>48]
	acc <<= e0 & 63
	e1 := t[acc>>48]
	acc <<= e1 & 63
	e2 := t[acc>>48]
	// An entry of 0 (a long code) takes no bits, so the lookups after it
	// see it again: the last entry is 0 if any is.
	if e2 == 0 {
		return s, false
	}
	w := (*[10]byte)(out[s.n:])
	binary.LittleEndian.PutUint32(w[:], e0>>6)
	k := e0 >> 30
	binary.LittleEndian.PutUint32(w[k:], e1>>6)
	k += e1 >> 30
	binary.LittleEndian.PutUint32(w[k:], e2>>6)
	s.n += int(k + e2>>30)
	s.pos += int((e0 + e1 + e2) & 63) // no carry: 3*16 < 64
	return s, true
}
