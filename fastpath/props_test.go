package fastpath

import (
	"testing"

	"github.com/leanovate/gopter"
)

func properties(t *testing.T, runs int) *gopter.Properties {
	t.Helper()
	return propertiesSized(t, runs, 100)
}

// propertiesSized bounds the size of generated slices and strings.
func propertiesSized(t *testing.T, runs, maxSize int) *gopter.Properties {
	t.Helper()
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = runs
	p.MaxSize = maxSize
	t.Logf("gopter seed %d", p.Seed())
	return gopter.NewProperties(p)
}
