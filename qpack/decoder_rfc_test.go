package qpack

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"github.com/hqpack/hqpack/internal/corpustest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hqpack/hqpack/internal/codectest"
)

// The RFC 9204 Appendix B examples, as testdata/rfc9204.json restates them
// (a copy of the QPACK entries of shared/corpus/rfc-examples.json).
type rfcFile struct {
	Examples []rfcExample `json:"examples"`
}

type rfcExample struct {
	ID           string `json:"id"`
	FreshContext bool   `json:"fresh_context"`
	Settings     struct {
		MaxTableCapacity  uint64 `json:"max_table_capacity"`
		MaxBlockedStreams uint64 `json:"max_blocked_streams"`
	} `json:"settings"`
	EncoderStreamHex   string     `json:"encoder_stream_hex"`
	DecoderStreamHex   string     `json:"decoder_stream_hex"`
	FieldSections      []rfcStep  `json:"field_sections"`
	Steps              []rfcStep  `json:"steps"`
	TableAfter         []rfcEntry `json:"dynamic_table_after"`
	TableSizeAfter     int        `json:"dynamic_table_size_after"`
	TableCapacityAfter int        `json:"dynamic_table_capacity_after"`
	InsertCountAfter   uint64     `json:"insert_count_after"`
}

type rfcStep struct {
	Stream       json.RawMessage `json:"stream"` // "encoder", "decoder" or a stream ID
	StreamID     uint64          `json:"stream_id"`
	Hex          string          `json:"hex"`
	Instructions []struct {
		Op       string `json:"op"`
		StreamID uint64 `json:"stream_id"`
	} `json:"instructions"`
	RequiredInsertCount uint64 `json:"required_insert_count"`
	Base                uint64 `json:"base"`
	Headers             []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"headers"`
	TableAfter struct {
		Entries     []rfcEntry `json:"entries"`
		Size        int        `json:"size"`
		InsertCount uint64     `json:"insert_count"`
	} `json:"table_after"`
}

type rfcEntry struct {
	AbsoluteIndex uint64 `json:"absolute_index"`
	Name          string `json:"name"`
	Value         string `json:"value"`
	Size          int    `json:"size"`
}

func (s *rfcStep) kind() string {
	var k string
	if json.Unmarshal(s.Stream, &k) == nil {
		return k
	}
	return "section"
}

func (s *rfcStep) streamID(t *testing.T) uint64 {
	var id uint64
	if err := json.Unmarshal(s.Stream, &id); err != nil {
		t.Fatalf("stream %s: %v", s.Stream, err)
	}
	return id
}

// want returns the step's headers as decoded fields: no field of Appendix B
// is never-indexed, and every name the static table knows carries its ID
// (static references, and dynamic entries whose names came from there).
func (s *rfcStep) want() []codectest.Field {
	out := make([]codectest.Field, len(s.Headers))
	for i, h := range s.Headers {
		out[i] = codectest.Want(h.Name, h.Value, false)
	}
	return out
}

func loadRFC(t *testing.T) []rfcExample {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "rfc9204.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f rfcFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Examples) != 5 {
		t.Fatalf("%d examples, want 5 (B.1-B.5)", len(f.Examples))
	}
	return f.Examples
}

// ordered returns the example's steps in the order a decoder meets them.
// RFC order except for B.4: the RFC cancels stream 8 before the Duplicate
// reaches the decoder (otherwise the decoder would acknowledge the section
// instead), so the section (blocked then) and the cancellation come first.
// moved marks the steps taken out of place, whose table_after (printed for
// their RFC position) does not apply.
func ordered(ex *rfcExample) (steps []rfcStep, moved []bool) {
	cancelled := map[uint64]bool{}
	for _, st := range ex.Steps {
		for _, in := range st.Instructions {
			if in.Op == "stream_cancellation" {
				cancelled[in.StreamID] = true
			}
		}
	}
	var rest []rfcStep
	for _, st := range ex.Steps {
		isCancel := false
		for _, in := range st.Instructions {
			isCancel = isCancel || in.Op == "stream_cancellation"
		}
		var id uint64
		isSection := st.kind() == "section" && json.Unmarshal(st.Stream, &id) == nil
		if isCancel || (isSection && cancelled[id]) {
			steps = append(steps, st)
			moved = append(moved, true)
		} else {
			rest = append(rest, st)
		}
	}
	for _, st := range rest {
		steps = append(steps, st)
		moved = append(moved, false)
	}
	return steps, moved
}

func checkTable(t *testing.T, where string, d *Decoder, entries []rfcEntry, size int) {
	t.Helper()
	var got []rfcEntry
	n := d.InsertCount()
	for abs := n - uint64(d.tbl.Len()); abs < n; abs++ {
		name, value, ok := d.TableEntry(abs)
		if !ok {
			t.Fatalf("%s: live entry %d missing", where, abs)
		}
		got = append(got, rfcEntry{abs, string(name), string(value), len(name) + len(value) + 32})
	}
	if diff := cmp.Diff(entries, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s: table (-want +got):\n%s", where, diff)
	}
	if s, _ := d.TableSize(); s != size {
		t.Errorf("%s: table size %d, want %d", where, s, size)
	}
}

// TestRFC9204Examples drives a decoder through Appendix B as the RFC does,
// with the encoder stream whole, byte by byte and in uneven pieces, and
// checks the decoder-stream bytes, the table after each step and the fields.
func TestRFC9204Examples(t *testing.T) {
	examples := loadRFC(t)
	splits := map[string]func([]byte) [][]byte{
		"whole":  func(b []byte) [][]byte { return [][]byte{b} },
		"bytes":  func(b []byte) [][]byte { return chunks(b, 1) },
		"threes": func(b []byte) [][]byte { return chunks(b, 3) },
	}
	for name, split := range splits {
		t.Run(name, func(t *testing.T) { runRFC(t, examples, split, nil) })
	}
}

func chunks(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

// runRFC runs the examples with d (Reset for a fresh context), or with a
// new decoder when d is nil.
func runRFC(t *testing.T, examples []rfcExample, split func([]byte) [][]byte, d *Decoder) {
	for i := range examples {
		ex := &examples[i]
		if ex.FreshContext || d == nil {
			cfg := DecoderConfig{
				MaxTableCapacity:  ex.Settings.MaxTableCapacity,
				MaxBlockedStreams: ex.Settings.MaxBlockedStreams,
			}
			if d == nil {
				d = newDecoder(cfg)
			} else {
				d.Init(cfg)
			}
		}
		want := map[uint64][]codectest.Field{}
		for _, st := range ex.Steps {
			if st.kind() == "section" {
				want[st.streamID(t)] = st.want()
			}
		}
		steps, moved := ordered(ex)
		var decoderStream []byte
		for j := range steps {
			st := &steps[j]
			where := ex.ID + " step " + string(st.Stream)
			switch st.kind() {
			case "encoder":
				for _, piece := range split(unhex(t, st.Hex)) {
					if err := d.ReadEncoderStream(piece); err != nil {
						t.Fatalf("%s: %v", where, err)
					}
				}
				for {
					id, ok := d.NextUnblocked()
					if !ok {
						break
					}
					var s codectest.Recorder
					if _, err := d.DecodeUnblocked(id, &s); err != nil {
						t.Fatalf("%s: stream %d: %v", where, id, err)
					}
					if diff := cmp.Diff(want[id], s.Fields); diff != "" {
						t.Errorf("%s: unblocked stream %d (-want +got):\n%s", where, id, diff)
					}
				}
			case "decoder":
				for _, in := range st.Instructions {
					if in.Op == "stream_cancellation" {
						if err := d.CancelStream(in.StreamID); err != nil {
							t.Fatalf("%s: %v", where, err)
						}
					}
				}
				got := d.AppendDecoderStream(nil)
				if hex.EncodeToString(got) != st.Hex {
					t.Errorf("%s: decoder stream %x, want %s", where, got, st.Hex)
				}
				decoderStream = append(decoderStream, got...)
			default:
				id := st.streamID(t)
				section := unhex(t, st.Hex)
				ric, base, _, err := d.prefix(section)
				if err != nil || ric != st.RequiredInsertCount || base != st.Base {
					t.Errorf("%s: prefix: RIC %d Base %d (%v), want %d %d", where, ric, base, err, st.RequiredInsertCount, st.Base)
				}
				var s codectest.Recorder
				blocked, err := d.DecodeSection(id, section, &s)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if blocked != moved[j] {
					t.Fatalf("%s: blocked %v, want %v", where, blocked, moved[j])
				}
				if !blocked {
					if diff := cmp.Diff(want[id], s.Fields); diff != "" {
						t.Errorf("%s: fields (-want +got):\n%s", where, diff)
					}
				}
			}
			if !moved[j] {
				checkTable(t, where, d, st.TableAfter.Entries, st.TableAfter.Size)
				if d.InsertCount() != st.TableAfter.InsertCount {
					t.Errorf("%s: insert count %d, want %d", where, d.InsertCount(), st.TableAfter.InsertCount)
				}
			}
		}
		if hex.EncodeToString(decoderStream) != ex.DecoderStreamHex {
			t.Errorf("%s: decoder stream %x, want %s", ex.ID, decoderStream, ex.DecoderStreamHex)
		}
		checkTable(t, ex.ID+" end", d, ex.TableAfter, ex.TableSizeAfter)
		if size, c := d.TableSize(); c != ex.TableCapacityAfter || size != ex.TableSizeAfter {
			t.Errorf("%s: size %d capacity %d, want %d %d", ex.ID, size, c, ex.TableSizeAfter, ex.TableCapacityAfter)
		}
		if d.InsertCount() != ex.InsertCountAfter {
			t.Errorf("%s: insert count %d, want %d", ex.ID, d.InsertCount(), ex.InsertCountAfter)
		}
		if d.BlockedStreams() != 0 {
			t.Errorf("%s: %d blocked streams left", ex.ID, d.BlockedStreams())
		}
	}
	// The RFC shows no decoder instruction after B.4's Duplicate and B.5's
	// insert; the encoder last learned of 3 inserts (B.3), so the next
	// flush reports the other 2 in one Insert Count Increment.
	if got := d.AppendDecoderStream(nil); !bytes.Equal(got, []byte{0x02}) {
		t.Errorf("final decoder stream %x, want 02", got)
	}
	if got := d.AppendDecoderStream(nil); len(got) != 0 {
		t.Errorf("second flush %x, want nothing", got)
	}
}

// TestQIFSExamplesFile decodes qifs' binary encoding of Appendix B
// (encoded/qpack-05/examples/examples.out.220.100.1: the sections on streams
// 4, 8 and 12, the encoder-stream bytes between them).
func TestQIFSExamplesFile(t *testing.T) {
	dir := corpustest.Dir(t, "qifs")
	b, err := os.ReadFile(filepath.Join(dir, "qifs", "encoded", "qpack-05", "examples", "examples.out.220.100.1"))
	if err != nil {
		t.Fatal(err)
	}
	examples := loadRFC(t)
	var want [][]codectest.Field
	for i := range examples {
		for _, st := range examples[i].Steps {
			if st.kind() == "section" {
				want = append(want, st.want())
			}
		}
	}
	got, _, err := decodeQIFS(b, DecoderConfig{MaxTableCapacity: 220, MaxBlockedStreams: 100})
	if err != nil {
		t.Fatal(err)
	}
	var gotFields [][]codectest.Field
	for _, id := range []uint64{4, 8, 12} {
		gotFields = append(gotFields, got[id])
	}
	if diff := cmp.Diff(want, gotFields); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
