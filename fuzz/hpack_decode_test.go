package fuzz

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/static"
)

// FuzzHPACKDecode decodes a connection's worth of field sections, with
// SETTINGS_HEADER_TABLE_SIZE changes between them, with our Decoder (fed in
// fragments, as HEADERS and CONTINUATION frames) and with x/net's. The
// input is a table size, an options byte and records: a kind byte (its top
// bit sets a new table size, (kind&0x3f)*64, before the section; the next
// bit makes the payload a program for buildHPACK instead of the section
// itself; without the top bit, 0x20 decodes the section three times in a
// row, which Decode may remember), a length byte and the section.
//
// It checks that our decoder never panics, stays within the limits it was
// given (section size, string length, table capacity), returns only typed
// COMPRESSION_ERRORs and then ErrClosed; that both decoders accept the same
// sections with the same fields (never-indexed included) or both reject
// them, except where RFC 7541 lets them differ (README.md lists the cases;
// hpackAllowed decides them); and that every accepted section re-encodes
// with our Encoder and decodes to the same fields with both decoders.
func FuzzHPACKDecode(f *testing.F) {
	rec := func(kinds []byte, hexes ...string) []byte {
		var b []byte
		for i, h := range hexes {
			b = appendRecord(b, kinds[i%len(kinds)], unhex(h))
		}
		return b
	}
	// RFC 7541 Appendix C, each sequence on one connection.
	f.Add(uint16(4096), uint8(0), rec([]byte{0}, "400a637573746f6d2d6b65790d637573746f6d2d686561646572", "040c2f73616d706c652f70617468", "100870617373776f726406736563726574", "82"))
	f.Add(uint16(4096), uint8(0x10), rec([]byte{0}, "828684410f7777772e6578616d706c652e636f6d", "828684be58086e6f2d6361636865", "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"))
	f.Add(uint16(4096), uint8(0x20), rec([]byte{0}, "828684418cf1e3c2e5f23a6ba0ab90f4ff", "828684be5886a8eb10649cbf", "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"))
	f.Add(uint16(256), uint8(0x30), rec([]byte{0}, "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d", "4803333037c1c0bf", "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076657273696f6e3d31"))
	f.Add(uint16(256), uint8(0x44), rec([]byte{0}, "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3", "4883640effc1c0bf", "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"))
	// Size updates: two at the start with entries in the table (x/net
	// rejects the second), one after a field, three, a missing one after
	// the setting was lowered, one above the setting.
	f.Add(uint16(4096), uint8(0), rec([]byte{0}, "400178017a", "3f453fe11f82"))
	f.Add(uint16(4096), uint8(0), rec([]byte{0}, "8220"))
	f.Add(uint16(4096), uint8(0), rec([]byte{0}, "202020"))
	f.Add(uint16(4096), uint8(0), rec([]byte{0, 0x81}, "400178017a", "82"))
	f.Add(uint16(4096), uint8(0), rec([]byte{0, 0x81}, "400178017a", "3f2182"))
	f.Add(uint16(100), uint8(0), rec([]byte{0}, "3f4682"))
	// Limits: a large entry referenced many times, a long string.
	f.Add(uint16(4096), uint8(0x03), rec([]byte{0}, "4001787f7f"+strings.Repeat("61", 127), strings.Repeat("be", 40)))
	f.Add(uint16(4096), uint8(0x0c), rec([]byte{0}, "0001617f32"+strings.Repeat("62", 81)))
	// Programs for buildHPACK: inserts, then references to every kind of
	// entry, static and dynamic, with Huffman and raw strings.
	f.Add(uint16(4096), uint8(0), rec([]byte{0x40}, "0300056865 6c6c6f 003d 003c 2b 046e616d65 03766 16c 6b 0478797a77 0561626364 65 00 3c 07 00 00 3d"))
	f.Add(uint16(256), uint8(0x80), rec([]byte{0x40, 0xc4}, "ab0a637573746f6d2d6b6579 0c637573746f6d2d76616c7565 003d 0c 3c 0378787 8 1c 05 0376616c", "00 3d 00 3e 07 01 003d"))
	// A section of indexed lines three times, which Decode then delivers
	// from memory, and again after an insert changed what it refers to.
	f.Add(uint16(4096), uint8(0), rec([]byte{0, 0x20, 0, 0x20}, "400178017a", "82be", "4001790161", "82be"))
	// Truncation, bad indexes, bad Huffman, a long integer.
	f.Add(uint16(4096), uint8(0x50), rec([]byte{0}, "4185", "80", "c0", "0081ff0100", "0f8080808080808080808000"))
	f.Fuzz(func(t *testing.T, setting uint16, opts uint8, data []byte) {
		d := newHPACKDiff(setting, opts)
		s := script{data}
		for i := 0; ; i++ {
			kind, sec, ok := s.record()
			if kind&0x40 != 0 {
				sec = buildHPACK(sec)
			}
			if !ok {
				return
			}
			n := 1
			if kind&0xa0 == 0x20 {
				n = 3
			}
			for range n {
				if !d.section(t, i, kind, sec) {
					return
				}
			}
		}
	})
}

// hpackDiff is one connection decoded by us and by x/net.
type hpackDiff struct {
	cfg    hpack.DecoderConfig
	cut    int // fragment size for our Write; 0: Decode the whole section
	ours   hpack.Decoder
	theirs *xhpack.Decoder

	setting uint32 // our current SETTINGS_HEADER_TABLE_SIZE
	low     uint32 // the smallest setting since the peer's last size update
	// maxSetting is the highest setting so far.
	maxSetting uint32

	// The re-encoding: our Encoder to a second pair of decoders.
	enc       *hpack.Encoder
	reDefault bool // enc has the IndexDefault policy
	reOurs    hpack.Decoder
	reTheir   *xhpack.Decoder
	block     []byte
}

func newHPACKDiff(setting uint16, opts uint8) *hpackDiff {
	d := &hpackDiff{
		cfg: hpack.DecoderConfig{
			MaxTableSize:     int(setting),
			InitialTableSize: int(setting),
			MaxSectionSize:   []int{1 << 20, 1 << 20, 4096, 300}[opts&3],
			MaxStringLength:  []int{0, 0, 64, 16}[opts>>2&3],
		},
		cut:        []int{0, 1, 2, 3, 7, 16, 64, 0}[opts>>4&7],
		theirs:     xhpack.NewDecoder(uint32(setting), nil),
		setting:    uint32(setting),
		low:        uint32(setting),
		maxSetting: uint32(setting),
		reTheir:    xhpack.NewDecoder(4096, nil),
	}
	if setting == 0 {
		d.cfg.MaxTableSize, d.cfg.InitialTableSize = hpack.NoTable, hpack.NoTable
	}
	d.ours.Init(d.cfg)
	d.reOurs.Init(hpack.DecoderConfig{MaxSectionSize: 1 << 22})
	d.reDefault = opts&0x80 != 0
	d.enc = newHPACKEncoder(hpack.Config{Indexing: []fastpath.Indexing{fastpath.IndexAll, fastpath.IndexDefault}[opts>>7],
		Huffman: fastpath.HuffmanPolicy(setting % 3)})
	return d
}

func (d *hpackDiff) maxString() int {
	if d.cfg.MaxStringLength == 0 {
		return d.cfg.MaxSectionSize
	}
	return d.cfg.MaxStringLength
}

// section decodes one record's section with both decoders and compares;
// false when the connection is over (an error on either side).
func (d *hpackDiff) section(t *testing.T, i int, kind byte, sec []byte) bool {
	if kind&0x80 != 0 {
		v := uint32(kind&0x3f) << 6
		d.ours.SetMaxTableSize(v)
		d.theirs.SetAllowedMaxDynamicTableSize(v)
		d.setting, d.low, d.maxSetting = v, min(d.low, v), max(d.maxSetting, v)
	}
	_, capBefore := d.ours.TableSize()
	var got sink
	err := feedHPACK(&d.ours, sec, d.cut, &got)
	xf, xerr := d.theirs.DecodeFull(sec)
	theirs := fromX(xf)
	where := fmt.Sprintf("section %d (% x)", i, sec)

	// Limits, whatever the outcome.
	if n := sectionSize(got.got); n > d.cfg.MaxSectionSize {
		t.Fatalf("%s: %d bytes of fields passed the limit %d", where, n, d.cfg.MaxSectionSize)
	}
	for _, f := range got.got {
		// A static-table name is no string literal: the limit is not its.
		_, nameIdx := static.LookupHPACK(f.Name, "")
		if nameIdx < 0 && len(f.Name) > d.maxString() || len(f.Value) > d.maxString() {
			t.Fatalf("%s: field %v passed the string limit %d", where, f, d.maxString())
		}
	}
	// The peer's capacity stays above a lowered setting until its next
	// field; from then on it is within the setting.
	bound := d.maxSetting
	if err == nil && len(got.got) > 0 {
		bound = d.setting
	}
	if size, c := d.ours.TableSize(); size > c || c > int(bound) {
		t.Fatalf("%s: table size %d, capacity %d, setting %d (highest %d)", where, size, c, d.setting, d.maxSetting)
	}
	if err != nil {
		checkHPACKError(t, where, &d.ours, err, len(sec))
	}

	scan := scanHPACK(sec)
	switch {
	case err == nil && xerr == nil:
		if !slices.Equal(got.got, theirs) {
			t.Fatalf("%s: fields differ\nours:  %v\nx/net: %v", where, got.got, theirs)
		}
		if len(scan.updates) > 0 {
			d.low = d.setting
		}
		d.reencode(t, where, got.got)
		return true
	case err != nil && xerr != nil:
		return false
	case err != nil:
		if !slices.Equal(got.got, theirs[:min(len(got.got), len(theirs))]) || len(got.got) > len(theirs) {
			t.Fatalf("%s: before our error %v, fields differ\nours:  %v\nx/net: %v", where, err, got.got, theirs)
		}
		if why := d.allowedOursOnly(err, scan, theirs, capBefore); why == "" {
			t.Fatalf("%s: we reject (%v), x/net accepts %v", where, err, theirs)
		}
		return false
	default:
		if why := allowedTheirsOnly(xerr, scan); why == "" {
			t.Fatalf("%s: x/net rejects (%v), we accept %v", where, xerr, got.got)
		}
		return false
	}
}

// allowedOursOnly names the RFC 7541 leeway that lets us reject a section
// x/net accepts, or returns "".
func (d *hpackDiff) allowedOursOnly(err error, scan hpackScan, theirs []field, capBefore int) string {
	switch {
	case errors.Is(err, hpack.ErrSizeUpdate) && scan.updateAfterField:
		return "§4.2: a size update after a field"
	case errors.Is(err, hpack.ErrSizeUpdate) && len(scan.updates) > 2:
		return "§4.2: more than two size updates"
	case errors.Is(err, hpack.ErrSizeUpdate) && int(d.low) < capBefore && (len(scan.updates) == 0 || scan.updates[0] > uint64(d.low)):
		return "§4.2: no size update down to the lowered setting"
	case errors.Is(err, fastpath.ErrSectionTooLarge) && sectionSize(theirs) > d.cfg.MaxSectionSize:
		return "§7.4 / RFC 9113 §6.5.2: section size limit"
	case errors.Is(err, fastpath.ErrStringTooLong) && scan.longestString > uint64(d.maxString()):
		return "§7.4: string length limit (on the wire length)"
	case errors.Is(err, fastpath.ErrStringTooLong):
		for _, f := range theirs {
			if len(f.Name) > d.maxString() || len(f.Value) > d.maxString() {
				return "§7.4: string length limit (decoded)"
			}
		}
	}
	return ""
}

// allowedTheirsOnly names the leeway (or x/net bug) that lets x/net reject
// a section we accept, or returns "".
func allowedTheirsOnly(xerr error, scan hpackScan) string {
	if strings.Contains(xerr.Error(), "MUST occur at the beginning") && len(scan.updates) == 2 {
		return "§4.2: two size updates with a non-empty table (golang/go#29187)"
	}
	return ""
}

// reencode encodes fields with our Encoder and decodes them with a second
// pair of decoders: both must give the fields back (names in lowercase).
func (d *hpackDiff) reencode(t *testing.T, where string, fields []field) {
	var l fastpath.FieldList
	want := make([]field, len(fields))
	for i, f := range fields {
		var fl fastpath.Flags
		if f.Never {
			fl = fastpath.NeverIndex
		}
		l.Add(f.Name, f.Value, fl)
		want[i] = field{asciiLower(f.Name), f.Value, f.Never}
	}
	d.block = d.enc.AppendSection(d.block[:0], &l)
	var got sink
	if err := d.reOurs.Decode(d.block, &got); err != nil || !neverByPolicy(got.got, want, d.reDefault) {
		t.Fatalf("%s: re-encoded as % x, we decode %v, %v; want %v", where, d.block, got.got, err, want)
	}
	xf, err := d.reTheir.DecodeFull(d.block)
	if theirs := fromX(xf); err != nil || !neverByPolicy(theirs, want, d.reDefault) {
		t.Fatalf("%s: re-encoded as % x, x/net decodes %v, %v; want %v", where, d.block, theirs, err, want)
	}
}

// feedHPACK decodes sec whole (cut 0) or in fragments of cut bytes.
func feedHPACK(d *hpack.Decoder, sec []byte, cut int, s fastpath.Sink) error {
	if cut <= 0 {
		return d.Decode(sec, s)
	}
	for p := sec; len(p) > 0; p = p[min(cut, len(p)):] {
		if err := d.Write(p[:min(cut, len(p))], s); err != nil {
			return err
		}
	}
	return d.End()
}

// hpackCauses are the causes a decoding failure may wrap.
var hpackCauses = []error{
	fastpath.ErrTruncated, fastpath.ErrIntegerOverflow, fastpath.ErrStringTooLong, fastpath.ErrHuffmanEOS,
	fastpath.ErrHuffmanPaddingLength, fastpath.ErrHuffmanPaddingBits, fastpath.ErrInvalidIndex,
	hpack.ErrSizeUpdate, fastpath.ErrSectionTooLarge,
}

// checkHPACKError checks that err is a typed COMPRESSION_ERROR with a known
// cause and an offset within the section, and that the decoder then fails
// every call with ErrClosed.
func checkHPACKError(t *testing.T, where string, d *hpack.Decoder, err error, n int) {
	t.Helper()
	var e *hpack.Error
	if !errors.As(err, &e) || e.Code != hpack.ErrCodeCompression || e.Offset < 0 || e.Offset > n {
		t.Fatalf("%s: error %#v is not a COMPRESSION_ERROR within the section", where, err)
	}
	if !slices.ContainsFunc(hpackCauses, func(c error) bool { return errors.Is(err, c) }) {
		t.Fatalf("%s: error %v has no known cause", where, err)
	}
	if later := d.Decode([]byte{0x82}, &sink{}); !errors.Is(later, fastpath.ErrClosed) {
		t.Fatalf("%s: after %v, the next section gives %v", where, err, later)
	}
}

// fromX converts x/net's fields.
func fromX(xf []xhpack.HeaderField) []field {
	out := make([]field, len(xf))
	for i, f := range xf {
		out[i] = field{f.Name, f.Value, f.Sensitive}
	}
	return out
}
