package fuzz

// hpackScan is a reference reading of an HPACK field section's structure
// (RFC 7541 §6), independent of the decoders: the kinds of the
// representations in order, without decoding any string. The decode target
// uses it to tell the differences RFC 7541 allows between us and x/net from
// bugs.
type hpackScan struct {
	updates          []uint64 // Dynamic Table Size Updates at the start
	updateAfterField bool     // a size update after a field
	fields           int      // field representations read
	longestString    uint64   // longest string literal, as sent
	complete         bool     // the section parsed to its end
}

func scanHPACK(b []byte) hpackScan {
	var s hpackScan
	for len(b) > 0 {
		c := b[0]
		var n uint8
		switch {
		case c&0x80 != 0: // §6.1 indexed
			_, k, err := refReadInt(b, 7)
			if err != nil {
				return s
			}
			b = b[k:]
			s.fields++
			continue
		case c&0xe0 == 0x20: // §6.3 size update
			v, k, err := refReadInt(b, 5)
			if err != nil {
				return s
			}
			b = b[k:]
			if s.fields > 0 {
				s.updateAfterField = true
			} else {
				s.updates = append(s.updates, v)
			}
			continue
		case c&0xc0 == 0x40: // §6.2.1 with incremental indexing
			n = 6
		default: // §6.2.2 without indexing, §6.2.3 never indexed
			n = 4
		}
		idx, k, err := refReadInt(b, n)
		if err != nil {
			return s
		}
		b = b[k:]
		strings := 1
		if idx == 0 {
			strings = 2
		}
		for range strings {
			l, k, err := refReadInt(b, 7)
			if err != nil {
				return s
			}
			s.longestString = max(s.longestString, l)
			if l > uint64(len(b)-k) {
				return s
			}
			b = b[k+int(l):]
		}
		s.fields++
	}
	s.complete = true
	return s
}

// buildHPACK turns a record's payload into a section of well-formed
// representations (RFC 7541 §6), so that the decoders get past the first
// byte: indexes 1 to 76 (all of the static table and the newest dynamic
// entries), the three literal kinds with indexed or literal names, raw or
// Huffman strings, and size updates. Random bytes rarely get that far.
func buildHPACK(p []byte) []byte {
	s := script{p}
	var out []byte
	for s.more() {
		op := s.byte()
		switch op & 7 {
		case 0, 1, 2:
			out = refAppendInt(out, 0x80, 7, 1+uint64(s.byte())%76)
		case 3, 4, 5, 6:
			kind := []struct {
				first byte
				n     uint8
			}{{0x40, 6}, {0x00, 4}, {0x10, 4}}[op>>3%3]
			if op&0x20 != 0 {
				out = refAppendInt(out, kind.first, kind.n, 0)
				out = refAppendString(out, 0, 7, s.str(16), op&0x40 != 0)
			} else {
				out = refAppendInt(out, kind.first, kind.n, 1+uint64(s.byte())%76)
			}
			out = refAppendString(out, 0, 7, s.str(40), op&0x80 != 0)
		case 7:
			out = refAppendInt(out, 0x20, 5, []uint64{0, 64, 256, 4096, uint64(s.uint16())}[s.pick(5)])
		}
	}
	return out
}
