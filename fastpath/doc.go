// Package fastpath holds what the hpack and qpack encoders and decoders
// share at the boundary with a server: the Enumerator an encoder reads a
// field section from, with a raw numeric Content-Length that is formatted
// straight into the output; the Sink a decoder writes fields to; ready
// implementations of both (FieldList and SinkList); the policies both
// encoders take (Indexing, HuffmanPolicy); the FieldID of each name in the
// static tables, which decoders report in Flags (LookupField); and the
// errors both codecs' decoders report (ErrTruncated, ErrInvalidIndex,
// ErrSectionTooLarge, ErrClosed, ErrMalformedField, ...), defined once
// here so that one errors.Is serves HPACK and QPACK.
//
// Nothing here allocates on the paths a server runs per request or
// response, once its lists have grown to the sizes it sees:
//
//	var fields fastpath.FieldList
//	fields.Add(":status", "200", 0)
//	fields.Add("content-type", "text/html", 0)
//	fields.AddContentLength(int64(len(body)))
//	dst = enc.AppendSection(dst[:0], &fields)
//	fields.Reset()
package fastpath
