package hpack

import (
	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/field"
)

// check validates a decoded field (DecoderConfig.Validate): RFC 9113
// §8.2.1 for names and values, §8.3 for pseudo-header fields, which must
// be defined ones and come before every regular field.
func (d *Decoder) check(name, value []byte, f fastpath.Flags) error {
	if field.IsPseudo(name) {
		if d.regular {
			return ErrPseudoAfterRegular
		}
		// A static-table pseudo-header name is known without a compare.
		if !f.ID().IsPseudo() && !field.KnownPseudo(name) {
			return ErrInvalidFieldName
		}
	} else {
		d.regular = true
		if f.ID() == 0 && !field.ValidName(name) {
			return ErrInvalidFieldName
		}
	}
	if !field.ValidValue(value) {
		return ErrInvalidFieldValue
	}
	return nil
}
