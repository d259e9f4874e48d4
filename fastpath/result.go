package fastpath

// Result tells the caller of an encoder's Begin and Continue (hpack and
// qpack) what to do with dst[:n].
type Result uint8

const (
	// Done: the section is complete; dst[:n] is its last piece (in HTTP/2,
	// send it with END_HEADERS).
	Done Result = iota
	// MoreFields: dst[:n] is a piece of the section and more follows; send
	// it and call Continue. A piece holds whole fields (in QPACK also the
	// section prefix) and stops before a field that does not fit after
	// them, except for a field that does not fit an empty dst either: that
	// one is split, dst filled, and the rest comes first in the next piece.
	// n is never 0.
	MoreFields
	// BufferTooSmall: dst is empty (len 0), so nothing was written; the
	// section stays as it was. Call Continue with a non-empty dst.
	BufferTooSmall
	// NoSection: Continue was called with no section in progress (none
	// begun, or the last one done); nothing was written.
	NoSection
	// ListChanged: hpack's Continue found the section's FieldList reset,
	// moved or added to since Begin (it reads fields as pieces go out);
	// nothing was written and the section cannot be finished.
	ListChanged
)

// String returns the constant's name.
func (r Result) String() string {
	if r <= ListChanged {
		return [...]string{"Done", "MoreFields", "BufferTooSmall", "NoSection", "ListChanged"}[r]
	}
	return "Result(?)"
}

// Indexing is an encoder's policy for inserting fields into the dynamic
// table (hpack and qpack). Per-field flags override it (NeverIndex,
// NoIndex, Index), except that content-length never enters the table, so
// that its raw fast path and its string form always encode the same.
type Indexing uint8

const (
	// IndexDefault is nghttp2's policy: never insert content-length, :path,
	// age, etag, if-modified-since, if-none-match, location and set-cookie
	// (values that rarely repeat), nor fields larger than 3/4 of the table;
	// send authorization, and cookie values shorter than 20 bytes, as never
	// indexed (low-entropy secrets). The QPACK encoder also inserts a field
	// only when it judges that the entry will be used.
	IndexDefault Indexing = iota
	// IndexAll inserts every field that fits in the table, as the examples
	// of RFC 7541 Appendix C and RFC 9204 Appendix B do.
	IndexAll
	// IndexNone inserts nothing; the encoder uses the static table only
	// (fields flagged Index still go in).
	IndexNone
)

// String returns the constant's name.
func (x Indexing) String() string {
	if x <= IndexNone {
		return [...]string{"IndexDefault", "IndexAll", "IndexNone"}[x]
	}
	return "Indexing(?)"
}
