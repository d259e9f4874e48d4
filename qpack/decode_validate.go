package qpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/field"
)

// fieldCheck validates the fields of one section as they are decoded: RFC
// 9114 §4.2 for names and values, §4.3 for pseudo-header fields, which must
// be defined ones and come before every regular field. These are HTTP/2's
// rules (RFC 9113 §8.2.1, §8.3), checked as the hpack package checks them.
type fieldCheck struct {
	regular bool // a regular field was seen: no pseudo-header may follow
}

func (c *fieldCheck) field(name, value []byte, f fastpath.Flags) error {
	if field.IsPseudo(name) {
		if c.regular {
			return ErrPseudoAfterRegular
		}
		// A static-table pseudo-header name is known without a compare.
		if !f.ID().IsPseudo() && !field.KnownPseudo(name) {
			return ErrInvalidFieldName
		}
	} else {
		c.regular = true
		if f.ID() == 0 && !field.ValidName(name) {
			return ErrInvalidFieldName
		}
	}
	if !field.ValidValue(value) {
		return ErrInvalidFieldValue
	}
	return nil
}
