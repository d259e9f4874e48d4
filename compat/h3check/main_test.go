package main

import (
	"net/http"
	"testing"
	"time"
)

// TestH3Check runs the whole check: a failure lists every mismatch.
func TestH3Check(t *testing.T) {
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	st, err := run(config{Rounds: rounds, Parallel: 8, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if st.Requests != rounds*8 || st.RequestFields < 60*st.Requests || st.ResponseFields < 90*st.Requests {
		t.Fatalf("checked too little: %+v", st)
	}
	t.Log(st.summary())
}

// TestDiff: the comparison must see a changed value, a missing field, an
// extra field and values out of order, or the check above proves nothing.
func TestDiff(t *testing.T) {
	want := http.Header{"A": {"1"}, "B": {"x", "y"}, "C": {""}}
	for _, tc := range []struct {
		name string
		got  http.Header
	}{
		{"changed value", http.Header{"A": {"2"}, "B": {"x", "y"}, "C": {""}}},
		{"missing field", http.Header{"A": {"1"}, "B": {"x", "y"}}},
		{"extra field", http.Header{"A": {"1"}, "B": {"x", "y"}, "C": {""}, "D": {"1"}}},
		{"order", http.Header{"A": {"1"}, "B": {"y", "x"}, "C": {""}}},
		{"one value missing", http.Header{"A": {"1"}, "B": {"x"}, "C": {""}}},
	} {
		if d := diff("h", tc.got, want, 10); len(d) != 2 {
			t.Errorf("%s: diff = %q, want a count and one line", tc.name, d)
		}
	}
	if d := diff("h", want.Clone(), want, 10); len(d) != 0 {
		t.Errorf("equal headers: diff = %q", d)
	}
}

// TestRequestsDiffer: requests of a round must not share values, or a
// field delivered to the wrong request would go unnoticed.
func TestRequestsDiffer(t *testing.T) {
	a, b := newRequest(3, 1), newRequest(3, 2)
	seen := map[string]string{}
	for n, vv := range a.header {
		for _, v := range vv {
			seen[v] = n
		}
	}
	for n, vv := range b.header {
		for _, v := range vv {
			if other, ok := seen[v]; ok && len(v) > 8 {
				t.Errorf("request 3-2's %s has the value of 3-1's %s: %q", n, other, v)
			}
		}
	}
	if n := countFields(a.header); n < 60 {
		t.Errorf("request has %d fields, want about 60", n)
	}
	h, tr, _ := response(a.path, a.received(), a.trailer, a.body)
	if n := countFields(h); n < 90 {
		t.Errorf("response has %d fields, want about 90", n)
	}
	if n := countFields(tr); n != 3 {
		t.Errorf("response has %d trailer fields, want 3", n)
	}
}
