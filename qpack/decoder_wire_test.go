package qpack

import "github.com/hqpack/hqpack/internal/wire"

// Hand-built encoder-stream instructions and field lines (RFC 9204 §4.3,
// §4.5), for tests that need exact bytes the Encoder would not choose.

func str(dst []byte, first byte, n uint8, s string, huff bool) []byte {
	h := wire.HuffmanNever
	if huff {
		h = wire.HuffmanAlways
	}
	return wire.AppendString(dst, first, n, s, h)
}

func setCapacity(c uint64) []byte { return wire.AppendInt(nil, 0x20, 5, c) }

func insertStaticRef(idx uint64, value string, huff bool) []byte {
	return str(wire.AppendInt(nil, 0xc0, 6, idx), 0, 7, value, huff)
}

func insertDynamicRef(rel uint64, value string, huff bool) []byte {
	return str(wire.AppendInt(nil, 0x80, 6, rel), 0, 7, value, huff)
}

func insertLiteral(name, value string, huff bool) []byte {
	return str(str(nil, 0x40, 5, name, huff), 0, 7, value, huff)
}

func duplicate(rel uint64) []byte { return wire.AppendInt(nil, 0, 5, rel) }

// sectionPrefix encodes a Required Insert Count and Base for a decoder whose
// MaxEntries is maxEntries.
func sectionPrefix(ric, base, maxEntries uint64) []byte {
	enc := uint64(0)
	if ric > 0 {
		enc = ric%(2*maxEntries) + 1
	}
	p := wire.AppendInt(nil, 0, 8, enc)
	if base >= ric {
		return wire.AppendInt(p, 0, 7, base-ric)
	}
	return wire.AppendInt(p, 0x80, 7, ric-base-1)
}

func indexedStatic(idx uint64) []byte   { return wire.AppendInt(nil, 0xc0, 6, idx) }
func indexedDynamic(rel uint64) []byte  { return wire.AppendInt(nil, 0x80, 6, rel) }
func indexedPostBase(idx uint64) []byte { return wire.AppendInt(nil, 0x10, 4, idx) }

func nbit(never bool, bit byte) byte {
	if never {
		return bit
	}
	return 0
}

func literalStaticRef(idx uint64, value string, never, huff bool) []byte {
	return str(wire.AppendInt(nil, 0x50|nbit(never, 0x20), 4, idx), 0, 7, value, huff)
}

func literalDynamicRef(rel uint64, value string, never, huff bool) []byte {
	return str(wire.AppendInt(nil, 0x40|nbit(never, 0x20), 4, rel), 0, 7, value, huff)
}

func literalPostBaseRef(idx uint64, value string, never, huff bool) []byte {
	return str(wire.AppendInt(nil, nbit(never, 0x08), 3, idx), 0, 7, value, huff)
}

func literalName(name, value string, never, huff bool) []byte {
	return str(str(nil, 0x20|nbit(never, 0x10), 3, name, huff), 0, 7, value, huff)
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
