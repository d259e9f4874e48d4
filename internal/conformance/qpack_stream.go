package conformance

import (
	"errors"

	"github.com/hqpack/hqpack/internal/wire"
)

// errNoInstruction reports encoder-stream bytes that end inside an
// instruction.
var errNoInstruction = errors.New("encoder stream ends inside an instruction")

// splitInstructions splits encoder-stream bytes into whole instructions
// (RFC 9204 §4.3) and reports which of them insert an entry (every one but
// Set Dynamic Table Capacity). Only the lengths are read.
func splitInstructions(b []byte) (ins [][]byte, inserts []bool, err error) {
	for len(b) > 0 {
		n, insert, err := instructionLen(b)
		if err != nil {
			return nil, nil, err
		}
		ins, inserts, b = append(ins, b[:n]), append(inserts, insert), b[n:]
	}
	return ins, inserts, nil
}

func instructionLen(b []byte) (n int, insert bool, err error) {
	switch {
	case b[0]&0x80 != 0: // Insert with Name Reference: index, value
		_, k, err := wire.ReadInt(b, 6)
		if err != nil {
			return 0, false, err
		}
		m, err := stringLen(b[k:], 7)
		return k + m, true, err
	case b[0]&0x40 != 0: // Insert with Literal Name: name, value
		m1, err := stringLen(b, 5)
		if err != nil {
			return 0, false, err
		}
		m2, err := stringLen(b[m1:], 7)
		return m1 + m2, true, err
	default: // Set Dynamic Table Capacity (001), Duplicate (000)
		_, k, err := wire.ReadInt(b, 5)
		return k, b[0]&0x20 == 0, err
	}
}

// stringLen is the length of a string literal with an n-bit length prefix.
func stringLen(b []byte, n uint8) (int, error) {
	if len(b) == 0 {
		return 0, errNoInstruction
	}
	v, k, err := wire.ReadInt(b, n)
	if err != nil {
		return 0, err
	}
	if v > uint64(len(b)-k) {
		return 0, errNoInstruction
	}
	return k + int(v), nil
}

// requiredInsertCount decodes a section's Required Insert Count (RFC 9204
// §4.5.1.1) as the encoder knows it, totalInserts being the encoder's
// insert count; ok is false for a prefix that cannot be read.
func requiredInsertCount(section []byte, maxEntries, totalInserts uint64) (uint64, bool) {
	enc, _, err := wire.ReadInt(section, 8)
	if err != nil {
		return 0, false
	}
	if enc == 0 {
		return 0, true
	}
	full := 2 * maxEntries
	if enc > full {
		return 0, false
	}
	maxValue := totalInserts + maxEntries
	ric := maxValue/full*full + enc - 1
	if ric > maxValue {
		if ric <= full {
			return 0, false
		}
		ric -= full
	}
	return ric, true
}
