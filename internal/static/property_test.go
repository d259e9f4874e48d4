package static_test

import (
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/hqpack/hqpack/internal/static"
)

// TestPropertyFoundIffInTable: for random (name, value) pairs, most of them
// table entries left alone or changed a little, every lookup agrees with
// the reference maps, so a pair is found exactly when it is an entry.
func TestPropertyFoundIffInTable(t *testing.T) {
	r := newRef(t)
	var pairs [][2]string
	for p := range r.hpackExact {
		pairs = append(pairs, p)
	}
	for p := range r.qpackExact {
		pairs = append(pairs, p)
	}
	// A mutation: 1 cuts the string, 2 extends it, 3 changes a byte, and
	// the other half of the time it is left alone.
	mutation := gopter.CombineGens(gen.IntRange(-2, 3), gen.IntRange(0, 63), gen.UInt8())
	mutate := func(s string, m []any) string {
		op, pos, c := m[0].(int), m[1].(int), m[2].(uint8)
		switch {
		case op <= 0:
			return s
		case op == 1:
			return s[:pos%(len(s)+1)]
		case op == 2:
			return s + string(rune(c%128))
		case len(s) > 0:
			b := []byte(s)
			b[pos%len(b)] = c
			return string(b)
		}
		return string([]byte{c})
	}
	near := gopter.CombineGens(gen.IntRange(0, len(pairs)-1), mutation, mutation).Map(func(v []any) [2]string {
		p := pairs[v[0].(int)]
		return [2]string{mutate(p[0], v[1].([]any)), mutate(p[1], v[2].([]any))}
	})
	header := gen.RegexMatch(`[a-z:\-]{0,32}`)
	random := gopter.CombineGens(gen.OneGenOf(header, gen.AnyString()), header).Map(func(v []any) [2]string {
		return [2]string{v[0].(string), v[1].(string)}
	})

	var exact, nameOnly, miss int
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 20000
	props := gopter.NewProperties(params)
	props.Property("lookups agree with the tables", prop.ForAll(
		func(p [2]string) (bool, error) {
			if err := r.check(p[0], p[1]); err != nil {
				return false, err
			}
			switch e, n := static.LookupQPACK(p[0], p[1]); {
			case e >= 0:
				exact++
			case n >= 0:
				nameOnly++
			default:
				miss++
			}
			return true, nil
		},
		gen.Weighted([]gen.WeightedGen{{Weight: 4, Gen: near}, {Weight: 1, Gen: random}}),
	))
	props.TestingRun(t)
	t.Logf("QPACK outcomes: exact %d, name only %d, miss %d", exact, nameOnly, miss)
	// The generators must reach all three outcomes often.
	if min(exact, nameOnly, miss) < params.MinSuccessfulTests/20 {
		t.Errorf("exact %d, name only %d, miss %d: generators too narrow", exact, nameOnly, miss)
	}
}
