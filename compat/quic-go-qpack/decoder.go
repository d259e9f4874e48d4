package qpack

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync"

	"github.com/hqpack/hqpack/hpack"
)

// Decoding errors. Their texts are quic-go/qpack's.
var (
	// errNoDynamicTable is a reference to the dynamic table, which this
	// decoder never advertises.
	errNoDynamicTable = errors.New("no dynamic table")
	errRequiredCount  = errors.New("expected Required Insert Count to be zero")
	errBase           = errors.New("expected Base to be zero")
	// errInvalidHuffman has the text of x/net's hpack.ErrInvalidHuffman,
	// which quic-go/qpack returns for a bad Huffman string.
	errInvalidHuffman = errors.New("hpack: invalid Huffman-encoded data")
)

// invalidIndexError is a reference past the static table.
type invalidIndexError uint64

func (e invalidIndexError) Error() string {
	// As int, as quic-go prints it (past MaxInt, a negative number).
	return fmt.Sprintf("invalid indexed representation index %d", int(e))
}

// A Decoder decodes QPACK field sections that use the static table only
// (the decoder advertises no dynamic table, SETTINGS_QPACK_MAX_TABLE_CAPACITY
// 0). It keeps no state between sections: it is safe for concurrent use,
// and one Decoder may serve every stream of a connection.
type Decoder struct{}

// DecodeFunc returns the next field of a section on each call, then io.EOF
// after the last. Any other error means the section cannot be decoded; the
// function then returns that error on every later call.
type DecodeFunc func() (HeaderField, error)

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder { return &Decoder{} }

// Decode returns a function that decodes the field section p one field at
// a time. It does not copy p: p must stay unchanged until the function has
// returned io.EOF or an error. The fields' strings do not alias p.
//
// The first call decodes the whole section, and every literal string of it
// lands in one allocation, the size of the strings (with a byte or two
// for the length of each Huffman-coded one); the calls after it hand out
// the fields, and the error if one stopped the decoding, in order.
func (d *Decoder) Decode(p []byte) DecodeFunc {
	s := &section{p: p}
	return s.next
}

// section is the state of one Decode. The first call decodes the section
// and keeps its literal strings in records, one string: each in order,
// its decoded length first (as a uvarint) when it was Huffman-coded. The
// calls after it read p again for the lines' layout, which costs little
// next to Huffman decoding and keeps the one allocation at the size of the
// strings.
type section struct {
	p       []byte // the lines not yet handed out
	records string
	err     error // after the fields, or io.EOF
	left    int32 // fields not yet handed out
	decoded bool
}

func (s *section) next() (HeaderField, error) {
	if !s.decoded {
		s.decode()
		s.decoded = true
	}
	if s.left == 0 {
		s.p = nil
		return HeaderField{}, s.err
	}
	s.left--
	// The line was checked by decode: what remains is to take it apart.
	var hf HeaderField
	p := s.p
	switch t := p[0]; {
	case t&0x80 != 0:
		i, rest, _ := readInt(p, 6)
		hf, p = staticFields[i], rest
	case t&0x40 != 0:
		i, rest, _ := readInt(p, 4)
		hf.Name = staticFields[i].Name
		hf.Value, p = s.take(rest, 7)
	default:
		hf.Name, p = s.take(p, 3)
		hf.Value, p = s.take(p, 7)
	}
	s.p = p
	return hf, nil
}

// take returns the next string of records, for the string literal at the
// start of p, and the bytes after that literal.
func (s *section) take(p []byte, n uint8) (string, []byte) {
	huffman := p[0]&(1<<n) != 0
	l, p, _ := readInt(p, n)
	v := l
	if huffman {
		var k int
		v, k = uvarint(s.records)
		s.records = s.records[k:]
	}
	str := s.records[:v]
	s.records = s.records[v:]
	return str, p[l:]
}

// uvarint is binary.Uvarint for a string.
func uvarint(r string) (v uint64, k int) {
	for shift := 0; ; shift += 7 {
		b := r[k]
		k++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, k
		}
	}
}

// scratch holds the records while a section is decoded, for the one copy
// into their string; sections up to maxScratch bytes reuse it.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

const maxScratch = 64 << 10

func (s *section) decode() {
	buf := scratch.Get().(*[]byte)
	b := (*buf)[:0]
	p, err := prefix(s.p)
	s.p = p
	for err == nil {
		if len(p) == 0 {
			err = io.EOF
			break
		}
		mark := len(b)
		if b, p, err = line(b, p); err != nil {
			b = b[:mark]
			break
		}
		s.left++
	}
	s.err = err
	s.records = string(b)
	if cap(b) <= maxScratch {
		*buf = b
		scratch.Put(buf)
	}
}

// prefix reads the Encoded Required Insert Count and the Base, which must
// both be 0 with no dynamic table, and returns what follows.
func prefix(p []byte) ([]byte, error) {
	ric, rest, err := readInt(p, 8)
	if err != nil {
		return nil, err
	}
	if ric != 0 {
		return nil, errRequiredCount
	}
	if len(rest) > 0 && rest[0] == 0x80 {
		// Sign 1 with Delta Base 0: Base = 0 - 0 - 1, negative.
		return nil, errBase
	}
	base, rest, err := readInt(rest, 7)
	if err != nil {
		return nil, err
	}
	if base != 0 {
		return nil, errBase
	}
	return rest, nil
}

// line decodes the field line at the start of p, appends its strings to b,
// and returns the bytes after it. The checks, and their order, are
// quic-go's, so that a bad section fails with quic-go's error.
func line(b, p []byte) ([]byte, []byte, error) {
	switch t := p[0]; {
	case t&0x80 != 0: // 1Txxxxxx: Indexed Field Line
		if t&0x40 == 0 {
			return b, nil, errNoDynamicTable
		}
		i, rest, err := readInt(p, 6)
		if err != nil {
			return b, nil, err
		}
		if i >= uint64(len(staticFields)) {
			return b, nil, invalidIndexError(i)
		}
		return b, rest, nil
	case t&0xc0 == 0x40: // 01NTxxxx: Literal Field Line with Name Reference
		if t&0x10 == 0 {
			return b, nil, errNoDynamicTable
		}
		i, rest, err := readInt(p, 4)
		if err != nil {
			return b, nil, err
		}
		if i >= uint64(len(staticFields)) {
			return b, nil, invalidIndexError(i)
		}
		return str(b, rest, 7)
	case t&0xe0 == 0x20: // 001NHxxx: Literal Field Line with Literal Name
		b, p, err := str(b, p, 3)
		if err != nil {
			return b, nil, err
		}
		return str(b, p, 7)
	}
	// 0001xxxx and 0000xxxx: post-base references, dynamic only.
	return b, nil, fmt.Errorf("unexpected type byte: %#x", p[0])
}

// str appends the string literal at the start of p (see section), whose
// length has an n-bit prefix and whose Huffman flag is the bit above it,
// and returns the bytes after it.
func str(b, p []byte, n uint8) ([]byte, []byte, error) {
	if len(p) == 0 {
		return b, nil, io.ErrUnexpectedEOF
	}
	huffman := p[0]&(1<<n) != 0
	l, p, err := readInt(p, n)
	if err != nil {
		return b, nil, err
	}
	if uint64(len(p)) < l {
		return b, nil, io.ErrUnexpectedEOF
	}
	src, p := p[:l], p[l:]
	if !huffman {
		return append(b, src...), p, nil
	}
	// The decoded length comes first: decode after room for the longest
	// length prefix it can need, then move the bytes up to their prefix.
	// Every code is at least 5 bits, so src decodes to at most 8/5 of it.
	max := len(src) + len(src)*3/5 + 1
	room := uvarintLen(uint64(max))
	at := len(b)
	b = append(b, make([]byte, room)...)
	b, err = hpack.AppendHuffmanDecode(b, src, max)
	if err != nil {
		return b[:at], nil, errInvalidHuffman
	}
	v := len(b) - at - room
	k := uvarintLen(uint64(v))
	if k < room {
		copy(b[at+k:], b[at+room:])
	}
	binary.AppendUvarint(b[:at], uint64(v))
	return b[:at+k+v], p, nil
}

// uvarintLen is the length of binary.AppendUvarint's encoding of x.
func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }
