package conformance

import (
	"bytes"
	"encoding/json"
	"github.com/hqpack/hqpack/internal/corpustest"
	"strings"
	"testing"
)

// TestEmbedded runs what `hqpack conformance` runs without a corpus: it
// must always pass.
func TestEmbedded(t *testing.T) {
	r, err := Run(Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"rfc-examples": 42, "errors": len(MalformedInputs), "hpack-vectors": 8, "qpack-vectors": 32}
	checkReport(t, r, want)
}

// TestCorpus runs every suite over the shared corpus.
func TestCorpus(t *testing.T) {
	dir := corpustest.Dir(t, "")
	r, err := Run(Options{Corpus: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"rfc-examples":  42,
		"hpack-decode":  12*32 - 2,     // two folders have no story_31
		"hpack-encode":  4*32 + 2*31,   // four sizes, two folders' settings
		"qpack-decode":  72 + 3*96 + 2, // f5, ls-qpack, nghttp3, qthingey, examples, draft-examples
		"qpack-encode":  7 * 16,        // QIFs x settings
		"errors":        12*2 + len(MalformedInputs),
		"hpack-vectors": 8,
		"qpack-vectors": 32,
	}
	checkReport(t, r, want)
	for _, s := range r.Suites {
		switch s.Name {
		case "hpack-encode":
			c := s.Compression
			if c == nil || len(c.Rows) != 6 || len(c.Rows[0].Impls) != 11 {
				t.Fatalf("hpack-encode compression: %+v", c)
			}
		case "qpack-encode":
			c := s.Compression
			if c == nil || len(c.Rows) != 16 {
				t.Fatalf("qpack-encode compression: %+v", c)
			}
			for _, row := range c.Rows {
				if row.Inputs != 6 || len(row.Impls) < 4 || row.Raw == 0 {
					t.Errorf("qpack-encode %s: %d QIFs, %d implementations, raw %d", row.Setting, row.Inputs, len(row.Impls), row.Raw)
				}
			}
			if !strings.Contains(strings.Join(s.Notes, " "), "sections blocked") {
				t.Errorf("qpack-encode notes: %q", s.Notes)
			}
		}
	}
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
}

// checkReport checks that the run passed and that each suite ran the
// number of cases it should.
func checkReport(t *testing.T, r *Report, want map[string]int) {
	t.Helper()
	if !r.OK() {
		var b bytes.Buffer
		r.WriteText(&b, true)
		t.Fatalf("run failed:\n%s", b.String())
	}
	got := map[string]int{}
	for _, s := range r.Suites {
		got[s.Name] = s.Cases
		if s.Cases == 0 || s.Sections == 0 || s.Bytes == 0 {
			t.Errorf("%s: %d cases, %d sections, %d bytes", s.Name, s.Cases, s.Sections, s.Bytes)
		}
	}
	for name, n := range want {
		if got[name] != n {
			t.Errorf("%s: %d cases, want %d", name, got[name], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("suites %v, want %v", got, want)
	}
}

func TestReportText(t *testing.T) {
	s := newSuite("demo", "a demonstration", "thing")
	s.count("good", nil)
	for i := range shownFailures + 2 {
		s.count("bad", atf("stream "+string(rune('a'+i)), "boom"))
	}
	s.add(3, 99)
	r := &Report{Suites: []*Suite{s}}
	r.total()
	if r.OK() {
		t.Fatal("a report with failures is OK")
	}
	var short, long bytes.Buffer
	r.WriteText(&short, false)
	r.WriteText(&long, true)
	for _, w := range []string{"demo", "thing", "bad: stream a: boom", "and 2 more", "FAIL: 7 of 8"} {
		if !strings.Contains(short.String(), w) {
			t.Errorf("text report lacks %q:\n%s", w, short.String())
		}
	}
	if !strings.Contains(long.String(), "bad: stream g: boom") || strings.Contains(long.String(), "more (-v") {
		t.Errorf("verbose report does not list every failure:\n%s", long.String())
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Failed != 7 || len(back.Suites[0].Failures) != 7 || back.Suites[0].Failures[6].Where != "stream g" {
		t.Errorf("JSON report: %s", js.String())
	}
	if (&Report{}).OK() {
		t.Error("an empty report is OK")
	}
}

// TestPanicIsFailure checks that a case that panics fails, and the run
// goes on.
func TestPanicIsFailure(t *testing.T) {
	s := newSuite("demo", "", "")
	parallel(3, func(i int) {
		defer s.recoverCase("case")
		if i == 1 {
			panic("boom")
		}
		s.count("case", nil)
	})
	s.count("safe", safe(func() error { panic("bang") }))
	if s.Cases != 4 || s.Failed != 2 {
		t.Fatalf("%d cases, %d failed: %+v", s.Cases, s.Failed, s.Failures)
	}
}
