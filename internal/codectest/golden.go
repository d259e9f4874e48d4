package codectest

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the wire-golden files from this build's output")

// Golden checks lines against the lines of file, or writes them there when
// the test binary runs with -update-golden. The codecs' wire-golden tests
// use it to pin what the encoders write: a change for speed or memory must
// leave every line as it is, and one meant to change the output rewrites the
// file and says why in its commit.
func Golden(tb testing.TB, file string, lines []string) {
	tb.Helper()
	text := strings.Join(lines, "\n") + "\n"
	if *updateGolden {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	wl := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	bad := 0
	for i := range max(len(wl), len(lines)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(lines) {
			g = lines[i]
		}
		if w != g {
			if bad++; bad <= 10 {
				tb.Errorf("wire output changed:\n got %q\nwant %q", g, w)
			}
		}
	}
	if bad > 0 {
		tb.Errorf("%d of %d lines differ from %s (-update-golden rewrites it)", bad, len(wl), file)
	}
}
