package conformance

import (
	"fmt"
	"slices"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/qpack"
)

// StreamError names the stream of a QIFS exchange that failed.
type StreamError struct {
	Stream uint64
	Err    error
}

func (e *StreamError) Error() string { return fmt.Sprintf("stream %d: %v", e.Stream, e.Err) }

// Unwrap returns the cause.
func (e *StreamError) Unwrap() error { return e.Err }

// EncodeQIF encodes field list n on stream n (1-based) with one encoder
// made from cfg, and returns the QIFS records: before each section, the
// encoder-stream bytes it depends on (stream 0).
func EncodeQIF(lists []Headers, cfg qpack.EncoderConfig) []byte {
	var out []byte
	for _, r := range encodeRecords(lists, cfg, false) {
		out = AppendRecord(out, r.Stream, r.Data)
	}
	return out
}

// encodeRecords encodes list n on stream n with one encoder, each section
// preceded by a stream-0 record with the encoder-stream bytes it needs.
// With raw, a content-length of digits goes through the encoder's raw
// Content-Length fast path instead of as a string.
func encodeRecords(lists []Headers, cfg qpack.EncoderConfig, raw bool) []Record {
	var enc qpack.Encoder
	enc.Init(cfg)
	var fields fastpath.FieldList
	var recs []Record
	for i, l := range lists {
		fillFields(&fields, l, raw)
		id := uint64(i + 1)
		section := enc.AppendSection(id, nil, &fields)
		if stream := enc.AppendEncoderStream(nil); len(stream) > 0 {
			recs = append(recs, Record{0, stream})
		}
		recs = append(recs, Record{id, section})
	}
	return recs
}

// fillFields sets fields to the list h. With raw, a content-length whose
// value is a decimal number (no sign, no leading zero) is added raw.
func fillFields(fields *fastpath.FieldList, h Headers, raw bool) {
	fields.Reset()
	for _, f := range h {
		if n, ok := RawContentLength(f); raw && ok {
			fields.AddContentLength(n)
			continue
		}
		fields.Add(f.Name, f.Value, 0)
	}
}

// RawContentLength returns the number of a content-length field whose value
// is a plain decimal (digits only, no leading zero, at most 18 of them), as a
// server that holds the length as an integer would have written it; ok is
// false for any other field or value.
func RawContentLength(f Header) (int64, bool) {
	if f.Name != "content-length" || f.Value == "" || len(f.Value) > 18 || (f.Value[0] == '0' && len(f.Value) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range []byte(f.Value) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// DecodeQIFS decodes the records of a QIFS encoded file with one decoder
// made from cfg: encoder-stream records in order, sections held while they
// are blocked. It returns the field lists in stream order. A section still
// blocked at the end of the input is an error.
func DecodeQIFS(recs []Record, cfg qpack.DecoderConfig) ([]Headers, error) {
	got, err := decodeRecords(recs, cfg)
	if err != nil {
		return nil, err
	}
	streams := make([]uint64, 0, len(got))
	for s := range got {
		streams = append(streams, s)
	}
	slices.Sort(streams)
	lists := make([]Headers, len(streams))
	for i, s := range streams {
		lists[i] = got[s]
	}
	return lists, nil
}

// decodeRecords decodes QIFS records in order with one decoder and returns
// the fields of each stream's section.
func decodeRecords(recs []Record, cfg qpack.DecoderConfig) (map[uint64]Headers, error) {
	var dec qpack.Decoder
	dec.Init(cfg)
	got := map[uint64]Headers{}
	held := map[uint64]bool{}
	for _, r := range recs {
		if r.Stream != 0 {
			if _, dup := got[r.Stream]; dup || held[r.Stream] {
				return nil, &StreamError{r.Stream, fmt.Errorf("a second section on the stream")}
			}
			h, blocked, err := decodeSection(&dec, r.Stream, r.Data)
			if err != nil {
				return nil, &StreamError{r.Stream, err}
			}
			if blocked {
				held[r.Stream] = true
			} else {
				got[r.Stream] = h
			}
			continue
		}
		if err := dec.ReadEncoderStream(r.Data); err != nil {
			return nil, &StreamError{0, err}
		}
		if err := drainUnblocked(&dec, got); err != nil {
			return nil, err
		}
		for id := range held {
			if _, ok := got[id]; ok {
				delete(held, id)
			}
		}
	}
	if len(held) > 0 || dec.BlockedStreams() > 0 {
		ids := make([]uint64, 0, len(held))
		for id := range held {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return nil, fmt.Errorf("sections of streams %v still blocked at the end of the input", ids)
	}
	return got, nil
}

// decodeSection decodes one section into a fresh list.
func decodeSection(dec *qpack.Decoder, stream uint64, section []byte) (Headers, bool, error) {
	var sink fastpath.SinkList
	blocked, err := dec.DecodeSection(stream, section, &sink)
	if err != nil || blocked {
		return nil, blocked, err
	}
	return sinkHeaders(&sink), false, nil
}

// drainUnblocked decodes every section that the last encoder-stream bytes
// unblocked.
func drainUnblocked(dec *qpack.Decoder, got map[uint64]Headers) error {
	for {
		id, ok := dec.NextUnblocked()
		if !ok {
			return nil
		}
		var sink fastpath.SinkList
		blocked, err := dec.DecodeUnblocked(id, &sink)
		if err == nil && blocked {
			err = fmt.Errorf("named as unblocked, but still blocked")
		}
		if err != nil {
			return &StreamError{id, err}
		}
		got[id] = sinkHeaders(&sink)
	}
}
