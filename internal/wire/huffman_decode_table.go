package wire

import (
	"cmp"
	"slices"
	"sync"
)

// The decoder reads 12 bits at a time: huffmanShortTable maps every 12-bit
// window to the whole symbols it begins with (up to 2, since the shortest
// code is 5 bits) and the bits they take. At 16 KiB it stays in the L1
// cache, where a 16-bit table (3 symbols a lookup, but 256 KiB) misses on
// the varied text of real headers. A window that begins inside a code
// longer than 12 bits has no symbol and goes to the slow path.
//
// The three-stream decoder of long strings (huffman_split.go) keeps a
// 16-bit table, huffmanDecodeTable, with up to 3 symbols: there a lookup's
// miss is shared by the streams and paid back over the whole string. It is
// built only when the first such string arrives.
//
// Entry layout (both tables): bits 0-5 the bits the symbols take, where a
// shift reads them without masking (it is on the critical path: the next
// lookup waits for it); bits 6-29 the symbols, the first lowest, so that
// e>>6 is them in little-endian order for one 4-byte store; bits 30-31 how
// many symbols, one shift away. The count also keeps the store's last byte
// from being a constant 0, which would make the compiler split the store
// in three. An entry without symbols is 0.
//
// The tables are built on first use rather than at init, so that a
// program that only encodes pays nothing.
var (
	huffmanDecodeOnce sync.Once
	huffmanShortTable [1 << 12]uint32 // 16 KiB; built on first decode

	huffmanSplitOnce   sync.Once
	huffmanDecodeTable [1 << 16]uint32 // 256 KiB; built on first long string
)

// huffmanSpans is every symbol in the order of its code's left-aligned
// 30-bit value, for decoding codes longer than 16 bits. Because the code is
// complete, each 30-bit value falls in exactly one code's range, which a
// binary search finds.
var huffmanSpans [257]huffmanSpan

type huffmanSpan struct {
	start uint32 // code << (30 - bits)
	sym   uint16
}

// buildHuffmanDecodeTable builds huffmanShortTable and huffmanSpans.
func buildHuffmanDecodeTable() {
	fillHuffmanTable(huffmanShortTable[:], 12, 2)
	for i := range huffmanSpans {
		c := huffmanCodes[i]
		huffmanSpans[i].start = c.code << (30 - c.bits)
		huffmanSpans[i].sym = uint16(i)
	}
	slices.SortFunc(huffmanSpans[:], func(a, b huffmanSpan) int {
		return cmp.Compare(a.start, b.start)
	})
}

// buildHuffmanSplitTable builds huffmanDecodeTable.
func buildHuffmanSplitTable() { fillHuffmanTable(huffmanDecodeTable[:], 16, 3) }

// fillHuffmanTable fills t, of 1<<width entries, with the entry of every
// width-bit window: up to most symbols.
func fillHuffmanTable(t []uint32, width uint, most uint) {
	// Symbols by code length, so the fill below stops at the first code
	// that no longer fits the window.
	var order [256]uint16
	for i := range order {
		order[i] = uint16(i)
	}
	slices.SortFunc(order[:], func(a, b uint16) int {
		return int(huffmanCodes[a].bits) - int(huffmanCodes[b].bits)
	})

	// fill writes the entry for the symbols decoded so far to every window
	// that begins with their bits, then lets each window whose next code
	// also fits overwrite it with a longer decode.
	var fill func(prefix uint32, used uint, syms uint32, count uint)
	fill = func(prefix uint32, used uint, syms uint32, count uint) {
		for _, sym := range order {
			c := huffmanCodes[sym]
			l := used + uint(c.bits)
			if l > width {
				break
			}
			p := prefix<<c.bits | c.code
			s := syms | uint32(sym)<<(6+8*count)
			e := s | uint32(count+1)<<30 | uint32(l)
			lo := p << (width - l)
			run := t[lo : lo+1<<(width-l)]
			for i := range run {
				run[i] = e
			}
			if count+1 < most {
				fill(p, l, s, count+1)
			}
		}
	}
	fill(0, 0, 0, 0)
}

// decodeLong returns the symbol whose code begins the 30 bits at the top of
// acc, and its length. Symbol 256 is EOS.
func decodeLong(acc uint64) (sym int, bits uint) {
	v := uint32(acc >> 34)
	lo, hi := 0, len(huffmanSpans)
	for hi-lo > 1 { // invariant: huffmanSpans[lo].start <= v
		m := int(uint(lo+hi) >> 1)
		if huffmanSpans[m].start <= v {
			lo = m
		} else {
			hi = m
		}
	}
	sym = int(huffmanSpans[lo].sym)
	return sym, uint(huffmanCodes[sym].bits)
}
