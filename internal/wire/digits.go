package wire

import "math/bits"

// pow10 holds 10^i for every power of ten that fits in a uint64.
var pow10 = [20]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// pairs is the decimal formatting of 00..99 concatenated.
const pairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// DigitsLen returns the number of decimal digits of n (1 for 0).
func DigitsLen(n uint64) int {
	// 1233/4096 is just above log10(2): t is floor(log10(n)) or one more,
	// and the table settles which. n|1 keeps 0 at one digit.
	t := bits.Len64(n|1) * 1233 >> 12
	if n|1 < pow10[t] {
		return t
	}
	return t + 1
}

// AppendDigits appends the decimal form of n, as strconv.AppendUint(dst, n,
// 10) does, but sizes dst once and writes the digits in place, four at a
// time from a table of digit pairs.
func AppendDigits(dst []byte, n uint64) []byte {
	if n < 100 {
		if n < 10 {
			return append(dst, byte('0'+n))
		}
		return append(dst, pairs[n*2], pairs[n*2+1])
	}
	d := DigitsLen(n)
	l := len(dst)
	if cap(dst)-l < d {
		dst = append(dst, make([]byte, d)...)
	} else {
		dst = dst[:l+d]
	}
	b := dst[l:]
	i := len(b)
	// Eight digits at a time in 32-bit arithmetic, split into halves whose
	// divisions do not wait on each other.
	for n >= 1e8 {
		q := n / 1e8
		r := uint32(n - q*1e8)
		n = q
		hi, lo := r/1e4, r%1e4
		p3, p2 := hi/100*2, hi%100*2
		p1, p0 := lo/100*2, lo%100*2
		i -= 8
		c := b[i : i+8 : i+8]
		c[0], c[1], c[2], c[3] = pairs[p3], pairs[p3+1], pairs[p2], pairs[p2+1]
		c[4], c[5], c[6], c[7] = pairs[p1], pairs[p1+1], pairs[p0], pairs[p0+1]
	}
	r := uint32(n)
	for r >= 1e4 {
		lo := r % 1e4
		r /= 1e4
		p1, p0 := lo/100*2, lo%100*2
		i -= 4
		c := b[i : i+4 : i+4]
		c[0], c[1], c[2], c[3] = pairs[p1], pairs[p1+1], pairs[p0], pairs[p0+1]
	}
	if r >= 100 {
		p := r % 100 * 2
		r /= 100
		i -= 2
		b[i], b[i+1] = pairs[p], pairs[p+1]
	}
	// What is left, one or two digits, starts the number.
	if r >= 10 {
		b[0], b[1] = pairs[r*2], pairs[r*2+1]
	} else {
		b[0] = byte('0' + r)
	}
	return dst
}
