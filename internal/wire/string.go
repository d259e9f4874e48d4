package wire

import (
	"slices"
	"unsafe"
)

// Huffman is a policy for coding string literals.
type Huffman uint8

const (
	// HuffmanAuto codes a string only when that is strictly shorter.
	HuffmanAuto Huffman = iota
	// HuffmanAlways codes every string.
	HuffmanAlways
	// HuffmanNever sends every string as raw octets.
	HuffmanNever
)

// Choose returns the length of s's payload under the policy (without the
// length prefix) and whether it is Huffman-coded. A policy value other than
// the three constants behaves as HuffmanAuto.
func (h Huffman) Choose(s string) (payload int, huff bool) {
	switch h {
	case HuffmanNever:
		return len(s), false
	case HuffmanAlways:
		return HuffmanLen(s), true
	}
	// Every symbol is at least 5 bits, so nothing shorter than 2 bytes can
	// shrink: skip the table walk.
	if len(s) < 2 {
		return len(s), false
	}
	if n := HuffmanLen(s); n < len(s) {
		return n, true
	}
	return len(s), false
}

// StringLen returns the whole encoded length of s: the length integer with an
// n-bit prefix (the H flag sits just above it, so 1 <= n <= 7) and the
// payload.
func StringLen(n uint8, s string, h Huffman) int {
	p, _ := h.Choose(s)
	return IntLen(n, uint64(p)) + p
}

// StringMax returns a bound on StringLen(n, s, h) that takes no pass over
// s: the raw length (HuffmanAuto codes s only when that is shorter), or
// for HuffmanAlways the longest code s can have, 30 bits a byte.
func StringMax(n uint8, s string, h Huffman) int {
	p := len(s)
	if h == HuffmanAlways {
		p = huffmanMax(len(s))
	}
	return IntLen(n, uint64(p)) + p
}

// huffmanMax is the longest Huffman code of l bytes: 30 bits each.
func huffmanMax(l int) int { return (l*30 + 7) >> 3 }

// AppendString appends s as a string literal: the H flag at bit n of the
// first byte (1 <= n <= 7), the length with an n-bit prefix, then the
// payload. first carries the bits above the H flag; the H flag and the low
// n bits must be zero. It appends at most StringMax(n, s, h) bytes, and
// grows dst only when its capacity is short of that.
//
// With HuffmanAuto, s is coded once, where its length prefix leaves room
// for the raw length (HuffmanLen first would be a pass of its own, as long
// as the coding), and replaced by its raw bytes when the code is not
// shorter; a shorter length prefix moves the code down. A code that is
// used is shorter than s, so the coding needs only the room s would take
// (and 8 bytes for its stores, where the capacity has them), and gives up
// where it reaches the end of that room.
func AppendString(dst []byte, first byte, n uint8, s string, h Huffman) []byte {
	// The usual case apart, in a small frame: HuffmanAuto, a length that
	// fits the prefix and room for s and a store past it. The codes that
	// huffmanRoomy does not take, huffmanRoomyRest finishes.
	// (n&7 is n, 1 to 7: the shifts need no checks for 8 and above.)
	if h != HuffmanAlways && h != HuffmanNever && len(s) >= 2 && len(s) < 1<<(n&7)-1 && cap(dst)-len(dst) > len(s)+8 {
		// Only hb, the first byte with the H flag, stays live across the
		// calls: first is in it (its low n+1 bits are zero).
		hb := first | 1<<(n&7)
		huffmanPairsOnce.Do(buildHuffmanPairs)
		at := len(dst)
		code := huffmanRoomy(unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), at+1), s)
		if code < 0 {
			code = huffmanRoomyRest(unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), at+1), s)
		}
		if code < len(s) {
			dst = RawBytes(unsafe.SliceData(dst), at+1+code, cap(dst)) // within the room
			dst[at] = hb | byte(code)
			return dst
		}
		return append(append(dst, hb&(hb-1)|byte(len(s))), s...)
	}
	return appendString(dst, first, n, s, h)
}

// appendString is AppendString's other cases.
func appendString(dst []byte, first byte, n uint8, s string, h Huffman) []byte {
	switch {
	case h == HuffmanAlways:
		return AppendHuffman(AppendInt(dst, first|1<<n, n, uint64(HuffmanLen(s))), s)
	case h == HuffmanNever || len(s) < 2:
		// Every code is at least 5 bits: one byte never shrinks.
		return append(AppendInt(dst, first, n, uint64(len(s))), s...)
	}
	// s is coded after room bytes for its raw length, within the room its
	// raw bytes take: the coding gives up where its code would not be
	// shorter. Short of that room, dst grows, unless a code (5 bits a byte
	// at least) may fit: then s is sized first, as a shorter code must not
	// move dst to a new array when it fits.
	at := len(dst)
	room := IntLen(n, uint64(len(s)))
	if cap(dst)-at < room+len(s) { // StringMax(n, s, h)
		if cap(dst)-at <= (len(s)*5+7)>>3 {
			dst = slices.Grow(dst, room+len(s)+8)
		} else {
			p, huff := h.Choose(s)
			if huff {
				return AppendHuffman(AppendInt(dst, first|1<<n, n, uint64(p)), s)
			}
			return append(AppendInt(dst, first, n, uint64(p)), s...)
		}
	}
	huffmanPairsOnce.Do(buildHuffmanPairs)
	end := min(cap(dst), at+room+len(s)+8)
	code := len(s)
	if op := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), at+room); end-at-room == len(s)+8 {
		if code = huffmanRoomy(op, s); code < 0 {
			code = huffmanRoomyRest(op, s)
		}
	} else if _, p := huffmanLoop(dst[:end], at+room, s, false); p >= 0 { // no room for the stores
		code = p - at - room
	}
	if code >= len(s) {
		return append(AppendInt(dst[:at], first, n, uint64(len(s))), s...)
	}
	dst = dst[:at+room+code]
	if room == 1 { // the code is shorter still: its length fits the prefix
		dst[at] = first | 1<<n | byte(code)
		return dst
	}
	return placeLength(dst, at, room, first|1<<n, n, code)
}

// placeLength writes the length of the code that follows room bytes left
// at dst[at:], moving the code down when the length takes fewer.
func placeLength(dst []byte, at, room int, first byte, n uint8, code int) []byte {
	if k := IntLen(n, uint64(code)); k < room {
		copy(dst[at+k:], dst[at+room:])
		dst = dst[:at+k+code]
	}
	AppendInt(dst[:at], first, n, uint64(code))
	return dst
}

// ReadString decodes the string literal at the start of src: the H flag at
// bit n of src[0] (1 <= n <= 7), the length with an n-bit prefix, then the
// payload. A raw string is returned as a subslice of src (capacity trimmed,
// so appending to it never writes into src). A Huffman string is decoded by
// appending to dst; s is the appended part and newDst the grown dst.
// length is the number of bytes of src consumed. A wire length over maxLen is
// ErrStringTooLong before any decoding (and before ErrTruncated, so a
// streaming decoder need not buffer it), and so is a decoded length over
// maxLen. On error newDst is still dst, possibly grown, and length is 0.
func ReadString(dst, src []byte, n uint8, maxLen int) (s, newDst []byte, length int, err error) {
	l, k, err := ReadInt(src, n)
	if err != nil {
		return nil, dst, 0, err
	}
	if l > uint64(max(maxLen, 0)) {
		return nil, dst, 0, ErrStringTooLong
	}
	if l > uint64(len(src)-k) {
		return nil, dst, 0, ErrTruncated
	}
	end := k + int(l)
	if src[0]&(1<<n) == 0 {
		return src[k:end:end], dst, end, nil
	}
	start := len(dst)
	dst, err = AppendHuffmanDecode(dst, src[k:end], maxLen)
	if err != nil {
		return nil, dst, 0, err
	}
	return dst[start:len(dst):len(dst)], dst, end, nil
}
