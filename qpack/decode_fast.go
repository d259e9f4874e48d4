package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/table"
	"github.com/hqpack/hqpack/internal/wire"
)

// lineState is what decoding a section carries from line to line.
type lineState struct {
	stream    uint64
	ric, base uint64
	budget    int // what is left of MaxSectionSize
	fields    int // fields decoded
	check     field.Check
	// pred says where in the memo the next Huffman string may be (nil
	// without a memo): the memo's first, or the next of the entry of the
	// string before.
	pred *uint8
}

// fastLines decodes the lines of p from off for as long as they take the
// common forms: an indexed field line (static, or dynamic and relative), a
// literal with a name reference (static, or dynamic and relative) or a
// literal name, with indexes and lengths of one or two bytes, and strings
// that are raw, Huffman-coded in a section without the memo, or in the
// memo (only read here, so a name from it stays valid while the value is
// read). It returns the offset of the first line it leaves to
// line (len(p) at the end): any other form, and any line that is wrong or
// over a limit, which line then reports exactly. Only a sink's error, or a
// field that fails validation, is returned from here.
//
// It is line with fewer cases, and its state in st, so that few values
// live across the call to the sink. The value of a literal with a name
// reference, the commonest literal, is read inline.
func (d *Decoder) fastLines(p []byte, off int, st *lineState, sink fastpath.Sink) (int, error) {
	for off < len(p) {
		b := p[off]
		var (
			name, value []byte
			id          static.FieldID
			f           fastpath.Flags
			next        int
		)
		switch {
		case b&0xc0 == 0xc0: // 11xxxxxx Indexed Field Line, static
			idx, k := int(b&0x3f), 1
			if idx == 0x3f {
				if off+1 >= len(p) || p[off+1] >= 0x80 {
					return off, nil
				}
				idx, k = 0x3f+int(p[off+1]), 2
			}
			if idx >= static.QPACKLen {
				return off, nil
			}
			e := &static.QPACKBytes[idx]
			name, value, id = e.Name, e.Value, e.ID
			next = off + k

		case b&0xc0 == 0x80: // 10xxxxxx Indexed Field Line, dynamic
			idx := uint64(b & 0x3f)
			if idx == 0x3f || idx >= st.base {
				return off, nil
			}
			var ok bool
			if name, value, id, ok = d.dynamic(st.base-1-idx, st.ric); !ok {
				return off, nil
			}
			next = off + 1

		case b&0xc0 == 0x40: // 01NTxxxx Literal Field Line with Name Reference
			idx, k := int(b&0x0f), 1
			if idx == 0x0f {
				// Most static names have a two-byte index.
				if off+1 >= len(p) || p[off+1] >= 0x80 {
					return off, nil
				}
				idx, k = 0x0f+int(p[off+1]), 2
			}
			var ok bool
			if b&0x10 == 0 { // dynamic, relative
				if uint64(idx) >= st.base {
					return off, nil
				} else if name, _, id, ok = d.dynamic(st.base-1-uint64(idx), st.ric); !ok {
					return off, nil
				}
			} else if idx >= static.QPACKLen {
				return off, nil
			} else {
				name, id = static.QPACKBytes[idx].Name, static.QPACKBytes[idx].ID
			}
			if b&0x20 != 0 {
				f = fastpath.NeverIndex
			}
			next = off + k
			// The value: fastString's work, inline (the call was a third
			// of a literal's time), with the memo entry compared by
			// whole words.
			if next >= len(p) {
				return off, nil
			}
			c := p[next]
			l, start := int(c&0x7f), next+1
			if l == 0x7f {
				if start >= len(p) || p[start] >= 0x80 {
					return off, nil
				}
				l += int(p[start])
				start++
			}
			limit := min(int(d.maxString), st.budget-len(name)-table.Overhead)
			if l > limit || l > len(p)-start {
				return off, nil
			}
			next = start + l
			q := p[start:next:next]
			switch {
			case c&0x80 == 0:
				value = q
			case !d.memoOn:
				if value, ok = huff(&d.valueBuf, q, limit); !ok {
					return off, nil
				}
			case st.pred == nil:
				return off, nil
			default:
				// Most strings are in the entry st.pred names: compared inline.
				j := *st.pred
				en := &d.memo.ents[j]
				hit := int(en.n) == l
				switch {
				case !hit:
				case l < 8:
					hit = string(d.memo.coded(en)) == string(q)
				case l <= 32:
					w := d.memo.coded(en)
					hit = le64(q) == le64(w) && le64(q[l-8:]) == le64(w[l-8:]) &&
						(l <= 16 || le64(q[8:]) == le64(w[8:]) && le64(q[l-16:]) == le64(w[l-16:]))
				default:
					hit = string(d.memo.coded(en)) == string(q)
				}
				if !hit {
					k := d.memo.index(p, start, next)
					if k < 0 {
						return off, nil
					}
					j = uint8(k)
					*st.pred = j
					en = &d.memo.ents[j]
				}
				st.pred = &d.memo.next[j]
				if value = d.memo.out(en); len(value) > limit {
					return off, nil
				}
			}

		case b&0xe0 == 0x20: // 001NHxxx Literal Field Line with Literal Name
			if b&0x10 != 0 {
				f = fastpath.NeverIndex
			}
			var ok bool
			if name, next, ok = d.fastString(p, off, 3, min(int(d.maxString), st.budget-table.Overhead), st, &d.nameBuf); !ok {
				return off, nil
			}
			if value, next, ok = d.fastString(p, next, 7, min(int(d.maxString), st.budget-len(name)-table.Overhead), st, &d.valueBuf); !ok {
				return off, nil
			}

		default:
			return off, nil
		}
		size := len(name) + len(value) + table.Overhead
		if size > st.budget || st.fields >= int(d.maxFields) {
			return off, nil
		}
		st.budget -= size
		st.fields++
		f = f.WithID(id)
		if d.validate {
			if err := st.check.Field(name, value, f.ID()); err != nil {
				return off, d.sectionErr(st.stream, off, err)
			}
		}
		if err := sink.Field(name, value, f); err != nil {
			return next, err
		}
		off = next
	}
	return off, nil
}

// fastString reads the string literal at p[off:] (H flag at bit n, n-bit
// length) when that is quick: a length of one or two bytes, the string
// whole in p and at most limit bytes long, raw (a subslice, capacity
// trimmed, as wire.ReadString trims it) or Huffman-coded (into *buf when
// the memo is off, or in the memo).
// ok is false for anything else, which sectionString then reads. It returns
// the offset past the string.
//
// The memo is searched where st.pred points first: sections repeat their
// strings in order, so most are found without hashing.
func (d *Decoder) fastString(p []byte, off int, n uint8, limit int, st *lineState, buf *[]byte) (s []byte, next int, ok bool) {
	if off >= len(p) {
		return nil, 0, false
	}
	c := p[off]
	m := 1<<n - 1
	l, start := int(c)&m, off+1
	if l == m {
		if start >= len(p) || p[start] >= 0x80 {
			return nil, 0, false
		}
		l += int(p[start])
		start++
	}
	if l > limit || l > len(p)-start {
		return nil, 0, false
	}
	end := start + l
	if c&(1<<n) == 0 {
		return p[start:end:end], end, true
	}
	if !d.memoOn {
		s, ok = huff(buf, p[start:end], limit)
		return s, end, ok
	}
	if st.pred == nil {
		return nil, 0, false
	}
	// decMemo.index, first where st.pred says.
	memo := d.memo
	j := *st.pred
	en := &memo.ents[j]
	if !memo.is(en, p, start, end) {
		k := memo.index(p, start, end)
		if k < 0 {
			return nil, 0, false
		}
		j = uint8(k)
		*st.pred = j
		en = &memo.ents[j]
	}
	st.pred = &memo.next[j]
	if out := memo.out(en); len(out) <= limit {
		return out, end, true
	}
	return nil, 0, false
}

// huff decodes the Huffman string q into *buf, as readString does, for a
// section without the memo. ok is false on any error, which line reports.
func huff(buf *[]byte, q []byte, limit int) ([]byte, bool) {
	s, err := wire.AppendHuffmanDecode((*buf)[:0], q, limit)
	*buf = s
	return s[:len(s):len(s)], err == nil
}
