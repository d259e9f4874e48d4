package conformance

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ReadQIF parses a QIF file: one field per line, name and value split at
// the first TAB, a blank line after each field list, '#' comment lines.
func ReadQIF(data []byte) ([]Headers, error) {
	var lists []Headers
	var cur Headers
	open := false
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "#"):
			continue
		case line == "":
			if open {
				lists = append(lists, cur)
				cur, open = nil, false
			}
			continue
		}
		name, value, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("line %d: no TAB between name and value", n+1)
		}
		cur = append(cur, Header{name, value})
		open = true
	}
	if open {
		lists = append(lists, cur)
	}
	return lists, nil
}

// LoadQIF reads and parses the QIF file at path.
func LoadQIF(path string) ([]Headers, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lists, err := ReadQIF(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lists, nil
}

// AppendQIF appends field lists in the QIF format, a blank line after each.
func AppendQIF(dst []byte, lists []Headers) []byte {
	for _, l := range lists {
		for _, h := range l {
			dst = append(dst, h.Name...)
			dst = append(dst, '\t')
			dst = append(dst, h.Value...)
			dst = append(dst, '\n')
		}
		dst = append(dst, '\n')
	}
	return dst
}

// Record is one record of a QIFS encoded file: stream 0 carries
// encoder-stream bytes, any other stream one encoded field section.
type Record struct {
	Stream uint64
	Data   []byte
}

// ErrRecordTruncated reports a QIFS file that ends inside a record.
var ErrRecordTruncated = errors.New("qifs: file ends inside a record")

// ReadRecords splits a QIFS encoded file into its records: stream ID
// (uint64, big-endian), length (uint32, big-endian), payload. The payloads
// alias data.
func ReadRecords(data []byte) ([]Record, error) {
	var recs []Record
	for off := 0; off < len(data); {
		if len(data)-off < 12 {
			return nil, fmt.Errorf("record %d at offset %d: %d bytes, too few for a record header: %w", len(recs), off, len(data)-off, ErrRecordTruncated)
		}
		stream := binary.BigEndian.Uint64(data[off:])
		n := int(binary.BigEndian.Uint32(data[off+8:]))
		if len(data)-off-12 < n {
			return nil, fmt.Errorf("record %d at offset %d (stream %d): length %d, %d bytes left: %w", len(recs), off, stream, n, len(data)-off-12, ErrRecordTruncated)
		}
		off += 12
		recs = append(recs, Record{stream, data[off : off+n : off+n]})
		off += n
	}
	return recs, nil
}

// LoadRecords reads the QIFS encoded file at path and splits it into
// records.
func LoadRecords(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := ReadRecords(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// QIFSName is what the name of a QIFS encoded file says:
// <qif>.out.<capacity>.<blocked>.<ack>.
type QIFSName struct {
	// QIF is the name of the QIF file encoded, without ".qif".
	QIF string
	// Capacity is SETTINGS_QPACK_MAX_TABLE_CAPACITY, Blocked
	// SETTINGS_QPACK_BLOCKED_STREAMS.
	Capacity, Blocked uint64
	// Ack is the ack mode: 1 when the encoder took each section as
	// acknowledged once sent, 0 when it expected no acknowledgment.
	Ack int
}

// ParseQIFSName parses the name of a QIFS encoded file of the current
// format, such as fb-req.out.256.100.1.
func ParseQIFSName(name string) (QIFSName, error) {
	parts := strings.Split(name, ".")
	if len(parts) != 5 || parts[1] != "out" || parts[0] == "" {
		return QIFSName{}, fmt.Errorf("%s: want <qif>.out.<capacity>.<blocked>.<ack>", name)
	}
	capacity, err1 := strconv.ParseUint(parts[2], 10, 64)
	blocked, err2 := strconv.ParseUint(parts[3], 10, 64)
	if err := errors.Join(err1, err2); err != nil || (parts[4] != "0" && parts[4] != "1") {
		return QIFSName{}, fmt.Errorf("%s: want <qif>.out.<capacity>.<blocked>.<ack> with numbers and ack 0 or 1", name)
	}
	return QIFSName{parts[0], capacity, blocked, int(parts[4][0] - '0')}, nil
}

// String returns the file name.
func (n QIFSName) String() string {
	return fmt.Sprintf("%s.out.%s", n.QIF, n.Setting())
}

// Setting returns the settings part of the name: <capacity>.<blocked>.<ack>.
func (n QIFSName) Setting() string {
	return fmt.Sprintf("%d.%d.%d", n.Capacity, n.Blocked, n.Ack)
}

// AppendRecord appends one QIFS record.
func AppendRecord(dst []byte, stream uint64, payload []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, stream)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(payload)))
	return append(dst, payload...)
}

// equalHeaders reports whether two field lists are the same, in order.
func equalHeaders(a, b Headers) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// firstDifference describes where got departs from want.
func firstDifference(got, want Headers) string {
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("field %d: got %q: %q, want %q: %q", i, got[i].Name, got[i].Value, want[i].Name, want[i].Value)
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "got %d fields, want %d", len(got), len(want))
	return b.String()
}
