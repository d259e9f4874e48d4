package conformance

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/qpack"
)

// copyVectors copies the module's vectors into a map file system that a
// test may spoil.
func copyVectors(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(Vectors(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Vectors(), path)
		m[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWrongVectorFails spoils vectors in each way a stale or damaged one
// can be wrong and checks that the runner reports each as a failure.
func TestWrongVectorFails(t *testing.T) {
	m := copyVectors(t)
	hs, qs := RunVectors(m)
	if hs.Failed != 0 || qs.Failed != 0 || hs.Cases != 8 || qs.Cases != 32 {
		t.Fatalf("pristine vectors: %+v %+v", hs.Failures, qs.Failures)
	}

	// A QPACK vector with one section byte changed: the literal's value.
	q := m["qpack/requests.out.0.0.0"]
	q.Data = append([]byte(nil), q.Data...)
	q.Data[len(q.Data)-1] ^= 0x01
	// An HPACK vector whose first block is one byte longer.
	h := m["hpack/responses.4096.json"]
	h.Data = []byte(strings.Replace(string(h.Data), `"wire": "`, `"wire": "be`, 1))
	// An HPACK vector with a block that decodes right but is not what our
	// encoder writes: the last request without Huffman coding.
	st, err := ReadStory(m["hpack/requests.0.json"].Data)
	if err != nil {
		t.Fatal(err)
	}
	last := len(st.Cases) - 1
	plain := &Story{Cases: []Case{{Headers: st.Cases[last].Headers}}}
	b := encodeStory(plain, hpack.Config{TableLimit: hpack.NoTable, InitialTableSize: hpack.NoTable, Huffman: fastpath.HuffmanNever}, false)[0]
	if hex.EncodeToString(b) == st.Cases[last].Wire {
		t.Fatal("the plain block is the vector's")
	}
	st.Cases[last].Wire = hex.EncodeToString(b)
	data, err := st.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	m["hpack/requests.0.json"] = &fstest.MapFile{Data: data}
	// A vector gone, and one no setting names.
	delete(m, "qpack/responses.out.512.100.1")
	m["qpack/responses.out.1024.0.0"] = &fstest.MapFile{Data: nil}

	hs, qs = RunVectors(m)
	wantFailed := map[string]bool{
		"hpack/requests.0.json":         true,
		"qpack/requests.out.0.0.0":      true,
		"hpack/responses.4096.json":     true,
		"qpack/responses.out.512.100.1": true,
		"qpack/responses.out.1024.0.0":  true,
	}
	got := map[string]bool{}
	for _, f := range append(hs.Failures, qs.Failures...) {
		got[f.Case] = true
		t.Logf("reported: %s", f)
	}
	for name := range wantFailed {
		if !got[name] {
			t.Errorf("%s: not reported", name)
		}
	}
	if len(got) != len(wantFailed) {
		t.Errorf("failures %v, want %v", got, wantFailed)
	}
	for _, f := range hs.Failures {
		if f.Case == "hpack/requests.0.json" && !strings.Contains(f.Error, "re-encoded") {
			t.Errorf("%s: want a re-encoding difference", f)
		}
	}
	if hs.Failed+qs.Failed != len(wantFailed) {
		t.Errorf("%d failed, want %d", hs.Failed+qs.Failed, len(wantFailed))
	}
}

// TestWrongExpectationFails checks that the errors suite and the RFC
// suite fail when what they expect is wrong.
func TestWrongExpectationFails(t *testing.T) {
	m := Malformed{Codec: "hpack", Name: "index 0", Input: "80", Err: fastpath.ErrTruncated, Code: uint64(hpack.ErrCodeCompression)}
	if err := m.check(); err == nil {
		t.Error("wrong sentinel: passed")
	}
	m = Malformed{Codec: "qpack section", Name: "RIC cut short", Input: "ff", Err: fastpath.ErrTruncated, Code: uint64(qpack.ErrCodeEncoderStream)}
	if err := m.check(); err == nil {
		t.Error("wrong code: passed")
	}
	m = Malformed{Codec: "hpack", Name: "valid", Input: "82", Err: fastpath.ErrInvalidIndex, Code: uint64(hpack.ErrCodeCompression)}
	if err := m.check(); err == nil {
		t.Error("valid input: passed")
	}

	ex, err := EmbeddedRFCExamples()
	if err != nil {
		t.Fatal(err)
	}
	// One byte of C.4.2 and of B.2's section, and a header of C.5.1.
	ex.HPACK[8].WireHex = strings.Replace(ex.HPACK[8].WireHex, "be", "bf", 1)
	for i := range ex.QPACK[1].Steps {
		if st := &ex.QPACK[1].Steps[i]; st.Stream.Kind == "section" {
			st.Hex = "03811010"
		}
	}
	ex.HPACK[10].Headers[0].Value = "301"
	s := RunRFCExamples(ex)
	failed := map[string]bool{}
	for _, f := range s.Failures {
		failed[f.Case] = true
	}
	for _, want := range []string{"RFC7541 C.4.2 decode", "RFC7541 C.4.2 encode", "RFC9204 B.2 decode", "RFC9204 B.2 encode", "RFC7541 C.5.1 decode", "RFC7541 C.5.1 encode"} {
		if !failed[want] {
			t.Errorf("%s: not reported (failures: %v)", want, s.Failures)
		}
	}
}

// TestMalformedInputs checks each hand-made input on its own, so that a
// failure names it.
func TestMalformedInputs(t *testing.T) {
	for _, m := range MalformedInputs {
		if err := m.check(); err != nil {
			t.Errorf("%s: %s: %v", m.Codec, m.Name, err)
		}
		if _, err := hex.DecodeString(m.Input); err != nil {
			t.Errorf("%s: %s: %v", m.Codec, m.Name, err)
		}
	}
	// Every code the package's errors carry is exercised.
	codes := map[uint64]bool{}
	for _, m := range MalformedInputs {
		codes[m.Code] = true
	}
	for _, c := range []uint64{uint64(hpack.ErrCodeCompression), uint64(qpack.ErrCodeDecompressionFailed), uint64(qpack.ErrCodeEncoderStream), uint64(qpack.ErrCodeDecoderStream)} {
		if !codes[c] {
			t.Errorf("no malformed input with code %#x", c)
		}
	}
	if _, ok := errorCode(errors.New("plain")); ok {
		t.Error("a plain error has a code")
	}
}

// TestDecodeLateBlocks checks that late delivery makes sections block,
// in both ack modes, and that the lists still come out.
func TestDecodeLateBlocks(t *testing.T) {
	lists, err := readQIFFile(Vectors(), "requests.qif")
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []QPACKSetting{{4096, 100, 0}, {4096, 100, 1}, {256, 100, 1}, {512, 0, 1}} {
		recs := encodeRecords(lists, set.encoderConfig(), false)
		blocked := 0
		for seed := range int64(8) {
			got, n, err := decodeLate(recs, set, seed)
			if err != nil {
				t.Fatalf("%v seed %d: %v", set, seed, err)
			}
			if err := compareStreams(got, lists, nil); err != nil {
				t.Fatalf("%v seed %d: %v", set, seed, err)
			}
			blocked += n
		}
		if set.Blocked > 0 && blocked == 0 {
			t.Errorf("%v: no section blocked", set)
		}
		if set.Blocked == 0 && blocked > 0 {
			t.Errorf("%v: %d sections blocked, over the limit of 0", set, blocked)
		}
	}
}
