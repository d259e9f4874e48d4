package hpack

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

// TestEncoderRoundTrip encodes random sections, under every setting and
// with the peer's table size changing between sections, framed into random
// buffer sizes, and decodes them with x/net's decoder and with ours.
func TestEncoderRoundTrip(t *testing.T) {
	properties := gopter.NewProperties(propParams(1000))
	properties.Property("x/net and our decoder decode what we encode", prop.ForAll(
		func(s scenario, bufSize int) string { return roundTrip(t, s, bufSize) },
		gopter.Gen(genScenario),
		gopter.Gen(func(p *gopter.GenParameters) *gopter.GenResult {
			return gopter.NewGenResult(1+p.Rng.Intn(200), gopter.NoShrinker)
		}),
	))
	properties.TestingRun(t)
}

func roundTrip(t *testing.T, s scenario, bufSize int) string {
	e := newEncoder(s.Config)
	plain := newEncoder(s.Config) // AppendSection: the same bytes as the pieces
	limit, initial := s.Config.sizes()
	peer := uint32(initial)   // the decoder's setting
	decMax := uint32(initial) // the decoder's table size
	dec := xhpack.NewDecoder(peer, nil)
	ours := ourDecoder(initial)
	for i, fs := range s.Sections {
		lowered := false
		for _, v := range s.Peer[i] {
			e.SetMaxTableSize(v)
			plain.SetMaxTableSize(v)
			ours.SetMaxTableSize(v)
			lowered = lowered || v < peer
			peer = v
		}
		l := fastList(fs)
		block, res := framed(t, e, l, bufSize)
		if res != fastpath.Done {
			return fmt.Sprintf("section %d: %v", i, res)
		}
		if p := plain.AppendSection(nil, fastList(fs)); !bytes.Equal(p, block) {
			return fmt.Sprintf("section %d: in pieces\n% x\nappended\n% x", i, block, p)
		}
		// Size updates: only at the start, within the peer's setting and
		// our limit, and present when the peer lowered its setting below
		// the size the decoder had.
		updates := leadingUpdates(block)
		for _, v := range updates {
			if v > uint64(min(peer, uint32(limit))) {
				return fmt.Sprintf("section %d: size update %d over min(peer %d, limit %d)", i, v, peer, limit)
			}
			decMax = uint32(v)
		}
		if lowered && peer < decMax && len(updates) == 0 {
			return fmt.Sprintf("section %d: no size update after the peer lowered to %d", i, peer)
		}
		got, err := xdecode(dec, block, peer)
		if err != nil {
			return fmt.Sprintf("section %d: x/net: %v\n% x", i, err, block)
		}
		var want []xhpack.HeaderField
		for _, f := range fs {
			want = append(want, expectField(s.Config.Indexing, f))
		}
		if len(want) == 0 {
			want = nil
		}
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("section %d (-want +got):\n%s", i, cmp.Diff(want, got))
		}
		got, err = ourDecode(ours, block)
		if err != nil {
			return fmt.Sprintf("section %d: our decoder: %v\n% x", i, err, block)
		}
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("section %d, our decoder (-want +got):\n%s", i, cmp.Diff(want, got))
		}
		if size, _ := e.TableSize(); size > int(decMax) {
			return fmt.Sprintf("section %d: table size %d over %d", i, size, decMax)
		}
	}
	return ""
}

// leadingUpdates returns the Dynamic Table Size Updates a block starts with.
func leadingUpdates(block []byte) []uint64 {
	var out []uint64
	for len(block) > 0 && block[0]&0xe0 == 0x20 {
		v, n, err := wire.ReadInt(block, 5)
		if err != nil {
			return out
		}
		out, block = append(out, v), block[n:]
	}
	return out
}

// expectField is what a decoder must report for f: the name lowercased, the
// value (decimal for a raw Content-Length), sensitive when flagged or, under
// the default policy, for authorization and short cookies.
func expectField(x fastpath.Indexing, f tfield) xhpack.HeaderField {
	if f.Raw >= 0 {
		return xhpack.HeaderField{Name: "content-length", Value: fmt.Sprint(f.Raw)}
	}
	name := asciiLower(f.Name)
	sensitive := f.Flags&fastpath.NeverIndex != 0
	if x == fastpath.IndexDefault && f.Flags&(fastpath.NoIndex|fastpath.Index) == 0 {
		sensitive = sensitive || name == "authorization" || name == "cookie" && len(f.Value) < 20
	}
	return xhpack.HeaderField{Name: name, Value: f.Value, Sensitive: sensitive}
}
