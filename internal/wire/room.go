package wire

import "slices"

// StringRoom is the room that dst should have before a field line whose
// l-byte value AppendString codes: the line's first integer (at most 11
// bytes), then what AppendString wants to code the value in one pass (the
// longest code, 30 bits a byte, its length, and the 8 bytes its word stores
// may write past the code). With less, a HuffmanAuto value is sized in a
// pass of its own before it is coded.
func StringRoom(l int) int { return 4*l + 32 }

// Grow grows dst for n more bytes, as slices.Grow, in a call of its own:
// inlined, its growth path makes the callers' loops spill registers.
//
//go:noinline
func Grow(dst []byte, n int) []byte { return slices.Grow(dst, n) }
