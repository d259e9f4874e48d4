package qpack

import (
	"errors"
	"fmt"
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/corpustest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hqpack/hqpack/internal/codectest"
)

// decodeQIFS decodes a QIFS encoded file with one decoder, holding blocked
// sections until their inserts arrive, and returns the fields per stream.
// The decoder stream is flushed after every record, as a peer would.
func decodeQIFS(b []byte, cfg DecoderConfig) (map[uint64][]codectest.Field, *Decoder, error) {
	recs, err := readQIFS(b)
	if err != nil {
		return nil, nil, err
	}
	d := newDecoder(cfg)
	out := map[uint64][]codectest.Field{}
	waiting := map[uint64]*codectest.Recorder{}
	var ds []byte
	for _, r := range recs {
		if r.stream == 0 {
			if err := d.ReadEncoderStream(r.data); err != nil {
				return nil, d, err
			}
			for {
				id, ok := d.NextUnblocked()
				if !ok {
					break
				}
				s := waiting[id]
				if blocked, err := d.DecodeUnblocked(id, s); err != nil || blocked {
					return nil, d, fmt.Errorf("stream %d: unblocked %v, %v", id, !blocked, err)
				}
				out[id] = s.Fields
				delete(waiting, id)
			}
		} else {
			if _, dup := out[r.stream]; dup || waiting[r.stream] != nil {
				return nil, d, fmt.Errorf("stream %d: two sections", r.stream)
			}
			s := new(codectest.Recorder)
			blocked, err := d.DecodeSection(r.stream, r.data, s)
			if err != nil {
				return nil, d, err
			}
			if blocked {
				waiting[r.stream] = s
			} else {
				out[r.stream] = s.Fields
			}
		}
		ds = d.AppendDecoderStream(ds[:0])
	}
	if len(waiting) > 0 || d.BlockedStreams() > 0 {
		return nil, d, fmt.Errorf("%d sections still blocked at the end", len(waiting))
	}
	if len(d.pend) > 0 {
		return nil, d, fmt.Errorf("encoder stream ends inside an instruction")
	}
	return out, d, nil
}

// qifsSettings parses "<qif>.out.<T>.<B>.<A>".
func qifsSettings(name string) (qif string, capacity, blocked uint64, err error) {
	parts := strings.Split(name, ".")
	if len(parts) != 5 || parts[1] != "out" {
		return "", 0, 0, fmt.Errorf("unexpected name %q", name)
	}
	if capacity, err = strconv.ParseUint(parts[2], 10, 64); err != nil {
		return "", 0, 0, err
	}
	if blocked, err = strconv.ParseUint(parts[3], 10, 64); err != nil {
		return "", 0, 0, err
	}
	return parts[0], capacity, blocked, nil
}

// TestQIFSInterop decodes every implementation file of qifs
// encoded/qpack-05 at the settings in its name and compares each stream with
// the header list of the QIF it encodes (list n on stream n). A file that
// fails is decoded again with the InitialCapacity interop option: the
// encoders written to pre-RFC drafts insert before any Set Dynamic Table
// Capacity. The test logs which files needed it.
func TestQIFSInterop(t *testing.T) {
	dir := corpustest.Dir(t, "qifs")
	root := filepath.Join(dir, "qifs", "encoded", "qpack-05")
	qifs := map[string][][][2]string{}
	needed := map[string][]string{}
	total := 0
	for _, impl := range []string{"f5", "ls-qpack", "nghttp3", "qthingey"} {
		files, err := os.ReadDir(filepath.Join(root, impl))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			qif, capacity, blocked, err := qifsSettings(f.Name())
			if err != nil {
				t.Fatalf("%s/%s: %v", impl, f.Name(), err)
			}
			lists, ok := qifs[qif]
			if !ok {
				b, err := os.ReadFile(filepath.Join(dir, "qifs", "qifs", qif+".qif"))
				if err != nil {
					t.Fatal(err)
				}
				if lists, err = parseQIF(b); err != nil {
					t.Fatalf("%s.qif: %v", qif, err)
				}
				qifs[qif] = lists
			}
			b, err := os.ReadFile(filepath.Join(root, impl, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			cfg := DecoderConfig{MaxTableCapacity: capacity, MaxBlockedStreams: blocked}
			got, _, err := decodeQIFS(b, cfg)
			if err != nil {
				cfg.InitialCapacity = cfg.MaxTableCapacity
				var err2 error
				if got, _, err2 = decodeQIFS(b, cfg); err2 != nil {
					t.Errorf("%s/%s: %v; with InitialCapacity: %v", impl, f.Name(), err, err2)
					continue
				}
				if !errors.Is(err, ErrCapacity) {
					t.Errorf("%s/%s: failed without InitialCapacity for another reason than inserting before any capacity: %v", impl, f.Name(), err)
				}
				needed[impl] = append(needed[impl], f.Name())
			}
			compareLists(t, impl+"/"+f.Name(), lists, got, nil)
			total++
		}
	}
	for _, impl := range []string{"f5", "ls-qpack", "nghttp3", "qthingey"} {
		t.Logf("%s: %d files needed InitialCapacity: %s", impl, len(needed[impl]), strings.Join(needed[impl], " "))
	}
	if total != 72+96+96+96 {
		t.Errorf("decoded %d files, want 360", total)
	}
}

// TestQIFSDraftExamples decodes encoded/qpack-05/draft-examples.out, an older
// draft's example, to draft-examples.qif (streams 4, 8, 12).
func TestQIFSDraftExamples(t *testing.T) {
	dir := corpustest.Dir(t, "qifs")
	b, err := os.ReadFile(filepath.Join(dir, "qifs", "encoded", "qpack-05", "draft-examples.out"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := os.ReadFile(filepath.Join(dir, "qifs", "qifs", "draft-examples.qif"))
	if err != nil {
		t.Fatal(err)
	}
	lists, err := parseQIF(q)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 100}
	got, _, err := decodeQIFS(b, cfg)
	if err != nil {
		t.Logf("without InitialCapacity: %v", err)
		cfg.InitialCapacity = cfg.MaxTableCapacity
		if got, _, err = decodeQIFS(b, cfg); err != nil {
			t.Fatal(err)
		}
	}
	compareLists(t, "draft-examples", lists, got, []uint64{4, 8, 12})
}

// compareLists checks that stream ids[i] (or i+1) decoded to lists[i], and
// that every FieldID reported names the field it came with.
func compareLists(t *testing.T, name string, lists [][][2]string, got map[uint64][]codectest.Field, ids []uint64) {
	t.Helper()
	if ids == nil {
		for i := range lists {
			ids = append(ids, uint64(i+1))
		}
	}
	streams := make([]uint64, 0, len(got))
	for id := range got {
		streams = append(streams, id)
	}
	sort.Slice(streams, func(i, j int) bool { return streams[i] < streams[j] })
	if !slices.Equal(streams, ids) {
		t.Errorf("%s: streams %v, want %v", name, streams, ids)
		return
	}
	for i, id := range ids {
		fields := got[id]
		pairs := make([][2]string, len(fields))
		for j, f := range fields {
			pairs[j] = [2]string{f.Name, f.Value}
			if f.ID != 0 && f.ID.Name() != f.Name {
				t.Errorf("%s: stream %d: field %q has FieldID of %q", name, id, f.Name, f.ID.Name())
			}
		}
		if want := lists[i]; !slices.Equal(want, pairs) {
			t.Errorf("%s: stream %d (-want +got):\n%s", name, id, cmp.Diff(want, pairs))
			return
		}
	}
}

// TestQIFSErrorFiles checks qifs encoded/errors. They date from about
// draft-03; read under RFC 9204:
//
//	err1  stream 1: ff               RIC integer truncated
//	err2  stream 1: 00               Base missing
//	err3  stream 1: 00 ff            Base integer truncated
//	err4  stream 1: 00 81            Base negative (sign 1, RIC 0 <= delta 1)
//	err5  stream 1: 00 00 41         dynamic name reference with RIC 0
//	err6  stream 1: 00 00 27         literal name length truncated
//	err7  stream 1: 00 00 51 ff      value length truncated
//	err8  stream 1: 00 00 bf         dynamic index integer truncated
//	err9  stream 1: 00 00 c0         static 0, :authority "" (valid)
//	err10 stream 1: 00 00 fe         static 62 (valid)
//	err11 stream 0: 01               Duplicate of an entry never inserted
//	err12 stream 0: ff 80 ff ff ff ff 01  Insert With Name Reference, static
//	                                  index past the table
//
// err1-err8 are QPACK_DECOMPRESSION_FAILED, err11 and err12 (encoder
// stream) QPACK_ENCODER_STREAM_ERROR. Each is checked with a static-only
// decoder and with a 4096-byte table.
func TestQIFSErrorFiles(t *testing.T) {
	dir := corpustest.Dir(t, "qifs")
	tests := []struct {
		file  string
		code  ErrCode
		cause error
	}{
		{"err1", ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"err2", ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"err3", ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"err4", ErrCodeDecompressionFailed, ErrRequiredInsertCount},
		{"err5", ErrCodeDecompressionFailed, fastpath.ErrInvalidIndex},
		{"err6", ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"err7", ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"err8", ErrCodeDecompressionFailed, fastpath.ErrTruncated},
		{"err9", 0, nil},
		{"err10", 0, nil},
		{"err11", ErrCodeEncoderStream, fastpath.ErrInvalidIndex},
		{"err12", ErrCodeEncoderStream, fastpath.ErrInvalidIndex},
	}
	for _, tc := range tests {
		b, err := os.ReadFile(filepath.Join(dir, "qifs", "encoded", "errors", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, capacity := range []uint64{0, 4096} {
			got, _, err := decodeQIFS(b, DecoderConfig{MaxTableCapacity: capacity, MaxBlockedStreams: 100})
			if tc.cause == nil {
				if err != nil || len(got[1]) != 1 {
					t.Errorf("%s (capacity %d): %v %v, want one field", tc.file, capacity, got, err)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != tc.code || !errors.Is(err, tc.cause) {
				t.Errorf("%s (capacity %d): %v, want %v with %v", tc.file, capacity, err, tc.code, tc.cause)
			}
		}
	}
}
