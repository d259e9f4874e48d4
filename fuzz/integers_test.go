package fuzz

import (
	"errors"
	"math/big"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/internal/wire"
)

// refMaxInt is the largest value hqpack's decoders accept (RFC 9204's
// 62-bit integers), and refMaxContinuation the longest run of continuation
// bytes they read: enough for any value up to refMaxInt after any prefix.
const (
	refMaxInt          = 1<<62 - 1
	refMaxContinuation = 9
)

var errRefTruncated, errRefOverflow = errors.New("ref: truncated"), errors.New("ref: overflow")

// refReadInt is RFC 7541 §5.1's decoding pseudocode, computed with big
// integers so that nothing wraps, and hqpack's limits applied at the end.
func refReadInt(src []byte, n uint8) (uint64, int, error) {
	if len(src) == 0 {
		return 0, 0, errRefTruncated
	}
	max := int64(1)<<n - 1
	i := big.NewInt(int64(src[0]) & max)
	if i.Int64() < max {
		return i.Uint64(), 1, nil
	}
	m := uint(0)
	for k := 1; ; k++ {
		if k > refMaxContinuation {
			return 0, 0, errRefOverflow
		}
		if k >= len(src) {
			return 0, 0, errRefTruncated
		}
		b := src[k]
		i.Add(i, new(big.Int).Lsh(big.NewInt(int64(b&127)), m))
		m += 7
		if b&128 == 0 {
			if !i.IsUint64() || i.Uint64() > refMaxInt {
				return 0, 0, errRefOverflow
			}
			return i.Uint64(), k + 1, nil
		}
	}
}

// FuzzIntegers decodes arbitrary bytes as a prefixed integer (RFC 7541
// §5.1) with every prefix length and compares wire.ReadInt with refReadInt:
// the same value and length, or the same error. It also encodes a value read
// from the input with every prefix and checks AppendInt, IntLen and ReadInt
// against each other.
func FuzzIntegers(f *testing.F) {
	f.Add([]byte{0x0a})                               // RFC 7541 C.1.1: 10, 5-bit prefix
	f.Add([]byte{0x1f, 0x9a, 0x0a})                   // C.1.2: 1337
	f.Add([]byte{0x2a})                               // C.1.3: 42, 8-bit prefix
	f.Add([]byte{0xff, 0x80, 0x80, 0x80, 0x80, 0x00}) // overlong zeros
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f})
	f.Add([]byte{0x7f, 0xc0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3f}) // 2^62-1
	f.Add([]byte{0x7f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00})
	f.Add([]byte{0x3f, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		for n := uint8(1); n <= 8; n++ {
			v, l, err := wire.ReadInt(data, n)
			rv, rl, rerr := refReadInt(data, n)
			switch {
			case rerr == errRefTruncated && !errors.Is(err, wire.ErrTruncated),
				rerr == errRefOverflow && !errors.Is(err, wire.ErrIntegerOverflow),
				rerr == nil && (err != nil || v != rv || l != rl):
				t.Fatalf("prefix %d, % x: ReadInt %d, %d, %v; reference %d, %d, %v", n, data, v, l, err, rv, rl, rerr)
			}
			if err != nil && (v != 0 || l != 0) {
				t.Fatalf("prefix %d, % x: error %v with value %d, length %d", n, data, err, v, l)
			}
		}

		// Encode a value taken from the input, with bits above the prefix set.
		s := script{data}
		v := s.uint64() >> s.pick(64)
		for n := uint8(1); n <= 8; n++ {
			first := byte(0xff) << n // zero when n is 8
			b := wire.AppendInt([]byte{0xee}, first, n, v)[1:]
			if len(b) != wire.IntLen(n, v) {
				t.Fatalf("prefix %d, %d: AppendInt wrote %d bytes, IntLen says %d", n, v, len(b), wire.IntLen(n, v))
			}
			if b[0]&^(byte(1)<<n-1) != first {
				t.Fatalf("prefix %d, %d: bits above the prefix changed: % x", n, v, b)
			}
			got, l, err := wire.ReadInt(append(b, 0x55), n)
			rv, rl, rerr := refReadInt(b, n)
			if v > refMaxInt {
				if !errors.Is(err, wire.ErrIntegerOverflow) || rerr != errRefOverflow {
					t.Fatalf("prefix %d, %d (% x): ReadInt %v, reference %v; want overflow", n, v, b, err, rerr)
				}
				continue
			}
			if err != nil || got != v || l != len(b) || rerr != nil || rv != v || rl != len(b) {
				t.Fatalf("prefix %d, %d (% x): ReadInt %d, %d, %v; reference %d, %d, %v", n, v, b, got, l, err, rv, rl, rerr)
			}
		}
	})
}

// refAppendInt is RFC 7541 §5.1's encoding pseudocode: first carries the
// bits above the n-bit prefix.
func refAppendInt(dst []byte, first byte, n uint8, v uint64) []byte {
	max := uint64(1)<<n - 1
	if v < max {
		return append(dst, first|byte(v))
	}
	dst = append(dst, first|byte(max))
	for v -= max; v >= 128; v /= 128 {
		dst = append(dst, byte(v%128+128))
	}
	return append(dst, byte(v))
}

// refAppendString appends a string literal with an n-bit length prefix and
// the H flag above it, Huffman-coded by x/net when huff.
func refAppendString(dst []byte, first byte, n uint8, s string, huff bool) []byte {
	if huff {
		dst = refAppendInt(dst, first|1<<n, n, xhpack.HuffmanEncodeLength(s))
		return xhpack.AppendHuffmanString(dst, s)
	}
	return append(refAppendInt(dst, first, n, uint64(len(s))), s...)
}
