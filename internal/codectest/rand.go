package codectest

import (
	"math/rand"

	"github.com/hqpack/hqpack/fastpath"
)

// RandFlags returns an encoder's flags for a generated field: one time in
// n each fastpath.NeverIndex, NoIndex and Index, else none.
func RandFlags(r *rand.Rand, n int) fastpath.Flags {
	switch r.Intn(n) {
	case 0:
		return fastpath.NeverIndex
	case 1:
		return fastpath.NoIndex
	case 2:
		return fastpath.Index
	}
	return 0
}
