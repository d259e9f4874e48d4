package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFilter(t *testing.T) {
	compat, xnet := t.TempDir(), t.TempDir()
	write := func(dir, name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(compat, "a.go", `package hpack

func Exported() int { return 1 }

func shared() int { return 2 }
`)
	write(xnet, "a_test.go", `package hpack

import (
	"strings"
	"testing"
)

func TestKept(t *testing.T) {
	if Exported() != 1 {
		t.Fatal("Exported")
	}
}

// TestPrivate needs x/net's xnetOnly.
func TestPrivate(t *testing.T) { _ = xnetOnly }

func helper() int { return missing() }

func TestViaHelper(t *testing.T) { _ = helper() }

func TestShared(t *testing.T) { _ = shared() }

func TestStrings(t *testing.T) { _ = strings.ToUpper(xnetOnly2) }

func BenchmarkKept(b *testing.B) { _ = Exported() }
`)
	r, err := filter(xnet, compat, exportLookup)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	dropped := map[string]string{}
	for _, u := range r.units {
		if !u.test {
			continue
		}
		if u.dropped() {
			dropped[u.name] = strings.Join(sortedKeys(u.missing), ",")
		} else {
			kept = append(kept, u.name)
		}
	}
	if want := []string{"TestKept", "TestShared", "BenchmarkKept"}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	wantDropped := map[string]string{"TestPrivate": "xnetOnly", "TestViaHelper": "missing", "TestStrings": "xnetOnly2"}
	for name, needs := range wantDropped {
		if dropped[name] != needs {
			t.Errorf("%s: dropped for %q, want %q", name, dropped[name], needs)
		}
	}
	out := string(r.files["a_test.go"])
	for _, gone := range []string{"TestPrivate", "func helper", "TestStrings", `"strings"`, "x/net's xnetOnly"} {
		if strings.Contains(out, gone) {
			t.Errorf("the kept file still has %s:\n%s", gone, out)
		}
	}
	if !strings.Contains(out, "func TestShared") || !strings.HasPrefix(out, "// Code generated") {
		t.Errorf("kept file:\n%s", out)
	}
	md := r.markdown()
	for _, s := range []string{"Kept, 3:", "`shared` (TestShared)", "| `TestViaHelper` | a_test.go | `missing` |"} {
		if !strings.Contains(md, s) {
			t.Errorf("report lacks %q:\n%s", s, md)
		}
	}
}

func TestCheckReadme(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	doc := "# x\n\n" + beginMark + "old\n" + endMark + "after\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkReadme(path, "new\n", false); err == nil {
		t.Fatal("a stale README passed")
	}
	if err := checkReadme(path, "new\n", true); err != nil {
		t.Fatal(err)
	}
	if err := checkReadme(path, "new\n", false); err != nil {
		t.Fatalf("after -update: %v", err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "# x\n\n"+beginMark+"new\n"+endMark+"after\n" {
		t.Errorf("updated README:\n%s", b)
	}
}
