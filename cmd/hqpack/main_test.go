package main

import (
	"bytes"
	"encoding/json"
	"github.com/hqpack/hqpack/internal/corpustest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hqpack/hqpack/internal/conformance"
)

// hq runs the command with args and stdin and returns its exit status and
// output.
func hq(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// failsWith checks the command-line error contract: status 1, nothing on
// stdout, one line on stderr that says each of want.
func failsWith(t *testing.T, code int, stdout, stderr string, want ...string) {
	t.Helper()
	if code != 1 {
		t.Errorf("exit status %d, want 1 (stderr %q)", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr %q, want one line", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q does not say %q", stderr, w)
		}
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const rawStory = `{"context": "request", "cases": [
 {"headers": [{":method": "GET"}, {":scheme": "https"}, {":path": "/"}, {":authority": "example.com"}, {"accept": "*/*"}]},
 {"headers": [{":method": "GET"}, {":scheme": "https"}, {":path": "/a.css"}, {":authority": "example.com"}, {"accept": "*/*"}, {"x": "1"}, {"x": "2"}]}
]}`

func TestHPACKDeflateInflate(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "raw.json", rawStory)
	want, err := conformance.ReadStory([]byte(rawStory))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-huffman", "auto"}, {"-huffman", "never"}, {"-huffman", "always"},
		{"-table-size", "0"}, {"-table-size", "256"},
	} {
		code, deflated, stderr := hq(t, "", append(append([]string{"hpack", "deflate"}, args...), in)...)
		if code != 0 || stderr != "" {
			t.Fatalf("deflate %v: %d %q", args, code, stderr)
		}
		st, err := conformance.ReadStory([]byte(deflated))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range st.Cases {
			if c.Wire == "" || c.Seqno == nil || *c.Seqno != i {
				t.Fatalf("deflate %v: case %d: %+v", args, i, c)
			}
			st.Cases[i].Headers = nil
		}
		stripped, err := st.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		size := "4096"
		if args[0] == "-table-size" {
			size = args[1]
		}
		// Inflate from stdin, with the table size the story was deflated at.
		code, inflated, stderr := hq(t, string(stripped), "hpack", "inflate", "-table-size", size)
		if code != 0 || stderr != "" {
			t.Fatalf("inflate %v: %d %q", args, code, stderr)
		}
		got, err := conformance.ReadStory([]byte(inflated))
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Cases {
			if diff := cmp.Diff(want.Cases[i].Headers, got.Cases[i].Headers); diff != "" {
				t.Errorf("%v case %d (-want +got):\n%s", args, i, diff)
			}
		}
	}
}

func TestHPACKErrors(t *testing.T) {
	dir := t.TempDir()
	badHex := writeFile(t, dir, "hex.json", `{"cases":[{"seqno":0,"wire":"82"},{"seqno":1,"wire":"8g"}]}`)
	badIndex := writeFile(t, dir, "index.json", `{"cases":[{"seqno":0,"wire":"82"},{"seqno":1,"wire":"828486"},{"seqno":2,"wire":"c0"}]}`)
	badJSON := writeFile(t, dir, "json.json", "{\"cases\": [\n{\"seqno\": 0, \"wire\": 82}]}")

	code, out, errs := hq(t, "", "hpack", "inflate", badHex)
	failsWith(t, code, out, errs, "hex.json", "case 1", "hex")
	code, out, errs = hq(t, "", "hpack", "inflate", badIndex)
	failsWith(t, code, out, errs, "index.json", "case 2", "invalid index")
	code, out, errs = hq(t, "", "hpack", "inflate", badJSON)
	failsWith(t, code, out, errs, "json.json", "line 2")
	code, out, errs = hq(t, `{"cases":[{"wire":"80"}]}`, "hpack", "inflate")
	failsWith(t, code, out, errs, "stdin", "case 0")
	code, out, errs = hq(t, "", "hpack", "deflate", filepath.Join(dir, "missing.json"))
	failsWith(t, code, out, errs, "missing.json")

	for _, args := range [][]string{
		{"hpack"}, {"hpack", "squash"}, {"hpack", "deflate", "-huffman", "sometimes"},
		{"hpack", "inflate", "-table-size", "-1"}, {"hpack", "inflate", "a", "b"}, {"hpack", "inflate", "-huffman", "never"},
	} {
		if code, out, _ := hq(t, "", args...); code != 2 || out != "" {
			t.Errorf("%v: exit status %d, stdout %q; want 2 and nothing", args, code, out)
		}
	}
}

const qif = "# two lists\n:method\tGET\n:path\t/index.html\n:authority\texample.com\nuser-agent\tcurl\n\n" +
	":method\tGET\n:path\t/style.css\n:authority\texample.com\nuser-agent\tcurl\nx\t\n\n" +
	":method\tGET\n:path\t/index.html\n:authority\texample.com\nuser-agent\tcurl\n\n"

func TestQPACKEncodeDecode(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.qif", qif)
	lists, err := conformance.ReadQIF([]byte(qif))
	if err != nil {
		t.Fatal(err)
	}
	want := string(conformance.AppendQIF(nil, lists))
	for _, set := range [][]string{
		{"-table-capacity", "0", "-max-blocked", "0"},
		{"-table-capacity", "4096", "-max-blocked", "100"},
		{"-table-capacity", "256", "-max-blocked", "0", "-immediate-ack"},
	} {
		enc := filepath.Join(dir, "out.qifs")
		code, out, errs := hq(t, "", append(append([]string{"qpack", "encode"}, set...), in, enc)...)
		if code != 0 || out != "" || errs != "" {
			t.Fatalf("encode %v: %d %q %q", set, code, out, errs)
		}
		dec := filepath.Join(dir, "out.qif")
		code, out, errs = hq(t, "", "qpack", "decode", set[0], set[1], set[2], set[3], enc, dec)
		if code != 0 || out != "" || errs != "" {
			t.Fatalf("decode %v: %d %q %q", set, code, out, errs)
		}
		got, err := os.ReadFile(dec)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%v: decoded\n%s\nwant\n%s", set, got, want)
		}
	}
}

func TestQPACKErrors(t *testing.T) {
	dir := t.TempDir()
	rec := func(stream uint64, hexPayload string) []byte {
		var p []byte
		for i := 0; i+1 < len(hexPayload); i += 2 {
			var b byte
			for _, c := range hexPayload[i : i+2] {
				b = b<<4 | byte(strings.IndexRune("0123456789abcdef", c))
			}
			p = append(p, b)
		}
		return conformance.AppendRecord(nil, stream, p)
	}
	var bad []byte
	bad = append(bad, rec(1, "0000d1")...)
	bad = append(bad, rec(3, "0000ff24")...) // static index 99
	badIndex := writeFile(t, dir, "index.out", string(bad))
	truncated := writeFile(t, dir, "cut.out", string(rec(1, "0000d1")[:13]))
	blocked := writeFile(t, dir, "blocked.out", string(rec(5, "0200")))
	noTab := writeFile(t, dir, "notab.qif", ":method GET\n\n")
	out := writeFile(t, dir, "out", "keep")

	check := func(args []string, want ...string) {
		t.Helper()
		code, stdout, stderr := hq(t, "", args...)
		failsWith(t, code, stdout, stderr, want...)
		if b, err := os.ReadFile(out); err != nil || string(b) != "keep" {
			t.Errorf("%v: OUT changed: %q %v", args, b, err)
		}
	}
	check([]string{"qpack", "decode", "-table-capacity", "0", "-max-blocked", "0", badIndex, out}, "index.out", "stream 3", "QPACK_DECOMPRESSION_FAILED")
	check([]string{"qpack", "decode", "-table-capacity", "0", "-max-blocked", "0", truncated, out}, "cut.out", "record 0")
	check([]string{"qpack", "decode", "-table-capacity", "4096", "-max-blocked", "10", blocked, out}, "blocked.out", "streams [5]")
	check([]string{"qpack", "encode", "-table-capacity", "0", "-max-blocked", "0", noTab, out}, "notab.qif", "line 1")
	check([]string{"qpack", "decode", "-table-capacity", "0", "-max-blocked", "0", filepath.Join(dir, "missing"), out}, "missing")

	for _, args := range [][]string{
		{"qpack"}, {"qpack", "squash"}, {"qpack", "decode", "-table-capacity", "0", badIndex, out},
		{"qpack", "encode", "-table-capacity", "0", "-max-blocked", "0", noTab},
		{"qpack", "decode", "-table-capacity", "256", "-max-blocked", "0", "-initial-capacity", "512", badIndex, out},
	} {
		if code, stdout, _ := hq(t, "", args...); code != 2 || stdout != "" {
			t.Errorf("%v: exit status %d, stdout %q; want 2 and nothing", args, code, stdout)
		}
	}
}

func TestConformance(t *testing.T) {
	code, out, errs := hq(t, "", "conformance")
	if code != 0 || errs != "" || !strings.Contains(out, "PASS") || !strings.Contains(out, "rfc-examples") {
		t.Fatalf("conformance: %d %q\n%s", code, errs, out)
	}
	code, out, errs = hq(t, "", "conformance", "-json", "-v")
	if code != 0 || errs != "" {
		t.Fatalf("conformance -json: %d %q", code, errs)
	}
	var r conformance.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Suites) == 0 || !r.OK() {
		t.Fatalf("conformance -json: %v %+v", err, r)
	}
	code, out, errs = hq(t, "", "conformance", "-corpus", filepath.Join(t.TempDir(), "nothing"))
	failsWith(t, code, out, errs, "nothing", "not a corpus folder")
	if code, out, _ := hq(t, "", "conformance", "extra"); code != 2 || out != "" {
		t.Errorf("conformance extra: %d %q", code, out)
	}
}

// TestConformanceFails checks exit status 1 when a case fails: a corpus
// folder whose RFC examples file is spoiled (the other suites find nothing
// else and fail too).
func TestConformanceFails(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"hpack-test-case/raw-data", "qifs/qifs", "qifs/encoded/qpack-05", "qifs/encoded/errors"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, dir, "rfc-examples.json", `{"examples": []}`)
	code, out, errs := hq(t, "", "conformance", "-corpus", dir)
	if code != 1 || !strings.Contains(out, "FAIL") || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "cases failed") {
		t.Fatalf("exit status %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}

func TestUsage(t *testing.T) {
	if code, _, errs := hq(t, ""); code != 2 || !strings.Contains(errs, "usage") {
		t.Errorf("no command: %d %q", code, errs)
	}
	if code, _, errs := hq(t, "", "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command: %d %q", code, errs)
	}
	if code, out, _ := hq(t, "", "help"); code != 0 || !strings.Contains(out, "hqpack conformance") {
		t.Errorf("help: %d %q", code, out)
	}
}

// TestCorpusFiles runs the coding commands on corpus files unchanged.
func TestCorpusFiles(t *testing.T) {
	dir := corpustest.Dir(t, "")
	story := filepath.Join(dir, "hpack-test-case", "nghttp2-change-table-size", "story_05.json")
	want, err := conformance.LoadStory(story)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := hq(t, "", "hpack", "inflate", story)
	if code != 0 || errs != "" {
		t.Fatalf("inflate: %d %q", code, errs)
	}
	got, err := conformance.ReadStory([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inflate (-want +got):\n%s", diff)
	}

	in := filepath.Join(dir, "qifs", "encoded", "qpack-05", "nghttp3", "netbsd.out.256.100.0")
	qifOut := filepath.Join(t.TempDir(), "netbsd.qif")
	code, out, errs = hq(t, "", "qpack", "decode", "-table-capacity", "256", "-max-blocked", "100", in, qifOut)
	failsWith(t, code, out, errs, "netbsd.out.256.100.0", "stream 0", "-initial-capacity 256")
	if _, err := os.Stat(qifOut); err == nil {
		t.Error("OUT written on failure")
	}
	code, _, errs = hq(t, "", "qpack", "decode", "-table-capacity", "256", "-max-blocked", "100", "-initial-capacity", "256", in, qifOut)
	if code != 0 || errs != "" {
		t.Fatalf("decode: %d %q", code, errs)
	}
	lists, err := conformance.LoadQIF(filepath.Join(dir, "qifs", "qifs", "netbsd.qif"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(qifOut)
	if err != nil || string(b) != string(conformance.AppendQIF(nil, lists)) {
		t.Errorf("decoded QIF differs from netbsd.qif (%v)", err)
	}
}
