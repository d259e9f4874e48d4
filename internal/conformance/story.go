package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// Story is an hpack-test-case story: header blocks that share one coding
// context and must be handled in order.
type Story struct {
	Description string `json:"description,omitempty"`
	Context     string `json:"context,omitempty"`
	Cases       []Case `json:"cases"`
}

// Case is one header block of a Story.
type Case struct {
	// Seqno is the case's position in the story; nil in raw-data stories.
	Seqno *int `json:"seqno,omitempty"`
	// Wire is the encoded header block in lowercase hex.
	Wire string `json:"wire,omitempty"`
	// Headers is the field list, in wire order; names may repeat.
	Headers Headers `json:"headers,omitempty"`
	// HeaderTableSize, when set, is the SETTINGS_HEADER_TABLE_SIZE acked
	// just before this case.
	HeaderTableSize *int `json:"header_table_size,omitempty"`
}

// Header is one field of a Case.
type Header struct{ Name, Value string }

// Headers is a field list written as one-key JSON objects, as the
// hpack-test-case format has it: [{":status":"200"}, ...].
type Headers []Header

// MarshalJSON writes the one-key-object form, keeping order and repeats.
func (h Headers) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, f := range h {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f.Name)
		value, _ := json.Marshal(f.Value)
		b.WriteByte('{')
		b.Write(name)
		b.WriteByte(':')
		b.Write(value)
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the one-key-object form. It scans the array itself:
// a map per field, as encoding/json would make, costs seconds over the corpus.
func (h *Headers) UnmarshalJSON(data []byte) error {
	p := headerParser{data: data}
	out, err := p.parse()
	if err != nil {
		return err
	}
	*h = out
	return nil
}

// ReadStory parses a story from data. A malformed story is an error that
// says where: the line and column, or the case and the header.
func ReadStory(data []byte) (*Story, error) {
	var s Story
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, placeJSONError(data, err)
	}
	for i, c := range s.Cases {
		if c.Seqno != nil && *c.Seqno != i {
			return nil, fmt.Errorf("case %d: seqno %d", i, *c.Seqno)
		}
		if c.HeaderTableSize != nil && *c.HeaderTableSize < 0 {
			return nil, fmt.Errorf("case %d: negative header_table_size %d", i, *c.HeaderTableSize)
		}
	}
	return &s, nil
}

// placeJSONError adds the place of a story's JSON error: the line and
// column of a syntax or type error, or the case whose headers are wrong.
func placeJSONError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s: %w", lineColumn(data, syn.Offset), err)
	case errors.As(err, &typ):
		return fmt.Errorf("%s: %w", lineColumn(data, typ.Offset), err)
	}
	// An error from Headers.UnmarshalJSON: find its case the slow way.
	var raw struct{ Cases []json.RawMessage }
	if json.Unmarshal(data, &raw) == nil {
		for i, c := range raw.Cases {
			var one Case
			if e := json.Unmarshal(c, &one); e != nil {
				return fmt.Errorf("case %d: %w", i, e)
			}
		}
	}
	return err
}

// lineColumn names the place of byte offset off in data (1-based).
func lineColumn(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// LoadStory reads and parses the story file at path.
func LoadStory(path string) (*Story, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ReadStory(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Marshal writes the story as indented JSON, with a final newline.
func (s *Story) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
