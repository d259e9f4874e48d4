package conformance

import (
	"encoding/json"
	"fmt"
	"os"
)

// RFCExamples holds rfc-examples.json: the examples of RFC 7541 Appendix C
// and RFC 9204 Appendix B, rewritten as data (its "conventions" member
// describes every field).
type RFCExamples struct {
	HPACK []HPACKExample
	QPACK []QPACKExample
}

// HPACKExample is one example of RFC 7541 Appendix C: one header block.
type HPACKExample struct {
	ID string `json:"id"`
	// FreshContext starts a new encoder and decoder; otherwise the example
	// continues the previous one's context.
	FreshContext bool `json:"fresh_context"`
	// Huffman says whether the example codes its strings with Huffman.
	Huffman  bool `json:"huffman"`
	Settings struct {
		HeaderTableSize int `json:"header_table_size"`
	} `json:"settings"`
	Headers []RFCField `json:"headers"`
	WireHex string     `json:"wire_hex"`
	// Representations is what the RFC's encoder chose for each field.
	Representations []struct {
		Kind      string `json:"kind"`
		Index     int    `json:"index"`
		NameIndex int    `json:"name_index"`
	} `json:"representations"`
	// TableAfter is the dynamic table after the block, newest first.
	TableAfter     []RFCEntry `json:"dynamic_table_after"`
	TableSizeAfter int        `json:"dynamic_table_size_after"`
}

// RFCField is one field of an example.
type RFCField struct {
	Name       string `json:"name"`
	Value      string `json:"value"`
	NeverIndex bool   `json:"never_index"`
}

// RFCEntry is one dynamic table entry after an example or a step: Index is
// its HPACK index (62 is the newest), AbsoluteIndex its QPACK one.
type RFCEntry struct {
	Index         int    `json:"index"`
	AbsoluteIndex uint64 `json:"absolute_index"`
	Name          string `json:"name"`
	Value         string `json:"value"`
	Size          int    `json:"size"`
}

// QPACKExample is one example of RFC 9204 Appendix B: steps on the encoder
// stream, the decoder stream and request streams, in RFC order.
type QPACKExample struct {
	ID           string `json:"id"`
	FreshContext bool   `json:"fresh_context"`
	Settings     struct {
		MaxTableCapacity  uint64 `json:"max_table_capacity"`
		MaxBlockedStreams uint64 `json:"max_blocked_streams"`
	} `json:"settings"`
	EncoderStreamHex   string      `json:"encoder_stream_hex"`
	DecoderStreamHex   string      `json:"decoder_stream_hex"`
	Steps              []QPACKStep `json:"steps"`
	TableAfter         []RFCEntry  `json:"dynamic_table_after"`
	TableSizeAfter     int         `json:"dynamic_table_size_after"`
	TableCapacityAfter int         `json:"dynamic_table_capacity_after"`
	InsertCountAfter   uint64      `json:"insert_count_after"`
}

// QPACKStep is one step of a QPACK example: instructions on the encoder or
// decoder stream, or one field section on a request stream.
type QPACKStep struct {
	Stream StepStream `json:"stream"`
	Hex    string     `json:"hex"`
	// Instructions are the encoder- or decoder-stream instructions.
	Instructions []QPACKInstruction `json:"instructions"`
	// RequiredInsertCount and Base are a section's decoded prefix.
	RequiredInsertCount uint64     `json:"required_insert_count"`
	Base                uint64     `json:"base"`
	Headers             []RFCField `json:"headers"`
	// Representations is what the RFC's encoder chose for each field line.
	Representations []QPACKRepresentation `json:"representations"`
	// TableAfter is the encoder's dynamic table after the step, oldest
	// first.
	TableAfter struct {
		Entries     []RFCEntry `json:"entries"`
		Size        int        `json:"size"`
		InsertCount uint64     `json:"insert_count"`
	} `json:"table_after"`
}

// StepStream is a step's stream: "encoder", "decoder", or a request stream
// ID (Kind "section").
type StepStream struct {
	Kind string
	ID   uint64
}

// UnmarshalJSON reads a stream name or a stream ID.
func (s *StepStream) UnmarshalJSON(data []byte) error {
	var name string
	if json.Unmarshal(data, &name) == nil {
		if name != "encoder" && name != "decoder" {
			return fmt.Errorf("stream %q: want encoder, decoder or a stream ID", name)
		}
		*s = StepStream{Kind: name}
		return nil
	}
	var id uint64
	if err := json.Unmarshal(data, &id); err != nil {
		return fmt.Errorf("stream %s: want encoder, decoder or a stream ID", data)
	}
	*s = StepStream{Kind: "section", ID: id}
	return nil
}

func (s StepStream) String() string {
	if s.Kind == "section" {
		return fmt.Sprintf("stream %d", s.ID)
	}
	return s.Kind + " stream"
}

// QPACKInstruction is one encoder- or decoder-stream instruction.
type QPACKInstruction struct {
	Op            string `json:"op"`
	Static        bool   `json:"static"`
	NameIndex     uint64 `json:"name_index"`
	RelativeIndex uint64 `json:"relative_index"`
	Name          string `json:"name"`
	Value         string `json:"value"`
	Capacity      uint64 `json:"capacity"`
	StreamID      uint64 `json:"stream_id"`
}

// QPACKRepresentation is one field line of a section.
type QPACKRepresentation struct {
	Kind          string `json:"kind"`
	Static        bool   `json:"static"`
	Index         uint64 `json:"index"`
	NameIndex     uint64 `json:"name_index"`
	RelativeIndex uint64 `json:"relative_index"`
	PostBaseIndex uint64 `json:"post_base_index"`
	NeverIndex    bool   `json:"never_index"`
}

// ReadRFCExamples parses rfc-examples.json.
func ReadRFCExamples(data []byte) (*RFCExamples, error) {
	var doc struct {
		Examples []json.RawMessage `json:"examples"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, placeJSONError(data, err)
	}
	var ex RFCExamples
	for i, raw := range doc.Examples {
		var head struct {
			ID       string `json:"id"`
			Protocol string `json:"protocol"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("example %d: %w", i, err)
		}
		var err error
		switch head.Protocol {
		case "hpack":
			ex.HPACK = append(ex.HPACK, HPACKExample{})
			err = json.Unmarshal(raw, &ex.HPACK[len(ex.HPACK)-1])
		case "qpack":
			ex.QPACK = append(ex.QPACK, QPACKExample{})
			err = json.Unmarshal(raw, &ex.QPACK[len(ex.QPACK)-1])
		default:
			err = fmt.Errorf("protocol %q: want hpack or qpack", head.Protocol)
		}
		if err != nil {
			return nil, fmt.Errorf("example %d (%s): %w", i, head.ID, err)
		}
	}
	if len(ex.HPACK) == 0 || len(ex.QPACK) == 0 {
		return nil, fmt.Errorf("%d HPACK and %d QPACK examples: want both", len(ex.HPACK), len(ex.QPACK))
	}
	return &ex, nil
}

// LoadRFCExamples reads and parses the rfc-examples.json file at path.
func LoadRFCExamples(path string) (*RFCExamples, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ex, err := ReadRFCExamples(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ex, nil
}
