package qinstr

import "testing"

// TestEncodeRIC holds EncodeRIC to RFC 9204 §4.5.1.1's formula on both
// sides of its no-division path (ric below 2*maxEntries) and at wraps.
func TestEncodeRIC(t *testing.T) {
	for _, maxEntries := range []uint64{1, 2, 3, 128, 129, 1 << 40} {
		for _, ric := range []uint64{0, 1, 2, 2*maxEntries - 1, 2 * maxEntries, 2*maxEntries + 1, 5*maxEntries + 3, 1<<62 + 7} {
			want := uint64(0)
			if ric > 0 {
				want = ric%(2*maxEntries) + 1
			}
			if got := EncodeRIC(ric, maxEntries); got != want {
				t.Errorf("EncodeRIC(%d, %d) = %d, want %d", ric, maxEntries, got, want)
			}
		}
	}
}
