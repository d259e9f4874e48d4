package conformance

import (
	"encoding/hex"
	"fmt"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
)

// CaseError names the case of a story that failed.
type CaseError struct {
	Seqno int
	Err   error
}

func (e *CaseError) Error() string { return fmt.Sprintf("case %d: %v", e.Seqno, e.Err) }

// Unwrap returns the cause.
func (e *CaseError) Unwrap() error { return e.Err }

// Inflate decodes every case of s in order with one decoder whose table
// size starts at tableSize (both ends' SETTINGS_HEADER_TABLE_SIZE before
// the first case: 4096 in hpack-test-case), and sets each case's Headers. header_table_size
// is applied before its case.
func Inflate(s *Story, tableSize int) error {
	blocks, err := storyWires(s)
	if err != nil {
		return err
	}
	lists, err := decodeBlocks(s, blocks, tableSize)
	if err != nil {
		return err
	}
	for i := range s.Cases {
		s.Cases[i].Headers = lists[i]
	}
	return nil
}

// Deflate encodes every case of s in order with one encoder made from cfg,
// and sets each case's Wire and Seqno. header_table_size is applied before
// its case, as the peer's SETTINGS_HEADER_TABLE_SIZE.
func Deflate(s *Story, cfg hpack.Config) error {
	for i, b := range encodeStory(s, cfg, false) {
		c := &s.Cases[i]
		c.Wire = hex.EncodeToString(b)
		n := i
		c.Seqno = &n
	}
	return nil
}

// storyWires returns the header blocks of a story's cases.
func storyWires(s *Story) ([][]byte, error) {
	blocks := make([][]byte, len(s.Cases))
	for i := range s.Cases {
		b, err := hex.DecodeString(s.Cases[i].Wire)
		if err != nil {
			return nil, &CaseError{i, fmt.Errorf("wire is not hex: %w", err)}
		}
		blocks[i] = b
	}
	return blocks, nil
}

// encodeStory encodes the cases' headers in order with one encoder made
// from cfg, applying each case's header_table_size first, and returns the
// header blocks. With raw, a content-length of digits goes through the
// encoder's raw Content-Length fast path.
func encodeStory(s *Story, cfg hpack.Config, raw bool) [][]byte {
	enc := new(hpack.Encoder)
	enc.Init(cfg)
	var fields fastpath.FieldList
	out := make([][]byte, len(s.Cases))
	for i := range s.Cases {
		c := &s.Cases[i]
		if c.HeaderTableSize != nil {
			enc.SetMaxTableSize(uint32(*c.HeaderTableSize))
		}
		fillFields(&fields, c.Headers, raw)
		out[i] = enc.AppendSection(nil, &fields)
	}
	return out
}

// decodeBlocks decodes a story's header blocks in order with one of our
// decoders whose table size starts at tableSize (our
// SETTINGS_HEADER_TABLE_SIZE, and the table size the peer starts with),
// applying each case's header_table_size first. It returns the fields of each block.
func decodeBlocks(s *Story, blocks [][]byte, tableSize int) ([]Headers, error) {
	var d hpack.Decoder
	d.Init(hpack.DecoderConfig{MaxTableSize: sizeConfig(tableSize), InitialTableSize: sizeConfig(tableSize)})
	var sink fastpath.SinkList
	out := make([]Headers, len(blocks))
	for i, b := range blocks {
		if c := &s.Cases[i]; c.HeaderTableSize != nil {
			d.SetMaxTableSize(uint32(*c.HeaderTableSize))
		}
		sink.Reset()
		if err := d.Decode(b, &sink); err != nil {
			return nil, &CaseError{i, err}
		}
		out[i] = sinkHeaders(&sink)
	}
	return out, nil
}

// sinkHeaders copies the fields of a sink.
func sinkHeaders(sink *fastpath.SinkList) Headers {
	h := make(Headers, sink.Len())
	for i := range h {
		name, value, _ := sink.At(i)
		h[i] = Header{string(name), string(value)}
	}
	return h
}

// sizeConfig turns a table size into the hpack configs' convention, where 0
// means the default and NoTable means 0.
func sizeConfig(n int) int {
	if n == 0 {
		return hpack.NoTable
	}
	return n
}
