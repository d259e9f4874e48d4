package qpack

import (
	"io"
	"testing"
)

func TestIntRoundTrip(t *testing.T) {
	for n := uint8(1); n <= 8; n++ {
		for _, v := range []uint64{0, 1, 1<<n - 2, 1<<n - 1, 1 << n, 127 + 1<<n, 128 + 1<<n, 1 << 20, 1<<62 - 1} {
			b := appendInt([]byte{9}, 0, n, v)
			if len(b)-1 != intLen(n, v) {
				t.Errorf("n %d, v %d: %d bytes, intLen %d", n, v, len(b)-1, intLen(n, v))
			}
			got, rest, err := readInt(b[1:], n)
			if err != nil || got != v || len(rest) != 0 {
				t.Errorf("n %d, v %d: read %d, %v, rest % x", n, v, got, err, rest)
			}
			if _, _, err := readInt(b[1:len(b)-1], n); len(b) > 2 && err != io.ErrUnexpectedEOF {
				t.Errorf("n %d, v %d: a byte short: %v", n, v, err)
			}
		}
	}
}
