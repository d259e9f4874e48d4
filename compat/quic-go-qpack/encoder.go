package qpack

import (
	"io"

	"github.com/hqpack/hqpack/hpack"
)

// An Encoder encodes field sections with the static table only, so it needs
// no encoder stream and no acknowledgments. It writes the bytes
// quic-go/qpack's Encoder writes: an exact static match as an indexed
// field line, a static name with its value, or a literal name and value,
// every string Huffman-coded, no field never-indexed, names as given.
//
// An Encoder is not safe for concurrent use; one encodes one section at a
// time.
type Encoder struct {
	w           io.Writer
	buf         []byte
	wrotePrefix bool
}

// NewEncoder returns an Encoder that writes the encoded sections to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w}
}

// WriteField encodes f into a single Write to the Encoder's writer, after
// the section prefix when f is the first field of a section.
func (e *Encoder) WriteField(f HeaderField) error {
	b := e.buf[:0]
	if !e.wrotePrefix {
		// Required Insert Count 0, Base 0.
		b = append(b, 0, 0)
		e.wrotePrefix = true
	}
	exact, name := lookupStatic(f)
	switch {
	case exact >= 0: // 11xxxxxx: indexed, static
		b = appendInt(b, 0xc0, 6, uint64(exact))
	case name >= 0: // 0101xxxx: static name reference, N 0
		b = appendInt(b, 0x50, 4, uint64(name))
		b = appendHuffman(b, 0x80, 7, f.Value)
	default: // 00101xxx: literal name, N 0, Huffman
		b = appendHuffman(b, 0x28, 3, f.Name)
		b = appendHuffman(b, 0x80, 7, f.Value)
	}
	e.buf = b
	_, err := e.w.Write(b)
	return err
}

// Close ends the section: the next WriteField starts a new one. It writes
// nothing, so a section with no fields is never written.
func (e *Encoder) Close() error {
	e.wrotePrefix = false
	return nil
}

// appendHuffman appends s Huffman-coded, after its length with an n-bit
// prefix in a first byte whose higher bits are first.
//
// Knowing the length first would take a pass over s of its own (a fifth
// of the encoder's time). Instead s is coded after room for the longest
// length its code can have (30 bits a byte), and the code moves down to
// its length's end when that took fewer bytes, which for most strings it
// does not.
func appendHuffman(dst []byte, first byte, n uint8, s string) []byte {
	room := intLen(n, uint64(len(s))*30/8+1)
	at := len(dst)
	dst = append(dst, make([]byte, room)...)
	dst = hpack.AppendHuffman(dst, s)
	l := len(dst) - at - room
	if k := intLen(n, uint64(l)); k < room {
		copy(dst[at+k:], dst[at+room:])
		dst = dst[:at+k+l]
	}
	appendInt(dst[:at], first, n, uint64(l))
	return dst
}
