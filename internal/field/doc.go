// Package field holds the field-name and field-value rules both codecs
// share: the validation of RFC 9113 §8.2.1 and §8.3 (RFC 9114 §4.2 and
// §4.3 say the same for HTTP/3) and lowercasing of names. The decoders
// validate with it (DecoderConfig.Validate), the encoders lowercase with it.
package field
