package hpack

import (
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/compat/xnet-hpack/internal/exportdata"
)

const (
	xnetPath   = "golang.org/x/net/http2/hpack"
	compatPath = "github.com/hqpack/hqpack/compat/xnet-hpack"
)

// TestAPIMatchesXNet holds the drop-in to x/net's exported API: the same
// names, kinds and types, every method and exported field, nothing missing
// and nothing more.
func TestAPIMatchesXNet(t *testing.T) {
	fset := token.NewFileSet()
	imp, err := exportdata.Importer(fset, xnetPath, compatPath)
	if err != nil {
		t.Fatal(err)
	}
	api := func(path string) []string {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		return exportedAPI(pkg)
	}
	theirs, ours := api(xnetPath), api(compatPath)
	if len(theirs) < 25 {
		t.Fatalf("x/net's API has %d entries; the listing saw too little:\n%s", len(theirs), strings.Join(theirs, "\n"))
	}
	for _, s := range theirs {
		if !slices.Contains(ours, s) {
			t.Errorf("missing: %s", s)
		}
	}
	for _, s := range ours {
		if !slices.Contains(theirs, s) {
			t.Errorf("not in x/net: %s", s)
		}
	}
}

// exportedAPI lists pkg's exported API, one line per name: kind, name and
// type, with types written relative to pkg and parameters without names.
func exportedAPI(pkg *types.Package) []string {
	q := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Path()
	}
	var out []string
	for _, name := range pkg.Scope().Names() {
		obj := pkg.Scope().Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func:
			out = append(out, "func "+name+signature(obj.Type().(*types.Signature), q))
		case *types.Var:
			out = append(out, "var "+name+" "+types.TypeString(obj.Type(), q))
		case *types.Const:
			out = append(out, "const "+name+" "+types.TypeString(obj.Type(), q)+" = "+obj.Val().ExactString())
		case *types.TypeName:
			out = append(out, typeAPI(obj, q)...)
		}
	}
	slices.Sort(out)
	return out
}

func typeAPI(obj *types.TypeName, q types.Qualifier) []string {
	name := obj.Name()
	under := obj.Type().Underlying()
	kind := types.TypeString(under, q)
	if s, ok := under.(*types.Struct); ok {
		kind = "struct"
		for f := range s.Fields() {
			if f.Exported() {
				kind += " " + f.Name() + " " + types.TypeString(f.Type(), q)
			}
		}
	}
	out := []string{"type " + name + " " + kind}
	// The pointer's method set holds the value's too; the receiver kind
	// is part of the API (a value method is callable on a value).
	for _, t := range []types.Type{obj.Type(), types.NewPointer(obj.Type())} {
		ms := types.NewMethodSet(t)
		for sel := range ms.Methods() {
			m := sel.Obj().(*types.Func)
			if !m.Exported() {
				continue
			}
			recv := name
			if _, ptr := t.(*types.Pointer); ptr {
				recv = "*" + name
			}
			out = append(out, "method ("+recv+") "+m.Name()+signature(m.Type().(*types.Signature), q))
		}
	}
	return out
}

// signature writes sig's parameter and result types, without names.
func signature(sig *types.Signature, q types.Qualifier) string {
	tuple := func(t *types.Tuple, variadic bool) string {
		var s []string
		for i := range t.Len() {
			ts := types.TypeString(t.At(i).Type(), q)
			if variadic && i == t.Len()-1 {
				ts = "..." + strings.TrimPrefix(ts, "[]")
			}
			s = append(s, ts)
		}
		return "(" + strings.Join(s, ", ") + ")"
	}
	return tuple(sig.Params(), sig.Variadic()) + " " + tuple(sig.Results(), false)
}
