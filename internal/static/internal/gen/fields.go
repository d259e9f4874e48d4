package gen

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// field is one distinct name across both tables, with its FieldID.
type field struct {
	name  string
	ident string // Go constant name
	id    int
	hpack int // lowest HPACK index, 0 if none
	qpack int // lowest QPACK index, -1 if none
}

// initialisms keeps Go naming for the parts that are not plain words.
var initialisms = map[string]string{
	"www":  "WWW",
	"xss":  "XSS",
	"ct":   "CT",
	"etag": "ETag",
}

// reserved are the static package's other exported names.
var reserved = map[string]bool{
	"None": true, "MaxFieldID": true, "FieldID": true, "Entry": true,
	"HPACK": true, "QPACK": true, "HPACKLen": true, "QPACKLen": true,
	"Lookup": true, "LookupBytes": true, "LookupHPACK": true, "LookupQPACK": true,
}

// ident turns a field name into an exported Go identifier:
// ":authority" -> Authority, "x-xss-protection" -> XXSSProtection.
func ident(name string) string {
	var b strings.Builder
	for _, p := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == ':' }) {
		if s, ok := initialisms[p]; ok {
			b.WriteString(s)
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]))
		b.WriteString(p[1:])
	}
	return b.String()
}

// collectFields returns the distinct names of both tables in byte order,
// which puts the pseudo-header fields (':' < 'a') first. IDs start at 1.
func collectFields() ([]field, error) {
	seen := map[string]bool{}
	var names []string
	for _, rows := range [][]row{hpackRows, qpackRows} {
		for _, r := range rows {
			if !seen[r.name] {
				seen[r.name] = true
				names = append(names, r.name)
			}
		}
	}
	sort.Strings(names)
	if len(names) > 255 {
		return nil, fmt.Errorf("%d names do not fit FieldID (uint8)", len(names))
	}
	idents := map[string]string{}
	fields := make([]field, len(names))
	for i, n := range names {
		id := ident(n)
		if !token.IsIdentifier(id) || !token.IsExported(id) {
			return nil, fmt.Errorf("name %q gives bad identifier %q", n, id)
		}
		if reserved[id] {
			return nil, fmt.Errorf("name %q gives reserved identifier %q", n, id)
		}
		if other, ok := idents[id]; ok {
			return nil, fmt.Errorf("names %q and %q both give identifier %q", other, n, id)
		}
		idents[id] = n
		fields[i] = field{name: n, ident: id, id: i + 1, hpack: lowest(hpackRows, n, 0), qpack: lowest(qpackRows, n, -1)}
	}
	return fields, nil
}

// lowest returns the first index in rows with name, or none.
func lowest(rows []row, name string, none int) int {
	for _, r := range rows {
		if r.name == name {
			return r.index
		}
	}
	return none
}

// checkRows rejects transcription slips the cross-check tests would also
// catch, but with a clearer message: gaps, duplicates, bytes a name or
// value cannot hold.
func checkRows(table string, rows []row, first, n int) error {
	if len(rows) != n {
		return fmt.Errorf("%s: %d rows, want %d", table, len(rows), n)
	}
	pairs := map[[2]string]bool{}
	for i, r := range rows {
		if r.index != first+i {
			return fmt.Errorf("%s: row %d has index %d, want %d", table, i, r.index, first+i)
		}
		if r.name == "" {
			return fmt.Errorf("%s %d: empty name", table, r.index)
		}
		for j := 0; j < len(r.name); j++ {
			c := r.name[j]
			if c <= ' ' || c >= 0x7f || ('A' <= c && c <= 'Z') || (c == ':' && j > 0) {
				return fmt.Errorf("%s %d: bad byte %q in name %q", table, r.index, c, r.name)
			}
		}
		for j := 0; j < len(r.value); j++ {
			if c := r.value[j]; c < ' ' || c >= 0x7f {
				return fmt.Errorf("%s %d: bad byte %q in value %q", table, r.index, c, r.value)
			}
		}
		k := [2]string{r.name, r.value}
		if pairs[k] {
			return fmt.Errorf("%s %d: duplicate entry %q: %q", table, r.index, r.name, r.value)
		}
		pairs[k] = true
	}
	return nil
}
