package codectest

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/hqpack/hqpack/fastpath"
)

// Encoder is one encoder running a codec's scenario of sections for the
// equivalence harness.
type Encoder interface {
	// Begin starts section i into buf, after whatever the scenario does
	// before it (peer settings, ...).
	Begin(i int, buf []byte) (int, fastpath.Result)
	// Continue writes the next piece of the section into buf.
	Continue(buf []byte) (int, fastpath.Result)
	// After runs once section i is done (acknowledgements, ...).
	After(i int)
	// Pos is the position of the current section's enumerator.
	Pos() int
	// State is the encoder's observable state, compared with
	// reflect.DeepEqual.
	State() any
}

// Codec gives the two encoders of one scenario that must agree: New(0)
// takes the path under test (the fast path), New(1) the one it must equal
// (the string path, any Enumerator, ...).
type Codec interface {
	Sections() int
	New(side int) Encoder
}

// Equivalent is the property of DESIGN.md, for either codec: at every
// buffer size from 1 to 8 past c's longest section, the two sides give,
// call by call, the same results, bytes, enumerator positions and state;
// every call writes something and ends with fastpath.MoreFields or
// fastpath.Done; and each section's pieces join to the bytes the first
// side writes into one large buffer. It returns "" when all holds, else
// what differs; diff shows two states that differ (nil prints both).
func Equivalent(c Codec, diff func(x, y any) string) string {
	const large = 1 << 16
	var whole [][]byte
	longest := 0
	e, buf := c.New(0), make([]byte, large)
	for i := range c.Sections() {
		var b []byte
		n, res := e.Begin(i, buf)
		for b = append(b, buf[:n]...); res == fastpath.MoreFields && len(b) <= large; b = append(b, buf[:n]...) {
			n, res = e.Continue(buf)
		}
		if res != fastpath.Done {
			return fmt.Sprintf("section %d in a %d-byte buffer: %v after %d bytes", i, large, res, len(b))
		}
		e.After(i)
		whole, longest = append(whole, b), max(longest, len(b))
	}
	for size := 1; size <= longest+8; size++ {
		if msg := equivalentAt(c, size, whole, diff); msg != "" {
			return fmt.Sprintf("buffer %d: %s", size, msg)
		}
	}
	return ""
}

func equivalentAt(c Codec, size int, whole [][]byte, diff func(x, y any) string) string {
	a, b := c.New(0), c.New(1)
	ba, bb := make([]byte, size), make([]byte, size)
	for i, want := range whole {
		got := 0 // bytes of want the pieces matched
		na, ra := a.Begin(i, ba)
		nb, rb := b.Begin(i, bb)
		for call := 0; ; call++ {
			if msg := same(a, b, ba[:na], bb[:nb], ra, rb, diff); msg != "" {
				return fmt.Sprintf("section %d call %d: %s", i, call, msg)
			}
			if !bytes.HasPrefix(want[got:], ba[:na]) {
				return fmt.Sprintf("section %d call %d: piece\n% x\nwhere the whole section has\n% x", i, call, ba[:na], want[got:min(got+na, len(want))])
			}
			if got += na; ra == fastpath.Done {
				break
			}
			if ra != fastpath.MoreFields || na == 0 {
				return fmt.Sprintf("section %d call %d: %v with %d bytes", i, call, ra, na)
			}
			na, ra = a.Continue(ba)
			nb, rb = b.Continue(bb)
		}
		if got != len(want) {
			return fmt.Sprintf("section %d: pieces of %d bytes, the whole section %d", i, got, len(want))
		}
		a.After(i)
		b.After(i)
	}
	return ""
}

func same(a, b Encoder, oa, ob []byte, ra, rb fastpath.Result, diff func(x, y any) string) string {
	switch {
	case ra != rb:
		return fmt.Sprintf("results %v (side 0) vs %v (side 1)", ra, rb)
	case !bytes.Equal(oa, ob):
		return fmt.Sprintf("bytes\n% x (side 0)\n% x (side 1)", oa, ob)
	case a.Pos() != b.Pos():
		return fmt.Sprintf("positions %d (side 0) vs %d (side 1)", a.Pos(), b.Pos())
	}
	if x, y := a.State(), b.State(); !reflect.DeepEqual(x, y) {
		if diff == nil {
			return fmt.Sprintf("states\n%+v (side 0)\n%+v (side 1)", x, y)
		}
		return "states (-side 0 +side 1):\n" + diff(x, y)
	}
	return ""
}
