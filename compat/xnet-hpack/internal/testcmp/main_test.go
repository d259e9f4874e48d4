package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runOf(t *testing.T, events ...string) *run {
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, []byte("go: downloading x\n"+strings.Join(events, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := load(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func ev(action, pkg, test string) string {
	return `{"Action":"` + action + `","Package":"` + pkg + `","Test":"` + test + `"}`
}

func TestCompare(t *testing.T) {
	pristine := runOf(t,
		ev("run", "p", "TestA"), ev("pass", "p", "TestA"),
		ev("pass", "p", "TestA/sub"),
		ev("skip", "p", "TestS"),
		ev("pass", "f", "TestDropped"),
		ev("pass", "f", "TestKept"))
	same := runOf(t,
		ev("pass", "p", "TestA"), ev("pass", "p", "TestA/sub"), ev("skip", "p", "TestS"),
		ev("pass", "f", "TestKept"))
	if err := compare(pristine, same, []string{"f"}); err != nil {
		t.Errorf("a copy with a filtered-out test: %v", err)
	}
	if c := pristine.count("p", false); c != (counts{run: 2, passed: 1, skipped: 1}) {
		t.Errorf("counts %+v", c)
	}
	for name, copyRun := range map[string]*run{
		"a failing test":    runOf(t, ev("fail", "p", "TestA"), ev("pass", "p", "TestA/sub"), ev("pass", "f", "TestKept")),
		"a missing test":    runOf(t, ev("pass", "p", "TestA"), ev("pass", "f", "TestKept")),
		"a failed package":  runOf(t, ev("pass", "p", "TestA"), ev("pass", "p", "TestA/sub"), ev("pass", "f", "TestKept"), `{"Action":"fail","Package":"q"}`),
		"a kept test fails": runOf(t, ev("pass", "p", "TestA"), ev("pass", "p", "TestA/sub"), ev("fail", "f", "TestKept")),
	} {
		if err := compare(pristine, copyRun, []string{"f"}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
