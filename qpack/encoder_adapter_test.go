package qpack

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hqpack/hqpack/fastpath"
	quicqpack "github.com/quic-go/qpack"
)

// TestXEncoderMatchesQuicGo encodes random sections with XEncoder and with
// quic-go/qpack's Encoder: ours decodes, with quic-go's decoder and with
// ours, to the fields written, and is never longer unless a field is sent
// never-indexed.
func TestXEncoderMatchesQuicGo(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var ours, theirs bytes.Buffer
	xe := NewEncoder(&ours)
	qe := quicqpack.NewEncoder(&theirs)
	var dec Decoder
	for range 300 {
		ours.Reset()
		theirs.Reset()
		fields := etRandomSection(r)
		var want []etGot
		for _, f := range fields {
			if f.Raw {
				f.Name, f.Value = "content-length", itoa(f.CL)
			}
			if err := xe.WriteField(HeaderField{f.Name, f.Value}); err != nil {
				t.Fatal(err)
			}
			if err := qe.WriteField(quicqpack.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
				t.Fatal(err)
			}
			want = append(want, etGot{Name: f.Name, Value: f.Value})
		}
		xe.Close()
		qe.Close()
		never := false
		for _, g := range etExpect(fields, IndexDefault) {
			never = never || g.Never
		}
		if ours.Len() > theirs.Len() && !never {
			// (A never-indexed field can cost a byte more than an indexed one.)
			t.Errorf("%d bytes, quic-go/qpack %d", ours.Len(), theirs.Len())
		}
		if len(fields) == 0 {
			continue // neither writes a prefix without a field
		}
		if diff := cmp.Diff(want, etQuicGoDecode(t, ours.Bytes())); diff != "" {
			t.Fatalf("quic-go/qpack decodes (-want +got):\n%s", diff)
		}
		var s etSink
		if _, err := dec.DecodeSection(0, ours.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		for i := range s.got {
			s.got[i].Never = false
		}
		if diff := cmp.Diff(want, s.got); diff != "" {
			t.Fatalf("our decoder (-want +got):\n%s", diff)
		}
	}
}

// TestEncoderStaticOnlyDecodesWithQuicGo: at table capacity 0, whatever
// the peer allows, every section decodes with quic-go/qpack.
func TestEncoderStaticOnlyDecodesWithQuicGo(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, h := range []fastpath.HuffmanPolicy{fastpath.HuffmanAuto, fastpath.HuffmanAlways, fastpath.HuffmanNever} {
		e := etEncoder(EncoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 100, Huffman: h})
		for i := range 300 {
			fields := etRandomSection(r)
			sec := e.AppendSection(uint64(4*i), nil, newEtFields(fields))
			if diff := cmp.Diff(etWantRaw(fields), etQuicGoDecode(t, sec)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		}
		if e.EncoderStreamLen() != 0 || e.InsertCount() != 0 {
			t.Fatalf("capacity 0 wrote %d encoder-stream bytes", e.EncoderStreamLen())
		}
	}
}
