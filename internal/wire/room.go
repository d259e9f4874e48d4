package wire

import "slices"

// StringRoom is the room that AppendString wants to code an l-byte
// string in one pass when up to 11 bytes (a field line's first integer)
// come before it in the same call chain: the longest code, 30 bits a
// byte, its length, and the word stores past it. With less, a HuffmanAuto
// string is sized in a pass of its own before it is coded.
func StringRoom(l int) int { return 4*l + 32 }

// Grow grows dst for n more bytes, as slices.Grow, in a call of its own:
// inlined, its growth path makes the callers' loops spill registers.
//
//go:noinline
func Grow(dst []byte, n int) []byte { return slices.Grow(dst, n) }
