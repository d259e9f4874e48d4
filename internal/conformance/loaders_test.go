package conformance

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadQIF(t *testing.T) {
	in := "# comment\n:method\tGET\nx-tab\ta\tb\nempty\t\n\n\n:status\t200\r\n\n"
	got, err := ReadQIF([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Headers{
		{{":method", "GET"}, {"x-tab", "a\tb"}, {"empty", ""}},
		{{":status", "200"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	again, err := ReadQIF(AppendQIF(nil, got))
	if err != nil || !cmp.Equal(again, want) {
		t.Fatalf("AppendQIF round trip: %v %v", again, err)
	}
}

// TestLoadersMalformed checks that malformed corpus files are errors that
// name the file and the place, never panics.
func TestLoadersMalformed(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rec := AppendRecord(nil, 1, []byte{0, 0, 0xd1})
	tests := []struct {
		name string
		load func() error
		want []string // substrings of the error
		is   error
	}{
		{"QIF without a tab", func() error {
			_, err := LoadQIF(write("bad.qif", ":method\tGET\nno-tab-here\n\n"))
			return err
		}, []string{"bad.qif", "line 2", "no TAB"}, nil},
		{"truncated record payload", func() error {
			_, err := LoadRecords(write("cut.out", string(rec[:len(rec)-1])))
			return err
		}, []string{"cut.out", "record 0", "offset 0"}, ErrRecordTruncated},
		{"truncated record header", func() error {
			_, err := LoadRecords(write("cut2.out", string(append(append([]byte{}, rec...), 0, 0, 0))))
			return err
		}, []string{"cut2.out", "record 1", "offset 15"}, ErrRecordTruncated},
		{"story with bad JSON", func() error {
			_, err := LoadStory(write("story_00.json", "{\"cases\": [\n  {\"seqno\": 0,\n   \"wire\": 82}\n]}"))
			return err
		}, []string{"story_00.json", "line 3"}, nil},
		{"story with a two-name header", func() error {
			_, err := LoadStory(write("story_01.json", `{"cases":[{"headers":[{"a":"b"}]},{"headers":[{"a":"b","c":"d"}]}]}`))
			return err
		}, []string{"story_01.json", "case 1", "header 0"}, nil},
		{"story with a wrong seqno", func() error {
			_, err := LoadStory(write("story_02.json", `{"cases":[{"seqno":0,"wire":"82"},{"seqno":5,"wire":"82"}]}`))
			return err
		}, []string{"story_02.json", "case 1", "seqno 5"}, nil},
		{"story with bad hex", func() error {
			s, err := ReadStory([]byte(`{"cases":[{"seqno":0,"wire":"82"},{"seqno":1,"wire":"8zz"}]}`))
			if err != nil {
				return err
			}
			return Inflate(s, 4096)
		}, []string{"case 1", "not hex"}, hex.InvalidByteError('z')},
		{"rfc-examples with an unknown protocol", func() error {
			_, err := LoadRFCExamples(write("rfc.json", `{"examples":[{"id":"X","protocol":"spdy"}]}`))
			return err
		}, []string{"rfc.json", "example 0", "spdy"}, nil},
		{"QIFS name", func() error {
			_, err := ParseQIFSName("fb-req.out.256.x.1")
			return err
		}, []string{"fb-req.out.256.x.1"}, nil},
	}
	for _, tt := range tests {
		err := tt.load()
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tt.name, err, w)
			}
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v is not %v", tt.name, err, tt.is)
		}
	}
}

func TestRecords(t *testing.T) {
	var b []byte
	b = AppendRecord(b, 0, []byte{0x3f, 0xe1, 0x01})
	b = AppendRecord(b, 7, nil)
	b = AppendRecord(b, 1<<40, []byte{0, 0})
	got, err := ReadRecords(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{{0, []byte{0x3f, 0xe1, 0x01}}, {7, []byte{}}, {1 << 40, []byte{0, 0}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if len(b) != 3*12+5 {
		t.Fatalf("%d bytes", len(b))
	}
}

func TestParseQIFSName(t *testing.T) {
	n, err := ParseQIFSName("fb-req-hq.out.4096.100.1")
	if err != nil || n != (QIFSName{"fb-req-hq", 4096, 100, 1}) || n.String() != "fb-req-hq.out.4096.100.1" {
		t.Fatalf("%+v %v", n, err)
	}
	for _, bad := range []string{"draft-examples.out", "fb-req.qifencoded.256.0.0", "fb-req.out.256.100.2", ".out.1.2.1", "netbsd.qif.ats.256.100.0"} {
		if _, err := ParseQIFSName(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestHeadersJSON(t *testing.T) {
	in := `[{":path":"/a\"b\\c\u00e9"}, {"x":""} ,{"x":"2"}]`
	var h Headers
	if err := h.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	want := Headers{{":path", "/a\"b\\cé"}, {"x", ""}, {"x", "2"}}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	out, err := h.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var again Headers
	if err := again.UnmarshalJSON(out); err != nil || !cmp.Equal(again, want) {
		t.Fatalf("round trip %s: %v %v", out, again, err)
	}
	for _, bad := range []string{`{}`, `[{"a":"b","c":"d"}]`, `[{}]`, `[{"a":1}]`, `[{"a":"b"} {"c":"d"}]`, `[{"a":"b}]`} {
		if err := new(Headers).UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestInflateDeflate runs a story through Deflate and Inflate at several
// table sizes and Huffman policies.
func TestInflateDeflate(t *testing.T) {
	lists, err := readQIFFile(Vectors(), "responses.qif")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 256, 4096} {
		st := vectorStory("responses", lists, size)
		if err := Deflate(st, hpackVectorConfig(size)); err != nil {
			t.Fatal(err)
		}
		for i := range st.Cases {
			st.Cases[i].Headers = nil
		}
		if err := Inflate(st, 4096); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		for i, c := range st.Cases {
			if !equalHeaders(c.Headers, lists[i]) {
				t.Fatalf("size %d case %d: %s", size, i, firstDifference(c.Headers, lists[i]))
			}
		}
	}
}

// TestSplitInstructions splits the encoder stream of RFC 9204 Appendix B.
func TestSplitInstructions(t *testing.T) {
	ex, err := EmbeddedRFCExamples()
	if err != nil {
		t.Fatal(err)
	}
	var stream []byte
	var want []string
	for _, e := range ex.QPACK {
		for _, st := range e.Steps {
			if st.Stream.Kind != "encoder" {
				continue
			}
			for _, in := range st.Instructions {
				want = append(want, in.Op)
			}
			b, _ := hex.DecodeString(st.Hex)
			stream = append(stream, b...)
		}
	}
	ins, inserts, err := splitInstructions(stream)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != len(want) || !bytes.Equal(bytes.Join(ins, nil), stream) {
		t.Fatalf("%d instructions %x, want %d (%v)", len(ins), ins, len(want), want)
	}
	for i, op := range want {
		if inserts[i] != (op != "set_dynamic_table_capacity") {
			t.Errorf("instruction %d (%s): insert %v", i, op, inserts[i])
		}
	}
	if _, _, err := splitInstructions(stream[:len(stream)-1]); err == nil {
		t.Error("cut stream: no error")
	}
}

func TestRequiredInsertCount(t *testing.T) {
	tests := []struct {
		prefix            string
		maxEntries, total uint64
		want              uint64
		ok                bool
	}{
		{"0000", 8, 0, 0, true},
		{"0300", 6, 2, 2, true},   // RFC 9204 B.2 (capacity 220: MaxEntries 6)
		{"0200", 8, 17, 17, true}, // 17 wraps to 2
		{"1100", 8, 3, 0, false},  // past 2*MaxEntries
		{"ff", 8, 3, 0, false},
	}
	for _, tt := range tests {
		b, _ := hex.DecodeString(tt.prefix)
		got, ok := requiredInsertCount(b, tt.maxEntries, tt.total)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s (MaxEntries %d, inserts %d): %d %v, want %d %v", tt.prefix, tt.maxEntries, tt.total, got, ok, tt.want, tt.ok)
		}
	}
}
