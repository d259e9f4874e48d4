package field

// Masks for testing eight bytes of a word at once.
const (
	lowBits7 = 0x7f7f7f7f7f7f7f7f
	highBits = 0x8080808080808080
	// Added to a byte below 0x80, these set its high bit exactly when the
	// byte is at least 'A' (0x80-0x41) or at least 'Z'+1 (0x80-0x5b).
	addA    = 0x3f3f3f3f3f3f3f3f
	addPast = 0x2525252525252525
)

// hasUpper reports whether any byte of x is 'A'..'Z'.
func hasUpper(x uint64) bool {
	// Clearing the high bits first keeps the additions from carrying
	// between bytes; bytes that had it set are excluded by &^ x.
	y := x & lowBits7
	return (y+addA)&^(y+addPast)&^x&highBits != 0
}

// load64 returns s[i:i+8] as a little-endian word.
func load64[T ~string | ~[]byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// load32 returns s[i:i+4] as a little-endian number.
func load32[T ~string | ~[]byte](s T, i int) uint64 {
	s = s[i : i+4]
	return uint64(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// IsLower reports whether name has no ASCII uppercase letters ('A'..'Z').
// Other bytes, including non-ASCII ones, are ignored.
func IsLower[T ~string | ~[]byte](name T) bool {
	n := len(name)
	switch {
	case n >= 8:
		// Whole words, then the last 8 bytes, which may overlap the
		// words already tested, instead of a byte loop for the rest.
		for i := 0; i < n-8; i += 8 {
			if hasUpper(load64(name, i)) {
				return false
			}
		}
		return !hasUpper(load64(name, n-8))
	case n >= 4:
		// The first and last 4 bytes, overlapping below 8, in one word.
		return !hasUpper(load32(name, 0) | load32(name, n-4)<<32)
	}
	for i := 0; i < n; i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// AppendLower appends name with ASCII uppercase letters mapped to
// lowercase; other bytes are copied unchanged.
func AppendLower[T ~string | ~[]byte](dst []byte, name T) []byte {
	l := len(dst)
	dst = append(dst, name...)
	if IsLower(name) {
		return dst
	}
	b := dst[l:]
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return dst
}
