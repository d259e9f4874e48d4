package qpack

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/leanovate/gopter"
)

// etField is one field of a test section. raw marks a raw Content-Length
// held in cl.
type etField struct {
	Name, Value string
	Flags       fastpath.Flags
	Raw         bool
	CL          int64
}

// etFields is a minimal fastpath.Enumerator over test fields.
type etFields struct {
	f []etField
	i int
}

func newEtFields(f []etField) *etFields { return &etFields{f: f, i: -1} }

func (l *etFields) Next() bool {
	if l.i < len(l.f) {
		l.i++
	}
	return l.i < len(l.f)
}

func (l *etFields) Field() (string, string, fastpath.Flags) {
	f := &l.f[l.i]
	if f.Raw {
		return "content-length", "", f.Flags
	}
	return f.Name, f.Value, f.Flags
}

func (l *etFields) ContentLength() (int64, bool) {
	f := &l.f[l.i]
	return f.CL, f.Raw
}

// etProperties returns gopter properties that pass after runs cases, or
// short ones under -short.
func etProperties(runs, short int) *gopter.Properties {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = runs
	if testing.Short() {
		p.MinSuccessfulTests = short
	}
	return gopter.NewProperties(p)
}

// etQIFNames are the six QIFs of the compression measurement.
var etQIFNames = []string{"fb-req-hq", "fb-req", "fb-resp-hq", "fb-resp", "netbsd-hq", "netbsd"}

// etReadQIF reads a QIF file: one header list per blank-line-separated block.
func etReadQIF(t testing.TB, path string) [][]etField {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lists [][]etField
	var cur []etField
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			if cur != nil {
				lists = append(lists, cur)
				cur = nil
			}
			continue
		}
		name, value, _ := strings.Cut(line, "\t")
		cur = append(cur, etField{Name: name, Value: value})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		lists = append(lists, cur)
	}
	return lists
}
