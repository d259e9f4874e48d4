package static_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/hqpack/hqpack/internal/static"
	quicqpack "github.com/quic-go/qpack"
	"golang.org/x/net/http2/hpack"
)

// The tables are checked against two independent transcriptions, each read
// through its public decoder and encoder: x/net's HPACK and quic-go's QPACK.

func TestHPACKTableMatchesXNet(t *testing.T) {
	for i := uint64(1); i <= static.HPACKLen; i++ {
		fields, err := hpack.NewDecoder(4096, nil).DecodeFull([]byte{0x80 | byte(i)})
		if err != nil || len(fields) != 1 {
			t.Fatalf("x/net decoding static index %d: %v %v", i, fields, err)
		}
		e, ok := static.HPACK(i)
		if !ok || e.Name != fields[0].Name || e.Value != fields[0].Value {
			t.Errorf("HPACK(%d) = %q: %q, %v; x/net has %q: %q", i, e.Name, e.Value, ok, fields[0].Name, fields[0].Value)
		}
	}
	// One past the end is a dynamic index, and an empty decoder has none.
	if _, err := hpack.NewDecoder(4096, nil).DecodeFull([]byte{0x80 | static.HPACKLen + 1}); err == nil {
		t.Errorf("x/net has more than %d static entries", static.HPACKLen)
	}
}

func TestQPACKTableMatchesQuicGo(t *testing.T) {
	for i := uint64(0); i < static.QPACKLen; i++ {
		f, err := decodeQPACKIndexed(i)
		if err != nil {
			t.Fatalf("quic-go decoding static index %d: %v", i, err)
		}
		e, ok := static.QPACK(i)
		if !ok || e.Name != f.Name || e.Value != f.Value {
			t.Errorf("QPACK(%d) = %q: %q, %v; quic-go has %q: %q", i, e.Name, e.Value, ok, f.Name, f.Value)
		}
	}
	if _, err := decodeQPACKIndexed(static.QPACKLen); err == nil {
		t.Errorf("quic-go has more than %d static entries", static.QPACKLen)
	}
}

// decodeQPACKIndexed decodes a field section holding one indexed field
// line that names static entry i.
func decodeQPACKIndexed(i uint64) (quicqpack.HeaderField, error) {
	block := appendPrefixed([]byte{0, 0}, 0xc0, 6, i)
	next := quicqpack.NewDecoder().Decode(block)
	f, err := next()
	if err != nil {
		return f, err
	}
	if _, err := next(); err != io.EOF {
		return f, err
	}
	return f, nil
}

// appendPrefixed appends RFC 7541 Section 5.1 integer i with an n-bit
// prefix, under the pattern bits in first.
func appendPrefixed(dst []byte, first byte, n uint, i uint64) []byte {
	k := uint64(1)<<n - 1
	if i < k {
		return append(dst, first|byte(i))
	}
	dst = append(dst, first|byte(k))
	for i -= k; i >= 128; i >>= 7 {
		dst = append(dst, 0x80|byte(i))
	}
	return append(dst, byte(i))
}

// readPrefixed reads an n-bit-prefix integer from the start of b.
func readPrefixed(b []byte, n uint) uint64 {
	k := uint64(1)<<n - 1
	i := uint64(b[0]) & k
	if i < k {
		return i
	}
	for s, j := uint(0), 1; j < len(b); s, j = s+7, j+1 {
		i += uint64(b[j]&0x7f) << s
		if b[j]&0x80 == 0 {
			break
		}
	}
	return i
}

// notAValue is in no static entry.
const notAValue = "hqpack-not-a-static-value"

func TestLookupHPACKMatchesXNetEncoder(t *testing.T) {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	enc.SetMaxDynamicTableSize(0) // no dynamic entries: every index is static
	for i := uint64(1); i <= static.HPACKLen; i++ {
		e, _ := static.HPACK(i)

		buf.Reset()
		if err := enc.WriteField(hpack.HeaderField{Name: e.Name, Value: e.Value}); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		if i == 1 {
			// The size update to 0 goes out before the first field.
			if b[0] != 0x20 {
				t.Fatalf("x/net wrote % x, want a size update first", b)
			}
			b = b[1:]
		}
		if b[0]&0x80 == 0 {
			t.Fatalf("x/net did not index %q: %q (% x)", e.Name, e.Value, b)
		}
		exact, _ := static.LookupHPACK(e.Name, e.Value)
		if want := int(readPrefixed(b, 7)); exact != want {
			t.Errorf("LookupHPACK(%q, %q) exact = %d, x/net uses %d", e.Name, e.Value, exact, want)
		}

		// A literal with a name reference: x/net picks some index with
		// this name (not always the lowest).
		buf.Reset()
		if err := enc.WriteField(hpack.HeaderField{Name: e.Name, Value: notAValue}); err != nil {
			t.Fatal(err)
		}
		b = buf.Bytes()
		if b[0]&0xf0 != 0 {
			t.Fatalf("x/net wrote % x for %q: %q, want a literal without indexing", b, e.Name, notAValue)
		}
		ref := readPrefixed(b, 4)
		x, nameOnly := static.LookupHPACK(e.Name, notAValue)
		r, _ := static.HPACK(ref)
		if x != -1 || nameOnly < 1 || r.Name != e.Name || nameOnly > int(ref) {
			t.Errorf("LookupHPACK(%q, %q) = %d, %d; x/net refers to %d", e.Name, notAValue, x, nameOnly, ref)
		}
	}
}

func TestLookupQPACKMatchesQuicGoEncoder(t *testing.T) {
	var buf bytes.Buffer
	for i := uint64(0); i < static.QPACKLen; i++ {
		e, _ := static.QPACK(i)

		buf.Reset()
		enc := quicqpack.NewEncoder(&buf)
		if err := enc.WriteField(quicqpack.HeaderField{Name: e.Name, Value: e.Value}); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()[2:] // after the field section prefix
		if b[0]&0xc0 != 0xc0 {
			t.Fatalf("quic-go did not index static %q: %q (% x)", e.Name, e.Value, b)
		}
		exact, _ := static.LookupQPACK(e.Name, e.Value)
		if want := int(readPrefixed(b, 6)); exact != want {
			t.Errorf("LookupQPACK(%q, %q) exact = %d, quic-go uses %d", e.Name, e.Value, exact, want)
		}

		buf.Reset()
		enc = quicqpack.NewEncoder(&buf)
		if err := enc.WriteField(quicqpack.HeaderField{Name: e.Name, Value: notAValue}); err != nil {
			t.Fatal(err)
		}
		b = buf.Bytes()[2:]
		if b[0]&0xf0 != 0x50 {
			t.Fatalf("quic-go wrote % x for %q: %q, want a literal with static name reference", b, e.Name, notAValue)
		}
		ref := readPrefixed(b, 4)
		x, nameOnly := static.LookupQPACK(e.Name, notAValue)
		r, _ := static.QPACK(ref)
		if x != -1 || nameOnly < 0 || r.Name != e.Name || nameOnly > int(ref) {
			t.Errorf("LookupQPACK(%q, %q) = %d, %d; quic-go refers to %d", e.Name, notAValue, x, nameOnly, ref)
		}
	}
}
