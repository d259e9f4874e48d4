package hqpack_test

import (
	"os/exec"
	"strings"
	"testing"
)

// corePackages may import only the standard library and this module, so a
// server that imports hqpack pulls in nothing else. Under internal/, only
// conformance (the command line's suite, which runs the peers) is not core;
// TestInternalPackagesAreCore keeps a new internal package from escaping.
var corePackages = []string{
	"./internal/static/...",
	"./internal/wire/...",
	"./internal/table/...",
	"./internal/memscan/...",
	"./internal/corpustest/...",
	"./internal/codectest/...",
	"./internal/field/...",
	"./internal/qinstr/...",
	"./internal/policy/...",
	"./fastpath/...",
	"./hpack/...",
	"./qpack/...",
}

func TestInternalPackagesAreCore(t *testing.T) {
	list := func(patterns ...string) map[string]bool {
		out, err := exec.Command("go", append([]string{"list"}, patterns...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		m := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			m[p] = true
		}
		return m
	}
	core := list(corePackages...)
	for p := range list("./internal/...") {
		if !core[p] && !strings.HasPrefix(p, "github.com/hqpack/hqpack/internal/conformance") {
			t.Errorf("%s is neither a core package (corePackages) nor part of internal/conformance", p)
		}
	}
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
