// Package corpustest finds the shared test corpus (hpack-test-case, QIFS,
// the RFC examples) for the module's tests and benchmarks, the same way in
// every package and nested module.
package corpustest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Path returns the corpus folder: $HQPACK_CORPUS, or ../shared/corpus
// beside the repository. A relative $HQPACK_CORPUS is taken from the
// repository's root (the folder of the go.mod of github.com/hqpack/hqpack,
// above the working directory), as .ci/run and the README give it, so it
// means the same folder to every package's tests.
func Path() string {
	dir := os.Getenv("HQPACK_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "shared", "corpus")
	}
	if filepath.IsAbs(dir) {
		return dir
	}
	if root, ok := repoRoot(); ok {
		return filepath.Join(root, dir)
	}
	return dir
}

// Dir returns Path, or skips tb with a message saying how to point the
// tests at the corpus when Path has no want inside ("" for the folder
// itself, "qifs" for the QIFS files, ...).
func Dir(tb testing.TB, want string) string {
	tb.Helper()
	dir := Path()
	if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
		tb.Skipf("corpus not found (set HQPACK_CORPUS to the shared corpus folder): %v", err)
	}
	return dir
}

// repoRoot returns the first folder above the working directory whose
// go.mod declares the main module.
func repoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(mod, []byte("module github.com/hqpack/hqpack\n")) {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}
