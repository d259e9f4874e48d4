package hpack

import (
	"os/exec"
	"strings"
	"testing"
)

// The drop-in's files are also built as golang.org/x/net/http2/hpack in a
// copy of x/net, where Go's internal rule forbids hqpack's internal
// packages: it may import the standard library and hqpack's public
// packages only.
func TestImportsPublicOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		"github.com/hqpack/hqpack/hpack":    true,
		"github.com/hqpack/hqpack/fastpath": true,
	}
	imports := strings.Fields(string(out))
	if len(imports) < 5 {
		t.Fatalf("go list reported %v: too few imports", imports)
	}
	for _, p := range imports {
		// The standard library's paths have no dot in their first element.
		if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") {
			continue
		}
		if !allowed[p] {
			t.Errorf("imports %s: neither the standard library nor a public hqpack package", p)
		}
	}
}
