package hqpack_test

import (
	"os/exec"
	"strings"
	"testing"
)

// corePackages may import only the standard library and this module, so a
// server that imports hqpack pulls in nothing else.
var corePackages = []string{
	"./static/...",
	"./internal/...",
	"./fastpath/...",
	"./hpack/...",
	"./qpack/...",
}

func TestCoreImportsStandardLibraryOnly(t *testing.T) {
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{with .Module}}{{.Path}}{{end}}"}, corePackages...)
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("unexpected go list line %q", line)
		}
		checked++
		if f[1] == "true" {
			continue
		}
		if len(f) == 3 && f[2] == "github.com/hqpack/hqpack" {
			continue
		}
		t.Errorf("core packages depend on %s, which is neither the standard library nor this module", f[0])
	}
	if checked < 5 {
		t.Fatalf("go list reported only %d packages; the check saw nothing", checked)
	}
}
