// Command testcmp compares two `go test -json` runs of the same packages:
// x/net pristine, and a copy whose http2/hpack is compat/xnet-hpack. It
// prints each run's counts and fails unless every test that passed in the
// first passed in the second. In the packages named by -filtered, whose
// test files were filtered (compat/xnet-hpack/internal/testfilter), a test
// missing from the second run is counted as dropped, not as a failure; a
// test that ran there must pass.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// event is the part of a test2json event testcmp reads.
type event struct {
	Action, Package, Test string
}

// run is one `go test -json` output: each test's last action, and the
// packages that failed as a whole (a build failure, a panic).
type run struct {
	tests    map[[2]string]string // {package, test} -> pass, fail or skip
	pkgFails map[string]bool
}

func load(path string) (*run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &run{tests: map[[2]string]string{}, pkgFails: map[string]bool{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue // the go command's own lines
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch e.Action {
		case "pass", "fail", "skip":
		default:
			continue
		}
		if e.Test == "" {
			if e.Action == "fail" {
				r.pkgFails[e.Package] = true
			}
			continue
		}
		r.tests[[2]string{e.Package, e.Test}] = e.Action
	}
	return r, sc.Err()
}

// counts are a run's tests by result.
type counts struct{ run, passed, skipped, failed int }

// count counts the tests of pkg ("" for all packages), top-level ones or
// subtests.
func (r *run) count(pkg string, sub bool) counts {
	var c counts
	for k, a := range r.tests {
		if strings.Contains(k[1], "/") != sub || pkg != "" && k[0] != pkg {
			continue
		}
		c.run++
		switch a {
		case "pass":
			c.passed++
		case "skip":
			c.skipped++
		case "fail":
			c.failed++
		}
	}
	return c
}

func (r *run) packages() []string {
	seen := map[string]bool{}
	var pkgs []string
	for k := range r.tests {
		if !seen[k[0]] {
			seen[k[0]] = true
			pkgs = append(pkgs, k[0])
		}
	}
	sort.Strings(pkgs)
	return pkgs
}

func main() {
	pristine := flag.String("pristine", "", "go test -json output of pristine x/net")
	copyRun := flag.String("copy", "", "go test -json output of the copy with compat/xnet-hpack")
	filtered := flag.String("filtered", "", "comma-separated packages whose test files were filtered")
	flag.Parse()
	if *pristine == "" || *copyRun == "" {
		fmt.Fprintln(os.Stderr, "usage: testcmp -pristine FILE -copy FILE [-filtered PKG,...]")
		os.Exit(2)
	}
	a, err := load(*pristine)
	if err == nil {
		var b *run
		if b, err = load(*copyRun); err == nil {
			err = compare(a, b, strings.Split(*filtered, ","))
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcmp:", err)
		os.Exit(1)
	}
}

func compare(a, b *run, filtered []string) error {
	isFiltered := map[string]bool{}
	for _, p := range filtered {
		isFiltered[p] = true
	}
	fmt.Printf("%-9s %-30s %-9s %5s %7s %8s %7s\n", "run", "package", "tests", "run", "passed", "skipped", "failed")
	for _, x := range []struct {
		name string
		r    *run
	}{{"pristine", a}, {"copy", b}} {
		for _, pkg := range append(x.r.packages(), "") {
			for _, sub := range []bool{false, true} {
				c := x.r.count(pkg, sub)
				if c.run == 0 && pkg != "" {
					continue
				}
				kind, name := "top-level", pkg
				if sub {
					kind = "subtests"
				}
				if name == "" {
					name = "all"
				}
				fmt.Printf("%-9s %-30s %-9s %5d %7d %8d %7d\n", x.name, name, kind, c.run, c.passed, c.skipped, c.failed)
			}
		}
	}
	var problems []string
	dropped := map[string]int{}
	var keys [][2]string
	for k := range a.tests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		if a.tests[k] != "pass" {
			continue
		}
		got, ok := b.tests[k]
		switch {
		case !ok && isFiltered[k[0]]:
			dropped[k[0]]++
		case got != "pass":
			if !ok {
				got = "missing"
			}
			problems = append(problems, fmt.Sprintf("%s %s: passed on pristine x/net, %s on the copy", k[0], k[1], got))
		}
	}
	for k, got := range b.tests {
		if got == "fail" && a.tests[k] != "pass" {
			fmt.Printf("note: %s %s fails on the copy and is %q on pristine x/net\n", k[0], k[1], a.tests[k])
		}
	}
	for p := range b.pkgFails {
		if !a.pkgFails[p] {
			problems = append(problems, p+": the package failed on the copy")
		}
	}
	for _, p := range filtered {
		if p != "" {
			fmt.Printf("%s: %d tests that pass on pristine x/net were filtered out of the copy\n", p, dropped[p])
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("%d regressions:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	fmt.Println("every test that passes on pristine x/net passes on the copy")
	return nil
}
