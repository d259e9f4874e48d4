package peer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	ours "github.com/hqpack/hqpack/compat/quic-go-qpack"
	"github.com/hqpack/hqpack/internal/static"
	quicgo "github.com/quic-go/qpack"
)

// writes records each Write as a separate slice: WriteField must make
// exactly one per field in both packages.
type writes [][]byte

func (w *writes) Write(p []byte) (int, error) {
	*w = append(*w, bytes.Clone(p))
	return len(p), nil
}

// sameBytes encodes sections (each a list of fields) with both encoders,
// Close between sections, and fails unless every Write is the same.
func sameBytes(t *testing.T, what string, sections [][]ours.HeaderField) {
	t.Helper()
	var ow, qw writes
	oe, qe := ours.NewEncoder(&ow), quicgo.NewEncoder(&qw)
	for _, s := range sections {
		for _, f := range s {
			if err := oe.WriteField(f); err != nil {
				t.Fatal(err)
			}
			if err := qe.WriteField(quicgo.HeaderField(f)); err != nil {
				t.Fatal(err)
			}
		}
		oe.Close()
		qe.Close()
	}
	if len(ow) != len(qw) {
		t.Fatalf("%s: %d writes, quic-go %d", what, len(ow), len(qw))
	}
	for i := range ow {
		if !bytes.Equal(ow[i], qw[i]) {
			t.Fatalf("%s: write %d is % x, quic-go's % x", what, i, ow[i], qw[i])
		}
	}
}

// Every static entry, with its value, another value, no value and its name
// in other cases, and random fields: the bytes quic-go writes.
func TestEncoderSameBytes(t *testing.T) {
	var s []ours.HeaderField
	for i := range uint64(static.QPACKLen) {
		e, _ := static.QPACK(i)
		s = append(s,
			ours.HeaderField{Name: e.Name, Value: e.Value},
			ours.HeaderField{Name: e.Name, Value: e.Value + "x"},
			ours.HeaderField{Name: e.Name},
			ours.HeaderField{Name: strings.ToUpper(e.Name), Value: e.Value},
			ours.HeaderField{Name: e.Name[:len(e.Name)-1], Value: e.Value})
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		s = append(s, ours.HeaderField{Name: randString(r, 40), Value: randString(r, 300)})
	}
	sameBytes(t, "static and random fields", [][]ours.HeaderField{s, s[:3], nil, s[5:9]})
}

// Every header list of every QIF file: the bytes quic-go writes.
func TestEncoderSameBytesQIFS(t *testing.T) {
	lists := qifLists(t)
	for _, name := range sortedKeys(lists) {
		o, _ := fresh(lists[name])
		sameBytes(t, name, o)
	}
}

func randString(r *rand.Rand, max int) string {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		if r.IntN(4) == 0 {
			b[i] = byte(r.IntN(256))
		} else {
			b[i] = "abcdefghijklmnopqrstuvwxyz-0123456789 /;=ABCXYZ"[r.IntN(47)]
		}
	}
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decoded is what a DecodeFunc yields: the fields, then the end (nil for
// io.EOF) or the first error. limit bounds the calls, in case of a loop.
type decoded struct {
	fields []string
	err    error
}

func (d decoded) String() string { return fmt.Sprintf("%q then %v", d.fields, d.err) }

func drain(next func() (string, error), limit int) decoded {
	var d decoded
	for range limit {
		f, err := next()
		if err == io.EOF {
			return d
		}
		if err != nil {
			d.err = err
			return d
		}
		d.fields = append(d.fields, f)
	}
	d.err = errors.New("no end after the limit of calls")
	return d
}

// decodeBoth decodes p with both decoders.
func decodeBoth(p []byte) (o, q decoded) {
	on, qn := ours.NewDecoder().Decode(p), quicgo.NewDecoder().Decode(p)
	limit := len(p) + 2 // a field takes a byte at least
	o = drain(func() (string, error) { f, err := on(); return f.Name + ": " + f.Value, err }, limit)
	q = drain(func() (string, error) { f, err := qn(); return f.Name + ": " + f.Value, err }, limit)
	return o, q
}

// negativeBase reports whether p's prefix is Required Insert Count 0 with
// the sign bit set and Delta Base 0: a negative Base, which quic-go reads
// as 0 and the drop-in rejects (the one documented difference).
func negativeBase(p []byte) bool { return len(p) > 1 && p[0] == 0 && p[1] == 0x80 }

// sameDecoding fails unless both decoders give the same fields and end the
// same way: io.EOF, or an error with the same text.
func sameDecoding(t *testing.T, what string, p []byte) {
	t.Helper()
	o, q := decodeBoth(p)
	if negativeBase(p) {
		if o.err == nil || o.err.Error() != "expected Base to be zero" || len(o.fields) > 0 {
			t.Fatalf("%s: % x: %v, want the Base error", what, p, o)
		}
		return
	}
	same := fmt.Sprint(o.fields) == fmt.Sprint(q.fields) && (o.err == nil) == (q.err == nil)
	if same && o.err != nil {
		same = o.err.Error() == q.err.Error() &&
			errors.Is(o.err, io.ErrUnexpectedEOF) == errors.Is(q.err, io.ErrUnexpectedEOF)
	}
	if !same {
		t.Fatalf("%s: % x:\n ours    %v\n quic-go %v", what, p, o, q)
	}
}

// Every section of every static-only file of other encoders in the corpus,
// and every cut and one-byte change of the first sections of each.
func TestDecoderSameAsQuicGo(t *testing.T) {
	all := staticSections(t)
	r := rand.New(rand.NewPCG(3, 4))
	n := 0
	for _, name := range sortedKeys(all) {
		for i, p := range all[name] {
			sameDecoding(t, fmt.Sprintf("%s section %d", name, i), p)
			n++
			if i >= 3 {
				continue
			}
			for cut := range len(p) {
				sameDecoding(t, fmt.Sprintf("%s section %d cut at %d", name, i, cut), p[:cut])
			}
			for range 2 * len(p) {
				m := bytes.Clone(p)
				m[r.IntN(len(m))] ^= byte(1 << r.IntN(8))
				sameDecoding(t, fmt.Sprintf("%s section %d changed", name, i), m)
			}
		}
	}
	t.Logf("%d sections of %d files decoded alike", n, len(all))
}

// Sections written by quic-go's own encoder decode alike: every QIF list.
func TestDecoderSameOnQuicGoSections(t *testing.T) {
	lists := qifLists(t)
	for _, name := range sortedKeys(lists) {
		_, q := fresh(lists[name])
		for i, l := range q {
			var buf bytes.Buffer
			e := quicgo.NewEncoder(&buf)
			for _, f := range l {
				e.WriteField(f)
			}
			sameDecoding(t, fmt.Sprintf("%s list %d", name, i+1), buf.Bytes())
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{0, 0, 0xd1, 0x51, 0x82, 0x60, 0x7f})
	f.Add([]byte{0, 0, 0x2b, 0xff, 0x81, 0x61})
	f.Add([]byte{0, 0x80, 0xc0})
	f.Add([]byte{0, 0, 0x5f, 0x1e, 0x84, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0x10})
	f.Fuzz(func(t *testing.T, p []byte) { sameDecoding(t, "fuzz", p) })
}

func FuzzEncode(f *testing.F) {
	f.Add(":method", "GET", "x-custom", "v")
	f.Add("content-type", "text/plain", "Cookie", "\x00\xff")
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2 string) {
		s := []ours.HeaderField{{Name: n1, Value: v1}, {Name: n2, Value: v2}}
		sameBytes(t, "fuzz", [][]ours.HeaderField{s, s[1:]})
		var ow writes
		oe := ours.NewEncoder(&ow)
		for _, f := range s {
			oe.WriteField(f)
		}
		o, _ := decodeBoth(bytes.Join(ow, nil))
		if o.err != nil || fmt.Sprint(o.fields) != fmt.Sprint([]string{n1 + ": " + v1, n2 + ": " + v2}) {
			t.Fatalf("round trip: %v", o)
		}
	})
}
