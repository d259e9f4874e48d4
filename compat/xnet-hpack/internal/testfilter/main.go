// Command testfilter keeps the tests of golang.org/x/net/http2/hpack that
// can run against compat/xnet-hpack.
//
// x/net's hpack tests are internal tests (package hpack), and many inspect
// x/net's unexported names (dynTab, staticTable, appendIndexed, ...). The
// command type-checks x/net's *_test.go files together with the drop-in's
// non-test files, as one package, and keeps each top-level declaration of
// the test files whose body, and the test-file helpers it uses, type-check
// against the drop-in. The rest are dropped, with the names they need
// that the drop-in does not have. It writes the kept declarations to -out
// (imports they no longer use removed, checked to type-check again) and
// prints a Markdown report.
//
// With -readme FILE it checks that FILE holds the report between the
// lines
//
//	<!-- testfilter:begin -->
//	<!-- testfilter:end -->
//
// and fails when it does not; -update rewrites that part of FILE instead.
// Run it from the repository root (it asks `go list -export` for the
// imports' export data).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	xnet := flag.String("xnet", "", "x/net's http2/hpack directory (the *_test.go files are read)")
	compat := flag.String("compat", "", "the drop-in's directory (the non-test .go files are read)")
	out := flag.String("out", "", "directory to write the kept test files to")
	readme := flag.String("readme", "", "Markdown file whose generated part must hold the report")
	update := flag.Bool("update", false, "rewrite the generated part of -readme instead of checking it")
	flag.Parse()
	if *xnet == "" || *compat == "" {
		fmt.Fprintln(os.Stderr, "usage: testfilter -xnet DIR -compat DIR [-out DIR] [-readme FILE [-update]]")
		os.Exit(2)
	}
	if err := run(*xnet, *compat, *out, *readme, *update); err != nil {
		fmt.Fprintln(os.Stderr, "testfilter:", err)
		os.Exit(1)
	}
}

func run(xnet, compat, out, readme string, update bool) error {
	r, err := filter(xnet, compat, exportLookup)
	if err != nil {
		return err
	}
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		for name, src := range r.files {
			if err := os.WriteFile(filepath.Join(out, name), src, 0o644); err != nil {
				return err
			}
		}
	}
	report := r.markdown()
	fmt.Print(report)
	if readme == "" {
		return nil
	}
	return checkReadme(readme, report, update)
}

const (
	beginMark = "<!-- testfilter:begin -->\n"
	endMark   = "<!-- testfilter:end -->\n"
)

// errStale reports a README whose generated part is not the report.
var errStale = errors.New("the generated part is stale: run compat/xnet-hpack/ci.sh -update-readme")

func checkReadme(path, report string, update bool) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i := bytes.Index(doc, []byte(beginMark))
	j := bytes.Index(doc, []byte(endMark))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q ... %q lines", path, strings.TrimSpace(beginMark), strings.TrimSpace(endMark))
	}
	head, body, tail := doc[:i+len(beginMark)], doc[i+len(beginMark):j], doc[j:]
	if string(body) == report {
		return nil
	}
	if !update {
		return fmt.Errorf("%s: %w", path, errStale)
	}
	var b bytes.Buffer
	b.Write(head)
	b.WriteString(report)
	b.Write(tail)
	return os.WriteFile(path, b.Bytes(), 0o644)
}
