package field

import (
	"errors"
	"fmt"

	"github.com/hqpack/hqpack/internal/static"
)

// The malformed-field errors of both codecs (hpack and qpack re-export
// them): each matches ErrMalformedField with errors.Is.
var (
	ErrMalformedField     = errors.New("malformed field")
	ErrInvalidFieldName   = fmt.Errorf("%w: invalid field name", ErrMalformedField)
	ErrInvalidFieldValue  = fmt.Errorf("%w: invalid field value", ErrMalformedField)
	ErrPseudoAfterRegular = fmt.Errorf("%w: pseudo-header field after a regular field", ErrMalformedField)
)

// Check validates the fields of one section in order, as a decoder hands
// them out: names and values by RFC 9113 §8.2.1 (RFC 9114 §4.2), pseudo-header
// fields by §8.3 (§4.3): defined ones, before every regular field. The
// zero Check starts a section.
type Check struct {
	regular bool // a regular field was seen: no pseudo-header may follow
}

// Field checks the next field; id is its name's static.FieldID when the
// decoder knows it from a static reference (then the name is known valid),
// or static.None.
func (c *Check) Field(name, value []byte, id static.FieldID) error {
	if IsPseudo(name) {
		if c.regular {
			return ErrPseudoAfterRegular
		}
		if !id.IsPseudo() && !KnownPseudo(name) {
			return ErrInvalidFieldName
		}
	} else {
		c.regular = true
		if id == static.None && !ValidName(name) {
			return ErrInvalidFieldName
		}
	}
	if !ValidValue(value) {
		return ErrInvalidFieldValue
	}
	return nil
}
