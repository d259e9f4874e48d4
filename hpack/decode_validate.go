package hpack

import "github.com/hqpack/hqpack/fastpath"

// check validates a decoded field (DecoderConfig.Validate): RFC 9113
// §8.2.1 for names and values, §8.3 for pseudo-header fields, which must
// be defined ones and come before every regular field.
func (d *Decoder) check(name, value []byte, f fastpath.Flags) error {
	if fastpath.IsPseudo(name) {
		if d.regular {
			return ErrPseudoAfterRegular
		}
		// A static-table pseudo-header name is known without a compare.
		if !f.ID().IsPseudo() && !fastpath.KnownPseudo(name) {
			return ErrInvalidFieldName
		}
	} else {
		d.regular = true
		if f.ID() == 0 && !fastpath.ValidName(name) {
			return ErrInvalidFieldName
		}
	}
	if !fastpath.ValidValue(value) {
		return ErrInvalidFieldValue
	}
	return nil
}
