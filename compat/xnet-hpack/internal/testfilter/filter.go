package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hqpack/hqpack/compat/xnet-hpack/internal/exportdata"
)

// importLookup returns an importer for the given import paths.
type importLookup func(fset *token.FileSet, paths []string) (types.Importer, error)

// exportLookup imports from the export data `go list -export` builds.
func exportLookup(fset *token.FileSet, paths []string) (types.Importer, error) {
	return exportdata.Importer(fset, paths...)
}

// unit is one top-level declaration of a test file.
type unit struct {
	file       string // base name
	decl       ast.Decl
	start, end int // byte range in the file, doc comment and line end included
	name       string
	test       bool // a Test, Benchmark, Fuzz or Example function

	deps    map[*unit]bool
	missing map[string]bool // names (or messages) it needs, with its deps'
	private map[string]bool // the drop-in's unexported names it uses, with its deps'
}

func (u *unit) dropped() bool { return len(u.missing) > 0 }

type result struct {
	files map[string][]byte // kept test files by base name
	units []*unit           // in file and source order
}

var testName = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)([^a-z]|$)`)

func filter(xnetDir, compatDir string, lookup importLookup) (*result, error) {
	fset := token.NewFileSet()
	compat, err := parseDir(fset, compatDir, false)
	if err != nil {
		return nil, err
	}
	tests, err := parseDir(fset, xnetDir, true)
	if err != nil {
		return nil, err
	}
	if len(compat) == 0 || len(tests) == 0 {
		return nil, fmt.Errorf("no Go files: %d in %s, %d tests in %s", len(compat), compatDir, len(tests), xnetDir)
	}
	imp, err := lookup(fset, importsOf(append(slices.Clone(compat), tests...)))
	if err != nil {
		return nil, err
	}
	all := append(slices.Clone(compat), tests...)
	info, errs := check(fset, imp, all)

	// The test files' declarations, and which objects each defines.
	var units []*unit
	byObj := map[types.Object]*unit{}
	src := map[string][]byte{}
	for _, f := range tests {
		name := filepath.Base(fset.File(f.Pos()).Name())
		b, err := os.ReadFile(fset.File(f.Pos()).Name())
		if err != nil {
			return nil, err
		}
		src[name] = b
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			u := &unit{file: name, decl: d, deps: map[*unit]bool{}, missing: map[string]bool{}, private: map[string]bool{}}
			u.start, u.end = span(fset, b, d)
			for _, id := range defined(d) {
				if obj := info.Defs[id]; obj != nil {
					byObj[obj] = u
				}
				if u.name == "" {
					u.name = id.Name
				}
			}
			if fd, ok := d.(*ast.FuncDecl); ok {
				u.test = fd.Recv == nil && testName.MatchString(fd.Name.Name)
				if fd.Recv != nil {
					u.name = recvName(fd) + "." + fd.Name.Name
				}
			}
			units = append(units, u)
		}
	}
	unitAt := func(pos token.Pos) *unit {
		p := fset.Position(pos)
		for _, u := range units {
			if u.file == filepath.Base(p.Filename) && p.Offset >= u.start && p.Offset < u.end {
				return u
			}
		}
		return nil
	}
	compatFile := map[string]bool{}
	for _, f := range compat {
		compatFile[fset.File(f.Pos()).Name()] = true
	}
	for _, e := range errs {
		u := unitAt(e.Pos)
		if u == nil {
			return nil, fmt.Errorf("%v (the drop-in must build beside x/net's tests)", e)
		}
		u.missing[missingName(e.Msg)] = true
	}
	for _, u := range units {
		ast.Inspect(u.decl, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			obj := info.Uses[id]
			if obj == nil {
				return true
			}
			if d := byObj[obj]; d != nil && d != u {
				u.deps[d] = true
			}
			if obj.Pkg() != nil && !obj.Exported() && compatFile[fset.Position(obj.Pos()).Filename] {
				u.private[obj.Name()] = true
			}
			return true
		})
	}
	// What a declaration needs includes what its helpers need.
	for changed := true; changed; {
		changed = false
		for _, u := range units {
			for d := range u.deps {
				for _, set := range [2][2]map[string]bool{{u.missing, d.missing}, {u.private, d.private}} {
					for k := range set[1] {
						if !set[0][k] {
							set[0][k] = true
							changed = true
						}
					}
				}
			}
		}
	}

	files, err := keep(fset, imp, compat, units, src)
	if err != nil {
		return nil, err
	}
	return &result{files: files, units: units}, nil
}

func parseDir(fset *token.FileSet, dir string, tests bool) ([]*ast.File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") != tests {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(f.Name.Name, "_test") || hasIgnoreTag(f) {
			continue // external tests and generators are not the package's
		}
		files = append(files, f)
	}
	return files, nil
}

func hasIgnoreTag(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

func importsOf(files []*ast.File) []string {
	seen := map[string]bool{}
	var paths []string
	for _, f := range files {
		for _, s := range f.Imports {
			p, _ := strconv.Unquote(s.Path.Value)
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	return paths
}

func check(fset *token.FileSet, imp types.Importer, files []*ast.File) (*types.Info, []types.Error) {
	var errs []types.Error
	conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err.(types.Error)) }}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf.Check("golang.org/x/net/http2/hpack", fset, files, info) // errors are in errs
	return info, errs
}

// span returns d's byte range, from its doc comment to its line end.
func span(fset *token.FileSet, src []byte, d ast.Decl) (start, end int) {
	pos := d.Pos()
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			pos = d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			pos = d.Doc.Pos()
		}
	}
	start, end = fset.Position(pos).Offset, fset.Position(d.End()).Offset
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		end += i + 1
	}
	return start, end
}

func defined(d ast.Decl) []*ast.Ident {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return []*ast.Ident{d.Name}
	case *ast.GenDecl:
		var ids []*ast.Ident
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				ids = append(ids, s.Names...)
			case *ast.TypeSpec:
				ids = append(ids, s.Name)
			}
		}
		return ids
	}
	return nil
}

func recvName(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

var (
	undefinedName = regexp.MustCompile(`^undefined: (\w+)$`)
	noFieldName   = regexp.MustCompile(`has no field or method (\w+)`)
)

// missingName returns the name a type-checking error says is missing, or
// the message itself.
func missingName(msg string) string {
	if m := undefinedName.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	if m := noFieldName.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return msg
}

var unusedImport = regexp.MustCompile(`^"([^"]+)" imported (as \w+ )?and not used`)

// keep writes each test file without its dropped declarations and the
// imports they alone used, and checks that the kept files type-check with
// the drop-in.
func keep(fset *token.FileSet, imp types.Importer, compat []*ast.File, units []*unit, src map[string][]byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, b := range src {
		var cuts [][2]int
		kept := 0
		for _, u := range units {
			if u.file != name {
				continue
			}
			if u.dropped() {
				cuts = append(cuts, [2]int{u.start, u.end})
			} else {
				kept++
			}
		}
		if kept > 0 {
			out[name] = cut(b, cuts)
		}
	}
	for round := 0; ; round++ {
		fs := token.NewFileSet()
		files := slices.Clone(compat)
		byName := map[string]*ast.File{}
		for name, b := range out {
			f, err := parser.ParseFile(fs, name, b, parser.ParseComments)
			if err != nil {
				return nil, fmt.Errorf("filtered %s: %w", name, err)
			}
			files = append(files, f)
			byName[name] = f
		}
		// The drop-in's files were parsed with the other FileSet: check
		// them again with this one.
		for i, f := range compat {
			name := fset.File(f.Pos()).Name()
			g, err := parser.ParseFile(fs, name, nil, parser.ParseComments)
			if err != nil {
				return nil, err
			}
			files[i] = g
		}
		_, errs := check(fs, imp, files)
		if len(errs) == 0 {
			break
		}
		unused := map[string][][2]int{}
		for _, e := range errs {
			p := fs.Position(e.Pos)
			m := unusedImport.FindStringSubmatch(e.Msg)
			f := byName[p.Filename]
			if m == nil || f == nil || round > 2 {
				return nil, fmt.Errorf("the kept tests do not build: %v", e)
			}
			for _, s := range f.Imports {
				if fs.Position(s.Pos()).Line == p.Line {
					start := fs.Position(s.Pos()).Offset
					end := fs.Position(s.End()).Offset
					unused[p.Filename] = append(unused[p.Filename], [2]int{start, end})
				}
			}
		}
		for name, cuts := range unused {
			out[name] = cut(out[name], cuts)
		}
	}
	for name, b := range out {
		header := "// Code generated by compat/xnet-hpack/internal/testfilter from x/net's " + name +
			": the tests that need x/net's unexported names are left out. DO NOT EDIT.\n\n"
		formatted, err := format.Source(append([]byte(header), b...))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = formatted
	}
	return out, nil
}

// cut returns b without the byte ranges in cuts.
func cut(b []byte, cuts [][2]int) []byte {
	sort.Slice(cuts, func(i, j int) bool { return cuts[i][0] < cuts[j][0] })
	var out []byte
	at := 0
	for _, c := range cuts {
		out = append(out, b[at:c[0]]...)
		at = c[1]
	}
	return append(out, b[at:]...)
}

// markdown is the report: the kept tests, the drop-in's unexported names
// they use, and the dropped tests with the names they need.
func (r *result) markdown() string {
	var kept, dropped []*unit
	for _, u := range r.units {
		if !u.test {
			continue
		}
		if u.dropped() {
			dropped = append(dropped, u)
		} else {
			kept = append(kept, u)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Kept, %d: %s.\n\n", len(kept), names(kept))
	private := map[string][]string{}
	for _, u := range kept {
		for p := range u.private {
			private[p] = append(private[p], u.name)
		}
	}
	if len(private) > 0 {
		b.WriteString("Unexported names of compat/xnet-hpack that kept tests call (helpers with x/net's names and signatures):")
		for i, p := range sortedKeys(private) {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " `%s` (%s)", p, strings.Join(private[p], ", "))
		}
		b.WriteString(".\n\n")
	}
	fmt.Fprintf(&b, "Dropped, %d:\n\n| x/net test | file | x/net's unexported names it needs |\n| --- | --- | --- |\n", len(dropped))
	for _, u := range dropped {
		var needs []string
		for _, m := range sortedKeys(u.missing) {
			needs = append(needs, "`"+m+"`")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", u.name, u.file, strings.Join(needs, ", "))
	}
	return b.String()
}

func names(us []*unit) string {
	var s []string
	for _, u := range us {
		s = append(s, "`"+u.name+"`")
	}
	return strings.Join(s, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
