package conformance

import (
	"encoding/hex"
	"fmt"
	"github.com/hqpack/hqpack/internal/qinstr"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/qpack"
)

// RunRFCExamples checks the examples of RFC 7541 Appendix C and RFC 9204
// Appendix B in both directions, byte for byte. Decoding: every header
// block, field section and encoder-stream step gives the example's fields,
// dynamic table and decoder-stream bytes. Encoding: our HPACK encoder, with
// the index-everything policy and the example's Huffman choice, writes the
// example's bytes; for QPACK, whose examples show choices no one policy
// makes (a speculative insert, a Duplicate), the instruction writers write
// each instruction and field line the example names.
func RunRFCExamples(ex *RFCExamples) *Suite {
	s := newSuite("rfc-examples", "RFC 7541 Appendix C and RFC 9204 Appendix B, decoded and encoded byte for byte", "example x direction")
	var dec hpack.Decoder
	var enc *hpack.Encoder
	for _, e := range ex.HPACK {
		if e.FreshContext || enc == nil {
			size := sizeConfig(e.Settings.HeaderTableSize)
			dec.Init(hpack.DecoderConfig{MaxTableSize: size, InitialTableSize: size})
			c := hpack.Config{TableLimit: size, InitialTableSize: size, Indexing: fastpath.IndexAll, Huffman: fastpath.HuffmanNever}
			if e.Huffman {
				c.Huffman = fastpath.HuffmanAlways
			}
			enc = new(hpack.Encoder)
			enc.Init(c)
		}
		s.count(e.ID+" decode", safe(func() error { return rfcHPACKDecode(s, &dec, &e) }))
		s.count(e.ID+" encode", safe(func() error { return rfcHPACKEncode(s, enc, &e) }))
	}
	var qdec qpack.Decoder
	for i := range ex.QPACK {
		e := &ex.QPACK[i]
		if e.FreshContext || i == 0 {
			qdec.Init(qpack.DecoderConfig{MaxTableCapacity: e.Settings.MaxTableCapacity, MaxBlockedStreams: e.Settings.MaxBlockedStreams})
		}
		s.count(e.ID+" decode", safe(func() error { return rfcQPACKDecode(s, &qdec, e) }))
		s.count(e.ID+" encode", safe(func() error { return rfcQPACKEncode(s, e) }))
	}
	return s
}

func rfcHPACKDecode(s *Suite, dec *hpack.Decoder, e *HPACKExample) error {
	wire, err := hex.DecodeString(e.WireHex)
	if err != nil {
		return fmt.Errorf("wire_hex: %w", err)
	}
	s.add(1, int64(len(wire)))
	var sink fastpath.SinkList
	if err := dec.Decode(wire, &sink); err != nil {
		return err
	}
	var got []RFCField
	for i := range sink.Len() {
		name, value, f := sink.At(i)
		got = append(got, RFCField{string(name), string(value), f&fastpath.NeverIndex != 0})
	}
	if err := compareFields(got, e.Headers); err != nil {
		return err
	}
	entries := make([]RFCEntry, dec.TableLen())
	for i := range entries {
		name, value, _ := dec.TableEntry(i)
		entries[i] = RFCEntry{Index: 62 + i, Name: string(name), Value: string(value), Size: len(name) + len(value) + 32}
	}
	size, _ := dec.TableSize()
	return compareTable("dynamic table", entries, e.TableAfter, size, e.TableSizeAfter, false)
}

func rfcHPACKEncode(s *Suite, enc *hpack.Encoder, e *HPACKExample) error {
	if len(e.Representations) != len(e.Headers) {
		return fmt.Errorf("%d representations for %d headers", len(e.Representations), len(e.Headers))
	}
	var fields fastpath.FieldList
	for i, h := range e.Headers {
		var f fastpath.Flags
		switch {
		case h.NeverIndex:
			f = fastpath.NeverIndex
		case e.Representations[i].Kind == "literal_without_indexing":
			f = fastpath.NoIndex
		}
		fields.Add(h.Name, h.Value, f)
	}
	got := enc.AppendSection(nil, &fields)
	s.add(1, int64(len(got)))
	if err := compareHex(got, e.WireHex); err != nil {
		return err
	}
	entries := make([]RFCEntry, enc.TableLen())
	for i := range entries {
		name, value, _ := enc.TableEntry(i)
		entries[i] = RFCEntry{Index: 62 + i, Name: string(name), Value: string(value), Size: len(name) + len(value) + 32}
	}
	size, _ := enc.TableSize()
	return compareTable("dynamic table", entries, e.TableAfter, size, e.TableSizeAfter, false)
}

// rfcQPACKDecode drives dec through an example's steps. B.4's decoder
// cancels stream 8 before the Duplicate reaches it (otherwise it would
// acknowledge the section instead of cancelling it), so a cancelled
// stream's section and the cancellation come first, the section blocked;
// the table the RFC prints after those steps belongs to their RFC place and
// is not checked there.
func rfcQPACKDecode(s *Suite, dec *qpack.Decoder, e *QPACKExample) error {
	want := map[uint64][]RFCField{}
	cancelled := map[uint64]bool{}
	for _, st := range e.Steps {
		if st.Stream.Kind == "section" {
			want[st.Stream.ID] = st.Headers
		}
		for _, in := range st.Instructions {
			if in.Op == "stream_cancellation" {
				cancelled[in.StreamID] = true
			}
		}
	}
	var first, rest []QPACKStep
	for _, st := range e.Steps {
		isCancel := false
		for _, in := range st.Instructions {
			isCancel = isCancel || in.Op == "stream_cancellation"
		}
		if isCancel || (st.Stream.Kind == "section" && cancelled[st.Stream.ID]) {
			first = append(first, st)
		} else {
			rest = append(rest, st)
		}
	}
	var decoderStream []byte
	for j, st := range append(first, rest...) {
		moved := j < len(first)
		where := st.Stream.String()
		b, err := hex.DecodeString(st.Hex)
		if err != nil {
			return atf(where, "hex: %v", err)
		}
		switch st.Stream.Kind {
		case "encoder":
			s.add(0, int64(len(b)))
			if err := dec.ReadEncoderStream(b); err != nil {
				return at(where, err)
			}
			for {
				id, ok := dec.NextUnblocked()
				if !ok {
					break
				}
				got, err := qpackFields(func(sink fastpath.Sink) (bool, error) { return dec.DecodeUnblocked(id, sink) })
				if err != nil {
					return at(fmt.Sprintf("stream %d (unblocked)", id), err)
				}
				if err := compareFields(got, want[id]); err != nil {
					return at(fmt.Sprintf("stream %d (unblocked)", id), err)
				}
			}
		case "decoder":
			for _, in := range st.Instructions {
				if in.Op == "stream_cancellation" {
					if err := dec.CancelStream(in.StreamID); err != nil {
						return at(where, err)
					}
				}
			}
			got := dec.AppendDecoderStream(nil)
			decoderStream = append(decoderStream, got...)
			if err := compareHex(got, st.Hex); err != nil {
				return at(where, err)
			}
		default:
			s.add(1, int64(len(b)))
			blocked := false
			got, err := qpackFields(func(sink fastpath.Sink) (bool, error) {
				var err error
				blocked, err = dec.DecodeSection(st.Stream.ID, b, sink)
				return blocked, err
			})
			if err != nil {
				return at(where, err)
			}
			if blocked != moved {
				return atf(where, "blocked %v, want %v", blocked, moved)
			}
			if !blocked {
				if err := compareFields(got, st.Headers); err != nil {
					return at(where, err)
				}
			}
		}
		if !moved {
			if err := qpackTable(dec, st.TableAfter.Entries, st.TableAfter.Size); err != nil {
				return at("after "+where, err)
			}
			if n := dec.InsertCount(); n != st.TableAfter.InsertCount {
				return atf("after "+where, "insert count %d, want %d", n, st.TableAfter.InsertCount)
			}
		}
	}
	if err := compareHex(decoderStream, e.DecoderStreamHex); err != nil {
		return at("decoder stream", err)
	}
	if err := qpackTable(dec, e.TableAfter, e.TableSizeAfter); err != nil {
		return at("end", err)
	}
	if _, c := dec.TableSize(); c != e.TableCapacityAfter {
		return atf("end", "capacity %d, want %d", c, e.TableCapacityAfter)
	}
	if n := dec.InsertCount(); n != e.InsertCountAfter {
		return atf("end", "insert count %d, want %d", n, e.InsertCountAfter)
	}
	if n := dec.BlockedStreams(); n != 0 {
		return atf("end", "%d sections still blocked", n)
	}
	return nil
}

// qpackFields runs a decoding call with a fresh sink and returns the
// fields it got.
func qpackFields(decode func(fastpath.Sink) (bool, error)) ([]RFCField, error) {
	var sink fastpath.SinkList
	blocked, err := decode(&sink)
	if err != nil || blocked {
		return nil, err
	}
	out := make([]RFCField, sink.Len())
	for i := range out {
		name, value, f := sink.At(i)
		out[i] = RFCField{string(name), string(value), f&fastpath.NeverIndex != 0}
	}
	return out, nil
}

// qpackTable compares a decoder's live dynamic table with want (oldest
// first).
func qpackTable(dec *qpack.Decoder, want []RFCEntry, wantSize int) error {
	var got []RFCEntry
	for abs := range dec.InsertCount() {
		if name, value, ok := dec.TableEntry(abs); ok {
			got = append(got, RFCEntry{AbsoluteIndex: abs, Name: string(name), Value: string(value), Size: len(name) + len(value) + 32})
		}
	}
	size, _ := dec.TableSize()
	return compareTable("dynamic table", got, want, size, wantSize, true)
}

func rfcQPACKEncode(s *Suite, e *QPACKExample) error {
	h := fastpath.HuffmanNever // Appendix B codes no string with Huffman
	maxEntries := e.Settings.MaxTableCapacity / 32
	var encoderStream []byte
	for _, st := range e.Steps {
		where := st.Stream.String()
		var got []byte
		switch st.Stream.Kind {
		case "decoder":
			continue // the decoder's output: checked by the decode direction
		case "encoder":
			for _, in := range st.Instructions {
				switch in.Op {
				case "set_dynamic_table_capacity":
					got = qinstr.AppendSetCapacity(got, in.Capacity)
				case "insert_with_name_reference":
					idx := in.RelativeIndex
					if in.Static {
						idx = in.NameIndex
					}
					got = qinstr.AppendInsertWithNameRef(got, in.Static, idx, in.Value, h)
				case "insert_with_literal_name":
					got = qinstr.AppendInsertWithLiteralName(got, in.Name, in.Value, h)
				case "duplicate":
					got = qinstr.AppendDuplicate(got, in.RelativeIndex)
				default:
					return atf(where, "unknown instruction %q", in.Op)
				}
			}
			encoderStream = append(encoderStream, got...)
			s.add(0, int64(len(got)))
		default:
			if len(st.Representations) != len(st.Headers) {
				return atf(where, "%d representations for %d headers", len(st.Representations), len(st.Headers))
			}
			got = qinstr.AppendSectionPrefix(nil, st.RequiredInsertCount, st.Base, maxEntries)
			for j, r := range st.Representations {
				value := st.Headers[j].Value
				switch r.Kind {
				case "indexed":
					idx := r.RelativeIndex
					if r.Static {
						idx = r.Index
					}
					got = qinstr.AppendIndexed(got, r.Static, idx)
				case "indexed_post_base":
					got = qinstr.AppendIndexedPostBase(got, r.PostBaseIndex)
				case "literal_with_name_reference":
					idx := r.RelativeIndex
					if r.Static {
						idx = r.NameIndex
					}
					got = qinstr.AppendLiteralNameRef(got, r.Static, idx, value, r.NeverIndex, h)
				case "literal_with_post_base_name_reference":
					got = qinstr.AppendLiteralPostBaseNameRef(got, r.PostBaseIndex, value, r.NeverIndex, h)
				case "literal_with_literal_name":
					got = qinstr.AppendLiteralName(got, st.Headers[j].Name, value, r.NeverIndex, h)
				default:
					return atf(where, "unknown representation %q", r.Kind)
				}
			}
			s.add(1, int64(len(got)))
		}
		if err := compareHex(got, st.Hex); err != nil {
			return at(where, err)
		}
	}
	return at("encoder stream", compareHex(encoderStream, e.EncoderStreamHex))
}

// compareHex compares bytes with the hex string they must equal and
// describes the first difference.
func compareHex(got []byte, wantHex string) error {
	want, err := hex.DecodeString(wantHex)
	if err != nil {
		return fmt.Errorf("expected bytes are not hex: %w", err)
	}
	return compareBytes(got, want)
}

// compareBytes describes the first difference between got and want.
func compareBytes(got, want []byte) error {
	n := min(len(got), len(want))
	for i := range n {
		if got[i] != want[i] {
			return fmt.Errorf("byte %d: got %02x, want %02x (got %s, want %s)", i, got[i], want[i], excerpt(got, i), excerpt(want, i))
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("got %d bytes, want %d (got %s, want %s)", len(got), len(want), excerpt(got, n), excerpt(want, n))
	}
	return nil
}

// excerpt shows up to 8 bytes of b around offset i, in hex.
func excerpt(b []byte, i int) string {
	lo := max(0, i-4)
	hi := min(len(b), i+4)
	s := hex.EncodeToString(b[lo:hi])
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(b) {
		s += "…"
	}
	if s == "" {
		s = "nothing"
	}
	return s
}

// compareFields describes the first difference between two field lists,
// never-indexed bits included.
func compareFields(got, want []RFCField) error {
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			return fmt.Errorf("field %d: got %s, want %s", i, fieldString(got[i]), fieldString(want[i]))
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("got %d fields, want %d", len(got), len(want))
	}
	return nil
}

func fieldString(f RFCField) string {
	s := fmt.Sprintf("%q: %q", f.Name, f.Value)
	if f.NeverIndex {
		s += " (never indexed)"
	}
	return s
}

// compareTable compares dynamic table entries and sizes: by HPACK index,
// or by QPACK absolute index when absolute is set.
func compareTable(what string, got, want []RFCEntry, size, wantSize int, absolute bool) error {
	for i := 0; i < len(got) && i < len(want); i++ {
		g, w := got[i], want[i]
		if absolute {
			g.Index, w.Index = 0, 0
		} else {
			g.AbsoluteIndex, w.AbsoluteIndex = 0, 0
		}
		if g != w {
			return fmt.Errorf("%s entry %d: got %+v, want %+v", what, i, g, w)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%s: %d entries, want %d", what, len(got), len(want))
	}
	if size != wantSize {
		return fmt.Errorf("%s size %d, want %d", what, size, wantSize)
	}
	return nil
}
