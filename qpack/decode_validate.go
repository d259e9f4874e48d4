package qpack

import "github.com/hqpack/hqpack/fastpath"

// fieldCheck validates the fields of one section as they are decoded: RFC
// 9114 §4.2 for names and values, §4.3 for pseudo-header fields, which must
// be defined ones and come before every regular field. These are HTTP/2's
// rules (RFC 9113 §8.2.1, §8.3), checked as the hpack package checks them.
type fieldCheck struct {
	regular bool // a regular field was seen: no pseudo-header may follow
}

func (c *fieldCheck) field(name, value []byte, f fastpath.Flags) error {
	if fastpath.IsPseudo(name) {
		if c.regular {
			return ErrPseudoAfterRegular
		}
		// A static-table pseudo-header name is known without a compare.
		if !f.ID().IsPseudo() && !fastpath.KnownPseudo(name) {
			return ErrInvalidFieldName
		}
	} else {
		c.regular = true
		if f.ID() == 0 && !fastpath.ValidName(name) {
			return ErrInvalidFieldName
		}
	}
	if !fastpath.ValidValue(value) {
		return ErrInvalidFieldValue
	}
	return nil
}
