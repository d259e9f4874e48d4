package static

import (
	"bytes"
	"os"
	"testing"

	"github.com/hqpack/hqpack/internal/static/internal/gen"
)

// TestGeneratedIsCurrent fails when tables.go was edited by hand or the
// generator changed without `go generate ./internal/static`.
func TestGeneratedIsCurrent(t *testing.T) {
	want, err := gen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("tables.go is stale: run go generate ./internal/static")
	}
}
