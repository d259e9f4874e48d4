package qpack

// A HeaderField is a name-value pair. Both are opaque octet sequences: the
// Encoder sends them as given, and the Decoder returns them as received.
type HeaderField struct {
	Name  string
	Value string
}

// IsPseudo reports whether the field is an HTTP/3 pseudo-header field:
// whether its name starts with a colon. It does not check that the name
// is one of those HTTP/3 defines.
func (hf HeaderField) IsPseudo() bool {
	return len(hf.Name) != 0 && hf.Name[0] == ':'
}
