package conformance

import (
	"errors"
	"fmt"
	"io"

	quicqpack "github.com/quic-go/qpack"
	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/internal/wire"
)

// xnetDecodeBlocks decodes a story's header blocks with
// golang.org/x/net/http2/hpack, a decoder no one here wrote, applying each
// case's header_table_size as x/net's allowed maximum.
//
// x/net refuses a second Dynamic Table Size Update at the start of a block
// once its table holds entries, which RFC 7541 §4.2 allows (the smallest
// size since the last update, then the final one): such updates are
// applied here before x/net decodes the rest of the block.
func xnetDecodeBlocks(s *Story, blocks [][]byte) ([]Headers, error) {
	dec := xhpack.NewDecoder(4096, nil)
	allowed := uint32(4096)
	out := make([]Headers, len(blocks))
	for i, b := range blocks {
		if c := &s.Cases[i]; c.HeaderTableSize != nil {
			allowed = uint32(*c.HeaderTableSize)
		}
		fields, err := xnetDecode(dec, b, allowed)
		if err != nil {
			return nil, &CaseError{i, fmt.Errorf("x/net/http2/hpack: %w", err)}
		}
		h := make(Headers, len(fields))
		for j, f := range fields {
			h[j] = Header{f.Name, f.Value}
		}
		out[i] = h
	}
	return out, nil
}

func xnetDecode(dec *xhpack.Decoder, block []byte, allowed uint32) ([]xhpack.HeaderField, error) {
	dec.SetAllowedMaxDynamicTableSize(allowed)
	var sizes []uint64
	rest := block
	for len(rest) > 0 && rest[0]&0xe0 == 0x20 {
		v, n, err := wire.ReadInt(rest, 5)
		if err != nil {
			return nil, err
		}
		sizes, rest = append(sizes, v), rest[n:]
	}
	if len(sizes) < 2 {
		return dec.DecodeFull(block)
	}
	if len(sizes) > 2 {
		return nil, fmt.Errorf("%d size updates", len(sizes))
	}
	for _, v := range sizes {
		if v > uint64(allowed) {
			return nil, fmt.Errorf("size update %d over %d", v, allowed)
		}
		dec.SetMaxDynamicTableSize(uint32(v))
	}
	return dec.DecodeFull(rest)
}

// quicGoDecode decodes a static-only field section with
// github.com/quic-go/qpack.
func quicGoDecode(section []byte) (Headers, error) {
	next := quicqpack.NewDecoder().Decode(section)
	var h Headers
	for {
		f, err := next()
		if errors.Is(err, io.EOF) {
			return h, nil
		}
		if err != nil {
			return nil, fmt.Errorf("quic-go/qpack: %w", err)
		}
		h = append(h, Header{f.Name, f.Value})
	}
}
