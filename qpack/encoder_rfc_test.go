package qpack

import (
	"encoding/hex"
	"encoding/json"
	"github.com/hqpack/hqpack/internal/qinstr"
	"os"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// etRFC is the part of testdata/rfc9204.json the encoder tests use.
type etRFC struct {
	Examples []struct {
		ID       string `json:"id"`
		Settings struct {
			MaxTableCapacity uint64 `json:"max_table_capacity"`
		} `json:"settings"`
		Steps []struct {
			Stream       any    `json:"stream"` // "encoder", "decoder" or a stream ID
			Hex          string `json:"hex"`
			RIC          uint64 `json:"required_insert_count"`
			Base         uint64 `json:"base"`
			Instructions []struct {
				Op       string `json:"op"`
				Static   bool   `json:"static"`
				NameIdx  uint64 `json:"name_index"`
				RelIdx   uint64 `json:"relative_index"`
				Name     string `json:"name"`
				Value    string `json:"value"`
				Capacity uint64 `json:"capacity"`
			} `json:"instructions"`
			Headers []struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			} `json:"headers"`
			Representations []struct {
				Kind    string `json:"kind"`
				Static  bool   `json:"static"`
				Index   uint64 `json:"index"`
				NameIdx uint64 `json:"name_index"`
				RelIdx  uint64 `json:"relative_index"`
				PostIdx uint64 `json:"post_base_index"`
				Never   bool   `json:"never_index"`
			} `json:"representations"`
		} `json:"steps"`
	} `json:"examples"`
}

// TestEncoderRFC9204Examples drives the instruction writers as RFC 9204
// Appendix B does and checks every encoder-stream instruction and field
// section byte for byte.
func TestEncoderRFC9204Examples(t *testing.T) {
	b, err := os.ReadFile("testdata/rfc9204.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc etRFC
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Examples) != 5 {
		t.Fatalf("%d examples, want B.1 to B.5", len(doc.Examples))
	}
	const h = fastpath.HuffmanNever // the examples use no Huffman coding
	checked := 0
	for _, ex := range doc.Examples {
		maxEntries := ex.Settings.MaxTableCapacity / 32
		for i, st := range ex.Steps {
			var got []byte
			switch st.Stream {
			case "decoder":
				continue // the decoder's output: see TestEncoderReadsRFC9204DecoderStream
			case "encoder":
				for _, in := range st.Instructions {
					switch in.Op {
					case "set_dynamic_table_capacity":
						got = qinstr.AppendSetCapacity(got, in.Capacity)
					case "insert_with_name_reference":
						idx := in.RelIdx
						if in.Static {
							idx = in.NameIdx
						}
						got = qinstr.AppendInsertWithNameRef(got, in.Static, idx, in.Value, h)
					case "insert_with_literal_name":
						got = qinstr.AppendInsertWithLiteralName(got, in.Name, in.Value, h)
					case "duplicate":
						got = qinstr.AppendDuplicate(got, in.RelIdx)
					default:
						t.Fatalf("%s step %d: unknown op %q", ex.ID, i, in.Op)
					}
				}
			default:
				got = qinstr.AppendSectionPrefix(nil, st.RIC, st.Base, maxEntries)
				if len(st.Representations) != len(st.Headers) {
					t.Fatalf("%s step %d: %d representations for %d headers", ex.ID, i, len(st.Representations), len(st.Headers))
				}
				for j, r := range st.Representations {
					value := st.Headers[j].Value
					switch r.Kind {
					case "indexed":
						idx := r.RelIdx
						if r.Static {
							idx = r.Index
						}
						got = qinstr.AppendIndexed(got, r.Static, idx)
					case "indexed_post_base":
						got = qinstr.AppendIndexedPostBase(got, r.PostIdx)
					case "literal_with_name_reference":
						got = qinstr.AppendLiteralNameRef(got, r.Static, r.NameIdx, value, r.Never, h)
					default:
						t.Fatalf("%s step %d: unknown representation %q", ex.ID, i, r.Kind)
					}
				}
			}
			if want := st.Hex; hex.EncodeToString(got) != want {
				t.Errorf("%s step %d (%v): got %x, want %s", ex.ID, i, st.Stream, got, want)
			}
			checked++
		}
	}
	if checked < 7 {
		t.Fatalf("checked %d steps, want every encoder step", checked)
	}
}

// TestEncoderLiteralForms checks the forms Appendix B does not use against
// bytes worked out from RFC 9204 §4.5.5 and §4.5.6.
func TestEncoderLiteralForms(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"post-base name ref", qinstr.AppendLiteralPostBaseNameRef(nil, 2, "ab", false, fastpath.HuffmanNever), "02026162"},
		{"post-base name ref, N", qinstr.AppendLiteralPostBaseNameRef(nil, 7, "", true, fastpath.HuffmanNever), "0f0000"},
		{"literal name", qinstr.AppendLiteralName(nil, "ab", "c", false, fastpath.HuffmanNever), "2261620163"},
		{"literal name, N", qinstr.AppendLiteralName(nil, "ab", "c", true, fastpath.HuffmanNever), "3261620163"},
		{"literal name, long", qinstr.AppendLiteralName(nil, "abcdefg", "", false, fastpath.HuffmanNever), "2700" + hex.EncodeToString([]byte("abcdefg")) + "00"},
		{"literal name, Huffman", qinstr.AppendLiteralName(nil, "custom-key", "", false, fastpath.HuffmanAlways), "2f0125a849e95ba97d7f80"},
		{"name ref, dynamic, N", qinstr.AppendLiteralNameRef(nil, false, 3, "x", true, fastpath.HuffmanNever), "630178"},
		{"indexed static 98", qinstr.AppendIndexed(nil, true, 98), "ff23"},
		{"prefix, negative Base", qinstr.AppendSectionPrefix(nil, 5, 2, 6), "0682"},
		{"prefix, RIC wraps", qinstr.AppendSectionPrefix(nil, 13, 13, 6), "0200"},
	}
	for _, tt := range tests {
		if got := hex.EncodeToString(tt.got); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}
