package fuzz

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// script reads a fuzzer's bytes as a sequence of choices. Past the end it
// reads zeros, so every input is a valid script and short inputs mean
// "the defaults".
type script struct{ b []byte }

func (s *script) more() bool { return len(s.b) > 0 }

func (s *script) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

// pick returns a choice in [0, n).
func (s *script) pick(n int) int { return int(s.byte()) % n }

func (s *script) uint16() uint16 { return uint16(s.byte())<<8 | uint16(s.byte()) }

func (s *script) uint64() uint64 {
	var b [8]byte
	n := copy(b[:], s.b)
	s.b = s.b[n:]
	return binary.BigEndian.Uint64(b[:])
}

// bytes returns up to n bytes (fewer at the end of the input).
func (s *script) bytes(n int) []byte {
	n = min(n, len(s.b))
	p := s.b[:n:n]
	s.b = s.b[n:]
	return p
}

// str returns a string of up to max bytes, its length read first.
func (s *script) str(max int) string { return string(s.bytes(s.pick(max + 1))) }

// record returns the next length-prefixed record: a kind byte, a length
// byte and up to that many bytes. ok is false at the end of the input.
func (s *script) record() (kind byte, payload []byte, ok bool) {
	if len(s.b) < 2 {
		return 0, nil, false
	}
	kind = s.byte()
	return kind, s.bytes(int(s.byte())), true
}

// appendRecord appends a record for a seed.
func appendRecord(dst []byte, kind byte, payload []byte) []byte {
	if len(payload) > 255 {
		panic("seed record too long")
	}
	dst = append(dst, kind, byte(len(payload)))
	return append(dst, payload...)
}

// unhex decodes a seed written in hex; spaces are ignored.
func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// tfield is a field of a generated section: a raw Content-Length when raw.
type tfield struct {
	name, value string
	flags       fastpath.Flags
	raw         bool
	cl          int64
}

// Names and values that hit the static tables, the indexing policies'
// special cases and the lowercasing of names.
var (
	commonNames = []string{
		":status", ":path", ":method", ":authority", "content-type",
		"cookie", "authorization", "set-cookie", "cache-control", "x-custom",
		"Content-Type", "X-Custom", "content-length", "etag", "accept", "",
	}
	commonValues = []string{
		"200", "/", "GET", "text/html", "", "0", "no-cache", "*/*",
		"abcdefghijklmnopqrstuvwxyz", "gzip, deflate, br", "a\x00b\xff", "404",
	}
	contentLengths = []int64{0, 9, 299, 300, 1024, 99999, math.MaxInt64}
)

// readFields reads a field list of at most max fields: binary names and
// values, names and values from the static tables, raw Content-Lengths and
// flags.
func readFields(s *script, max int) []tfield {
	n := s.pick(max + 1)
	out := make([]tfield, 0, n)
	for range n {
		k := s.byte()
		f := tfield{flags: []fastpath.Flags{0, 0, 0, fastpath.NeverIndex, fastpath.NoIndex, fastpath.Index,
			fastpath.NeverIndex | fastpath.Index, fastpath.NoIndex | fastpath.Index}[k>>5]}
		switch k & 7 {
		case 0, 1:
			// A raw Content-Length (its flags are the list's: NoIndex).
			f = tfield{raw: true, cl: readContentLength(s)}
		case 2:
			f.name, f.value = "content-length", s.str(20)
		case 3, 4, 5:
			f.name = commonNames[s.pick(len(commonNames))]
			f.value = commonValues[s.pick(len(commonValues))]
			if k&8 != 0 {
				f.value = s.str(40)
			}
		default:
			f.name, f.value = s.str(24), s.str(64)
		}
		out = append(out, f)
	}
	return out
}

func readContentLength(s *script) int64 {
	c := s.byte()
	if c < 0x80 {
		return contentLengths[int(c)%len(contentLengths)]
	}
	return int64(s.uint64() >> (1 + c%64))
}

// withNewLengths returns a copy of fs whose raw Content-Lengths are read
// anew from s: the same strings, so a repeated section, with new numbers.
func withNewLengths(s *script, fs []tfield) []tfield {
	fs = slices.Clone(fs)
	for i := range fs {
		if fs[i].raw {
			fs[i].cl = readContentLength(s)
		}
	}
	return fs
}

// lists returns the section as a fastpath.FieldList with raw
// Content-Lengths (the fast path) and its string path.
func lists(fs []tfield) (fast, str *fastpath.FieldList) {
	fast = new(fastpath.FieldList)
	addFields(fast, fs)
	return fast, codectest.StringPath(fast)
}

// addFields adds fs to l, raw Content-Lengths raw.
func addFields(l *fastpath.FieldList, fs []tfield) {
	for _, f := range fs {
		if f.raw {
			l.AddContentLength(f.cl)
		} else {
			l.Add(f.name, f.value, f.flags)
		}
	}
}

// field is a decoded field, or an expected one.
type field struct {
	Name, Value string
	Never       bool
}

// sink is a fastpath.Sink that records fields.
type sink struct{ got []field }

func (s *sink) Field(name, value []byte, f fastpath.Flags) error {
	s.got = append(s.got, field{string(name), string(value), f&fastpath.NeverIndex != 0})
	return nil
}

// sectionSize is the RFC 9113 size of a decoded list: name + value + 32
// per field.
func sectionSize(fs []field) int {
	n := 0
	for _, f := range fs {
		n += len(f.Name) + len(f.Value) + 32
	}
	return n
}

// expected returns what a decoder must give back for fs: names in
// lowercase (the encoders lowercase them), raw Content-Lengths as digits.
func expected(fs []tfield) []field {
	out := make([]field, len(fs))
	for i, f := range fs {
		if f.raw {
			out[i] = field{Name: "content-length", Value: itoa(f.cl)}
			continue
		}
		out[i] = field{asciiLower(f.name), f.value, f.flags&fastpath.NeverIndex != 0}
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// asciiLower maps A-Z to a-z and leaves every other byte alone, as HTTP/2
// and HTTP/3 field names want (strings.ToLower would touch UTF-8).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func (f field) String() string {
	if f.Never {
		return strconv.Quote(f.Name) + ": " + strconv.Quote(f.Value) + " (never indexed)"
	}
	return strconv.Quote(f.Name) + ": " + strconv.Quote(f.Value)
}
