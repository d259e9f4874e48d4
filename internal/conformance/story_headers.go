package conformance

import (
	"encoding/json"
	"fmt"
)

// headerParser reads a Headers array, [{"name":"value"}, ...], from JSON
// that encoding/json has already found well formed.
type headerParser struct {
	data []byte
	off  int
}

func (p *headerParser) parse() (Headers, error) {
	if p.skip(); !p.eat('[') {
		if p.literal("null") {
			return nil, nil
		}
		return nil, p.errorf("headers: want an array")
	}
	var out Headers
	for i := 0; ; i++ {
		if p.skip(); p.eat(']') {
			return out, nil
		}
		if i > 0 {
			if !p.eat(',') {
				return nil, p.errorf("headers: want ',' or ']' after header %d", i-1)
			}
			p.skip()
		}
		if !p.eat('{') {
			return nil, p.errorf("header %d: want an object with one name", i)
		}
		p.skip()
		name, err := p.str()
		if err != nil {
			return nil, fmt.Errorf("header %d: %w", i, err)
		}
		if p.skip(); !p.eat(':') {
			return nil, p.errorf("header %d: want ':'", i)
		}
		p.skip()
		value, err := p.str()
		if err != nil {
			return nil, fmt.Errorf("header %d: %w", i, err)
		}
		if p.skip(); !p.eat('}') {
			return nil, p.errorf("header %d: want one name and its value", i)
		}
		out = append(out, Header{name, value})
	}
}

func (p *headerParser) skip() {
	for p.off < len(p.data) {
		switch p.data[p.off] {
		case ' ', '\t', '\n', '\r':
			p.off++
		default:
			return
		}
	}
}

func (p *headerParser) eat(c byte) bool {
	if p.off < len(p.data) && p.data[p.off] == c {
		p.off++
		return true
	}
	return false
}

func (p *headerParser) literal(s string) bool {
	if len(p.data)-p.off >= len(s) && string(p.data[p.off:p.off+len(s)]) == s {
		p.off += len(s)
		return true
	}
	return false
}

// str reads a JSON string; only one with escapes goes through encoding/json.
func (p *headerParser) str() (string, error) {
	if p.off >= len(p.data) || p.data[p.off] != '"' {
		return "", p.errorf("want a string")
	}
	start, escaped := p.off, false
	for i := start + 1; i < len(p.data); i++ {
		switch p.data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			p.off = i + 1
			if !escaped {
				return string(p.data[start+1 : i]), nil
			}
			var s string
			if err := json.Unmarshal(p.data[start:i+1], &s); err != nil {
				return "", p.errorf("%v", err)
			}
			return s, nil
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *headerParser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d in headers: %s", p.off, fmt.Sprintf(format, args...))
}
