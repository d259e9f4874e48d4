package hqpack_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// exportBudget bounds the exported identifiers of the public core packages
// (issue 19): what a server, a proxy or a test of theirs needs, and no
// encoder internals or test hooks. Raising it should take a reason.
const exportBudget = 160

// publicCore are the public packages counted against exportBudget.
var publicCore = []string{"hpack", "qpack", "fastpath"}

// TestExportBudget counts the exported identifiers of publicCore the way
// issue 19 does: top-level exported names (each constant, variable, type
// and function) plus the exported methods of exported types, in non-test
// files. Run with -v to see the names.
func TestExportBudget(t *testing.T) {
	if _, err := os.Stat("static"); err == nil {
		t.Errorf("a public static package is back; its FieldIDs are public through fastpath (FieldID, LookupField)")
	}
	total := 0
	for _, dir := range publicCore {
		names := exportedNames(t, dir)
		t.Logf("%s: %d: %s", dir, len(names), strings.Join(names, " "))
		total += len(names)
	}
	t.Logf("total %d, budget %d", total, exportBudget)
	if total > exportBudget {
		t.Errorf("%v export %d identifiers, over the budget of %d: make new ones internal, or say in the commit why the budget grows", publicCore, total, exportBudget)
	}
	if total < 100 {
		t.Errorf("counted only %d identifiers: the count is broken", total)
	}
}

func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, dir+"/"+n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, d.Name.Name)
					continue
				}
				if recv := recvName(d.Recv.List[0].Type); ast.IsExported(recv) {
					names = append(names, recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// recvName is the name of a method's receiver type: T in T, *T, T[P] and
// *T[P].
func recvName(x ast.Expr) string {
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	switch r := x.(type) {
	case *ast.IndexExpr:
		x = r.X
	case *ast.IndexListExpr:
		x = r.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
