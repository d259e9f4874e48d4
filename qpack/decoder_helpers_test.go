package qpack

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// qifsRecord is one record of a QIFS encoded file: stream 0 is encoder-stream
// data, any other stream one encoded field section.
type qifsRecord struct {
	stream uint64
	data   []byte
}

// readQIFS splits an encoded interop file into its records.
func readQIFS(b []byte) ([]qifsRecord, error) {
	var recs []qifsRecord
	for len(b) > 0 {
		if len(b) < 12 {
			return nil, fmt.Errorf("truncated record header at %d bytes from the end", len(b))
		}
		id := binary.BigEndian.Uint64(b)
		n := binary.BigEndian.Uint32(b[8:])
		b = b[12:]
		if uint64(n) > uint64(len(b)) {
			return nil, fmt.Errorf("record of stream %d: %d bytes, %d left", id, n, len(b))
		}
		recs = append(recs, qifsRecord{id, b[:n]})
		b = b[n:]
	}
	return recs, nil
}

// parseQIF reads a QIF file: name<TAB>value lines, a blank line after each
// header list, # comments.
func parseQIF(b []byte) ([][][2]string, error) {
	var lists [][][2]string
	var cur [][2]string
	open := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			if open {
				lists = append(lists, cur)
				cur, open = nil, false
			}
		default:
			name, value, ok := strings.Cut(line, "\t")
			if !ok {
				return nil, fmt.Errorf("line without TAB: %q", line)
			}
			cur = append(cur, [2]string{name, value})
			open = true
		}
	}
	if open {
		lists = append(lists, cur)
	}
	return lists, sc.Err()
}

func newDecoder(cfg DecoderConfig) *Decoder {
	d := new(Decoder)
	d.Init(cfg)
	return d
}
