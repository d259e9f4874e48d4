//go:build interop && cgo

package interop

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/hqpack/hqpack/qpack"
)

// FuzzNghttp3Decode decodes the same QPACK input with hqpack's decoder and
// nghttp3's, dynamic table included, which no Go peer can check: a
// capacity byte, then records of a kind byte, a length byte and a payload.
// An even kind is encoder-stream bytes, an odd one a field section on
// stream kind>>1. Both decoders must accept or reject each record alike,
// block the same sections, and decode the same fields (never-indexed bits
// included), a held section once the inserts it waits for have come.
//
// Where the two differ by design it stops: nghttp3 0.8 does not enforce
// the blocked-streams limit, which hqpack does; and on the encoder stream
// hqpack rejects an insert larger than the table as soon as its lengths
// are read, and an integer at its tenth continuation byte (RFC 7541 §5.1
// lets a decoder limit an integer's octets), where nghttp3 waits for the
// rest of the instruction; nghttp3 refuses names over 256 bytes, which
// hqpack takes. nghttp3 in turn rejects a bad Huffman string
// as soon as it sees the bad bits, and hqpack once the string is whole:
// there the script completes the instruction for hqpack. And nghttp3
// rejects a section whose Required Insert Count is larger than its
// references need, which RFC 9204 §2.2.1 allows (MAY) and hqpack accepts:
// oversized reads the section to tell.
func FuzzNghttp3Decode(f *testing.F) {
	rec := func(recs ...string) []byte {
		var b []byte
		for i := 0; i < len(recs); i += 2 {
			p, err := hex.DecodeString(strings.ReplaceAll(recs[i+1], " ", ""))
			if err != nil {
				panic(err)
			}
			b = append(b, recs[i][0]-'0', byte(len(p)))
			b = append(b, p...)
		}
		return b
	}
	// RFC 9204 Appendix B, capacity 220: a section blocked until its
	// inserts come, inserts by name reference and with a literal name, a
	// Duplicate, post-base references.
	f.Add(uint8(2), rec("1", "0000510b2f696e6465782e68746d6c",
		"3", "03811011", "0", "3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468",
		"0", "4a637573746f6d2d6b65790c637573746f6d2d76616c7565", "0", "02",
		"5", "050080c181", "0", "810d637573746f6d2d76616c756532"))
	// Static-only: every representation, Huffman, a bad index.
	f.Add(uint8(0), rec("1", "0000d1d7c0ff24", "1", "00005f1d8aa9649bb5d3a5ca9fea", "1", "000027026b65790276",
		"1", "00002f0286f1e3c2e5f23a6ba0ab90f4ff", "1", "0000ff63"))
	// Capacity 100: inserts and Duplicates until the Required Insert Count
	// wraps.
	f.Add(uint8(1), rec("0", "3f45c00161", "1", "0200c080", "0", "000000000000000000", "3", "0500818280",
		"0", "00000000", "5", "0300808182"))
	f.Fuzz(func(t *testing.T, cfg uint8, data []byte) {
		if err := nghttp3Differential(cfg, data); err != nil {
			t.Fatal(err)
		}
	})
}

func nghttp3Differential(cfg uint8, data []byte) error {
	capacity := []int{0, 100, 220, 4096}[cfg&3]
	maxEntries := uint64(capacity / 32)
	const blocked = 8
	theirs, err := NewQPACKDecoder(capacity, blocked)
	if err != nil {
		return err
	}
	defer theirs.Close()
	var ours qpack.Decoder
	ours.Init(qpack.DecoderConfig{
		MaxTableCapacity:  uint64(capacity),
		MaxBlockedStreams: blocked,
		MaxSectionSize:    1 << 30, // nghttp3 has no such limit
	})
	var sink fastpath.SinkList
	sections := map[int64]section{} // the last section on each stream
	for len(data) >= 2 {
		kind, n := data[0], int(data[1])
		data = data[2:]
		p := data[:min(n, len(data))]
		data = data[len(p):]
		if kind&1 == 0 {
			e1, e2 := ours.ReadEncoderStream(p), theirs.ReadEncoderStream(p)
			if (errors.Is(e1, qpack.ErrCapacity) || errors.Is(e1, fastpath.ErrIntegerOverflow)) && e2 == nil {
				return nil // hqpack rejected it early, nghttp3 waits for more
			}
			if e1 == nil && nghttp3Limit(e2) {
				return nil
			}
			if e1 == nil && e2 != nil {
				// nghttp3 decodes a Huffman string as it arrives and may
				// reject it early; hqpack must reject the instruction once
				// its bytes are there (zeros: Huffman '0's, then empty
				// values and Duplicates).
				e1 = ours.ReadEncoderStream(make([]byte, 1<<16))
			}
			if (e1 == nil) != (e2 == nil) {
				return fmt.Errorf("encoder stream %x: hqpack %v, nghttp3 %v", p, e1, e2)
			}
			if e1 != nil {
				return nil
			}
			if err := sameUnblocked(&ours, theirs, &sink, sections, maxEntries); err == errStop {
				return nil
			} else if err != nil {
				return err
			}
			continue
		}
		stream := int64(kind >> 1)
		if _, held := theirs.blocked[stream]; held {
			continue // one section at a time on a stream
		}
		sink.Reset()
		inserts := ours.InsertCount()
		b1, e1 := ours.DecodeSection(uint64(stream), p, &sink)
		fs, b2, e2 := theirs.DecodeSection(stream, p)
		if errors.Is(e1, qpack.ErrTooManyBlocked) && b2 {
			return nil // nghttp3 does not count
		}
		if e1 == nil && (nghttp3Limit(e2) || e2 != nil && oversized(p, maxEntries, inserts)) {
			return nil
		}
		sections[stream] = section{p, inserts}
		if (e1 == nil) != (e2 == nil) || b1 != b2 {
			return fmt.Errorf("section %x on stream %d: hqpack blocked %v, %v; nghttp3 blocked %v, %v", p, stream, b1, e1, b2, e2)
		}
		if e1 != nil {
			return nil
		}
		if !b1 {
			if err := sameFields(sinkFields(&sink), fs); err != nil {
				return fmt.Errorf("section %x on stream %d: %w", p, stream, err)
			}
		}
	}
	return nil
}

// nghttp3Limit reports whether err is nghttp3's refusal of a name longer
// than 256 bytes or a value longer than 64 KiB, limits of its own
// (NGHTTP3_QPACK_MAX_NAMELEN and MAX_VALUELEN) that hqpack does not have.
func nghttp3Limit(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == errQPACKHeaderTooLarge
}

// errStop ends a script where both decoders failed alike.
var errStop = errors.New("both decoders failed")

// sameUnblocked finishes the sections that both decoders can now decode
// and compares them. It returns errStop when both fail on them.
func sameUnblocked(ours *qpack.Decoder, theirs *QPACKDecoder, sink *fastpath.SinkList, sections map[int64]section, maxEntries uint64) error {
	done, e2 := theirs.Unblock()
	if nghttp3Limit(e2) {
		return errStop // nghttp3's own limit; hqpack's decoding is left unchecked
	}
	var failed *Error
	if errors.As(e2, &failed) && failed.Stream >= 0 {
		if sec := sections[failed.Stream]; oversized(sec.bytes, maxEntries, sec.inserts) {
			return errStop
		}
	}
	var e1 error
	var ids []int64
	for e1 == nil {
		id, ok := ours.NextUnblocked()
		if !ok {
			break
		}
		sink.Reset()
		b, err := ours.DecodeUnblocked(id, sink)
		switch {
		case b:
			return fmt.Errorf("stream %d: NextUnblocked named it, DecodeUnblocked says blocked", id)
		case err != nil:
			e1 = err
			continue
		case e2 != nil:
			continue // nghttp3 failed on some stream: no fields to compare
		}
		ids = append(ids, int64(id))
		fs, ok := done[int64(id)]
		if !ok {
			return fmt.Errorf("stream %d: unblocked for hqpack, not for nghttp3", id)
		}
		if err := sameFields(sinkFields(sink), fs); err != nil {
			return fmt.Errorf("stream %d: %w", id, err)
		}
	}
	switch {
	case (e1 == nil) != (e2 == nil):
		return fmt.Errorf("unblocked sections: hqpack %v, nghttp3 %v", e1, e2)
	case e1 != nil:
		return errStop
	case len(ids) != len(done):
		var theirIDs []int64
		for id := range done {
			theirIDs = append(theirIDs, id)
		}
		slices.Sort(theirIDs)
		return fmt.Errorf("unblocked: hqpack %v, nghttp3 %v", ids, theirIDs)
	}
	return nil
}

// section is a section as it arrived: its bytes and the decoder's Insert
// Count then, which its Required Insert Count is decoded against.
type section struct {
	bytes   []byte
	inserts uint64
}

// oversized reports whether a section that hqpack's decoder accepted has a
// Required Insert Count above one more than the largest absolute index its
// field lines reference (RFC 9204 §2.2.1), reading it by RFC 9204 §4.5.
func oversized(sec []byte, maxEntries, inserts uint64) bool {
	enc, n, err := wire.ReadInt(sec, 8)
	if err != nil || enc == 0 {
		return false
	}
	full := 2 * maxEntries
	maxValue := inserts + maxEntries
	ric := maxValue/full*full + enc - 1
	if ric > maxValue {
		ric -= full
	}
	sec = sec[n:]
	if len(sec) == 0 {
		return false
	}
	sign := sec[0]&0x80 != 0
	delta, n, err := wire.ReadInt(sec, 7)
	if err != nil {
		return false
	}
	sec = sec[n:]
	base := ric + delta
	if sign {
		base = ric - delta - 1
	}
	var used uint64 // one more than the largest absolute index referenced
	ref := func(abs uint64) { used = max(used, abs+1) }
	skip := func(prefix uint8) bool { // a string literal
		l, n, err := wire.ReadInt(sec, prefix)
		if err != nil || uint64(len(sec)-n) < l {
			return false
		}
		sec = sec[n+int(l):]
		return true
	}
	for len(sec) > 0 {
		b := sec[0]
		var prefix uint8
		var postBase, dynamic bool
		switch {
		case b&0x80 != 0: // indexed
			prefix, dynamic = 6, b&0x40 == 0
		case b&0xc0 == 0x40: // literal with name reference
			prefix, dynamic = 4, b&0x10 == 0
		case b&0xe0 == 0x20: // literal with literal name
			l, n, err := wire.ReadInt(sec, 3)
			if err != nil || uint64(len(sec)-n) < l {
				return false
			}
			sec = sec[n+int(l):]
			if !skip(7) {
				return false
			}
			continue
		case b&0xf0 == 0x10: // indexed with post-base index
			prefix, postBase = 4, true
		default: // literal with post-base name reference
			prefix, postBase = 3, true
		}
		i, n, err := wire.ReadInt(sec, prefix)
		if err != nil {
			return false
		}
		sec = sec[n:]
		switch {
		case postBase:
			ref(base + i)
		case dynamic:
			ref(base - 1 - i)
		}
		if b&0x80 == 0 && b&0xf0 != 0x10 && !skip(7) { // a literal's value
			return false
		}
	}
	return ric > used
}

// FuzzNghttp2Decode decodes the same HPACK header blocks with hqpack's
// decoder and nghttp2's: a table-size byte (the SETTINGS_HEADER_TABLE_SIZE
// both allow from the start, the peer starting at 4096), then blocks, each
// a length byte and its bytes. Both must accept or reject each block
// alike and decode the same fields, never-indexed bits included; but
// hqpack rejects more than two size updates at the start of a block,
// which nghttp2 accepts.
func FuzzNghttp2Decode(f *testing.F) {
	block := func(hexes ...string) []byte {
		var b []byte
		for _, h := range hexes {
			p, err := hex.DecodeString(h)
			if err != nil {
				panic(err)
			}
			b = append(b, byte(len(p)))
			b = append(b, p...)
		}
		return b
	}
	// RFC 7541 C.4 (requests with Huffman) and C.6 (responses, a 256-byte
	// table that evicts).
	f.Add(uint8(2), block("828684418cf1e3c2e5f23a6ba0ab90f4ff", "828684be5886a8eb10649cbf", "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"))
	f.Add(uint8(1), block("3fe1014883640effc25a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
		"4883640effc1c0bf", "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"))
	// Size updates, a never-indexed literal, a bad index.
	f.Add(uint8(0), block("2082", "3fe11f1004617574680570617373", "be"))
	// An empty block while an update is owed.
	f.Add(uint8(0), block(""))
	f.Fuzz(func(t *testing.T, cfg uint8, data []byte) {
		if err := nghttp2Differential(cfg, data); err != nil {
			t.Fatal(err)
		}
	})
}

func nghttp2Differential(cfg uint8, data []byte) error {
	size := []int{0, 256, 4096}[int(cfg)%3]
	theirs, err := inflaterAt(size)
	if err != nil {
		return err
	}
	defer theirs.Close()
	var ours hpack.Decoder
	ours.Init(hpack.DecoderConfig{MaxTableSize: hqpackTableSize(size), MaxSectionSize: 1 << 30})
	var sink fastpath.SinkList
	for len(data) > 0 {
		n := int(data[0])
		p := data[1:min(1+n, len(data))]
		data = data[1+len(p):]
		sink.Reset()
		e1 := ours.Decode(p, &sink)
		fs, e2 := theirs.Decode(p)
		if errors.Is(e1, hpack.ErrSizeUpdate) && e2 == nil && leadingUpdates(p) > 2 {
			return nil // hqpack allows two, RFC 7541 §4.2's "at most two"; nghttp2 any number
		}
		if (e1 == nil) != (e2 == nil) {
			return fmt.Errorf("block %x: hqpack %v, nghttp2 %v", p, e1, e2)
		}
		if e1 != nil {
			return nil
		}
		if err := sameFields(sinkFields(&sink), fs); err != nil {
			return fmt.Errorf("block %x: %w", p, err)
		}
	}
	return nil
}

// leadingUpdates counts the Dynamic Table Size Updates a block starts with.
func leadingUpdates(p []byte) int {
	n := 0
	for len(p) > 0 && p[0]&0xe0 == 0x20 {
		_, l, err := wire.ReadInt(p, 5)
		if err != nil {
			break
		}
		p = p[l:]
		n++
	}
	return n
}
