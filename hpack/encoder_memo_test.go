package hpack

import (
	"encoding/hex"
	"testing"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
)

// The memo keys on string addresses; a string changed in place (made with
// unsafe from a reused buffer) must be encoded as what it now holds.
func TestEncoderMemoMutatedString(t *testing.T) {
	buf := []byte("value-1")
	name := []byte("X-Name")
	v := unsafe.String(&buf[0], len(buf))
	n := unsafe.String(&name[0], len(name))
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add(n, v, 0)
	l.Add(":method", "GET", 0)
	section := func() string {
		l.Rewind()
		return hex.EncodeToString(e.AppendSection(nil, &l))
	}
	lit := func(value string) string {
		return "4006" + hex.EncodeToString([]byte("x-name")) + "07" + hex.EncodeToString([]byte(value))
	}
	steps := []struct {
		mutate func()
		want   string
	}{
		{func() {}, lit("value-1") + "82"},
		{func() {}, "be82"}, // remembered
		{func() { buf[6] = '2' }, "7e07" + hex.EncodeToString([]byte("value-2")) + "82"},
		{func() {}, "be82"},
		{func() { buf[6] = '1' }, "bf82"}, // the older entry, now 63
		{func() { name[0] = 'Y' }, "7e07" + hex.EncodeToString([]byte("value-1")) + "82"},
	}
	for i, s := range steps {
		if i == 5 {
			// A different name: a new literal name, not x-name's index.
			s.want = "4006" + hex.EncodeToString([]byte("y-name")) + "07" + hex.EncodeToString([]byte("value-1")) + "82"
		}
		s.mutate()
		if got := section(); got != s.want {
			t.Errorf("step %d: %s, want %s", i, got, s.want)
		}
	}
}

// Empty strings may all share one address, or none: the memo's empty slots
// must not match them.
func TestEncoderMemoEmpty(t *testing.T) {
	e := newEncoder(Config{Huffman: fastpath.HuffmanNever})
	var l fastpath.FieldList
	l.Add("", "", 0)
	l.Add("", "", 0)
	l.Add("x", "", 0)
	l.Add("x", "", 0)
	got := hex.EncodeToString(e.AppendSection(nil, &l))
	// A literal with an empty name, then its entry; the same for x.
	if want := "400000" + "be" + "40017800" + "be"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
