// Package qinstr writes QPACK's instructions (RFC 9204): the encoder-stream
// instructions of §4.3 and the pieces of an encoded field section of §4.5.
// The qpack encoder writes with it, and the conformance suite drives the
// RFC's Appendix B examples instruction by instruction.
package qinstr

import (
	"github.com/hqpack/hqpack/internal/wire"
)

// Each writer appends one instruction or piece to dst. Index arguments are
// as on the wire: relative or post-base for the dynamic table, 0-based for
// the static table. Strings are coded by the Huffman policy h.

// AppendSetCapacity appends Set Dynamic Table Capacity (§4.3.1).
func AppendSetCapacity(dst []byte, capacity uint64) []byte {
	return wire.AppendInt(dst, 0x20, 5, capacity)
}

// AppendInsertWithNameRef appends Insert with Name Reference (§4.3.2): the
// name of static entry index, or of the dynamic entry at relative index
// index, and value.
func AppendInsertWithNameRef(dst []byte, isStatic bool, index uint64, value string, h wire.Huffman) []byte {
	first := byte(0x80)
	if isStatic {
		first |= 0x40
	}
	dst = wire.AppendInt(dst, first, 6, index)
	return wire.AppendString(dst, 0, 7, value, h)
}

// AppendInsertWithLiteralName appends Insert with Literal Name (§4.3.3).
func AppendInsertWithLiteralName(dst []byte, name, value string, h wire.Huffman) []byte {
	dst = wire.AppendString(dst, 0x40, 5, name, h)
	return wire.AppendString(dst, 0, 7, value, h)
}

// AppendDuplicate appends Duplicate (§4.3.4) of the entry at relative index
// index.
func AppendDuplicate(dst []byte, index uint64) []byte {
	return wire.AppendInt(dst, 0, 5, index)
}

// AppendSectionPrefix appends the Encoded Field Section Prefix (§4.5.1):
// Required Insert Count ric, encoded modulo 2*maxEntries (maxEntries is the
// peer's maximum table capacity / 32), and the Base with its sign bit.
func AppendSectionPrefix(dst []byte, ric, base, maxEntries uint64) []byte {
	eric, sign, d := EncodeRIC(ric, maxEntries), byte(0), base-ric
	if base < ric {
		sign, d = 0x80, ric-base-1
	}
	if eric < 0xff && d < 0x7f { // the usual: a byte each, no call
		return append(dst, byte(eric), sign|byte(d))
	}
	return wire.AppendInt(wire.AppendInt(dst, 0, 8, eric), sign, 7, d)
}

// AppendIndexed appends an Indexed Field Line (§4.5.2): static entry index,
// or the dynamic entry at relative index index.
func AppendIndexed(dst []byte, isStatic bool, index uint64) []byte {
	first := byte(0x80)
	if isStatic {
		first |= 0x40
	}
	return wire.AppendInt(dst, first, 6, index)
}

// AppendIndexedPostBase appends an Indexed Field Line with Post-Base Index
// (§4.5.3).
func AppendIndexedPostBase(dst []byte, index uint64) []byte {
	return wire.AppendInt(dst, 0x10, 4, index)
}

// AppendLiteralNameRef appends a Literal Field Line with Name Reference
// (§4.5.4): the name of static entry index, or of the dynamic entry at
// relative index index, and value. never sets the N bit (never-indexed).
func AppendLiteralNameRef(dst []byte, isStatic bool, index uint64, value string, never bool, h wire.Huffman) []byte {
	first := 0x40 | NeverBit(never, 0x20)
	if isStatic {
		first |= 0x10
	}
	dst = wire.AppendInt(dst, first, 4, index)
	return wire.AppendString(dst, 0, 7, value, h)
}

// AppendLiteralPostBaseNameRef appends a Literal Field Line with Post-Base
// Name Reference (§4.5.5).
func AppendLiteralPostBaseNameRef(dst []byte, index uint64, value string, never bool, h wire.Huffman) []byte {
	dst = wire.AppendInt(dst, NeverBit(never, 0x08), 3, index)
	return wire.AppendString(dst, 0, 7, value, h)
}

// AppendLiteralName appends a Literal Field Line with Literal Name (§4.5.6).
func AppendLiteralName(dst []byte, name, value string, never bool, h wire.Huffman) []byte {
	dst = wire.AppendString(dst, 0x20|NeverBit(never, 0x10), 3, name, h)
	return wire.AppendString(dst, 0, 7, value, h)
}

// EncodeRIC returns the encoded Required Insert Count (RFC 9204 §4.5.1.1).
func EncodeRIC(ric, maxEntries uint64) uint64 {
	if ric == 0 {
		return 0
	}
	return ric%(2*maxEntries) + 1
}

// NeverBit returns bit when never is set: the N bit of a literal field line.
func NeverBit(never bool, bit byte) byte {
	if never {
		return bit
	}
	return 0
}
