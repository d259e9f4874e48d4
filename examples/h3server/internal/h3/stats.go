package h3

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Counters are a connection's QPACK counters, in both directions.
type Counters struct {
	Requests uint64 // requests sent (client) or answered (server)

	InsertsSent     uint64 // entries our encoder inserted into the peer's table
	InsertsReceived uint64 // entries the peer inserted into ours

	SectionsSent         uint64 // field sections we encoded
	SectionsSentDynamic  uint64 // of them, with dynamic-table references
	DynamicRefsSent      uint64 // field lines we sent that reference the dynamic table
	SectionBytesSent     uint64 // HEADERS payloads we sent
	SectionsRecv         uint64 // field sections we decoded
	SectionsRecvDynamic  uint64
	DynamicRefsRecv      uint64
	SectionBytesRecv     uint64
	SectionsBlocked      uint64 // received sections that waited for inserts
	MaxBlocked           uint64 // the most held at once
	EncoderStreamSent    uint64 // bytes on our encoder stream (type byte included)
	EncoderStreamRecv    uint64
	DecoderStreamSent    uint64
	DecoderStreamRecv    uint64
	StreamCancellations  uint64 // streams we cancelled on our decoder stream
	StreamErrors         uint64 // requests or responses reset or refused for a stream error
	ConnectionErrorCode  uint64 // the code we closed the connection with, 0 for none
	ConnectionErrorCount uint64 // 1 when we closed it for an error
}

// Add adds o's counters to c (MaxBlocked: the larger one).
func (c *Counters) Add(o Counters) {
	c.Requests += o.Requests
	c.InsertsSent += o.InsertsSent
	c.InsertsReceived += o.InsertsReceived
	c.SectionsSent += o.SectionsSent
	c.SectionsSentDynamic += o.SectionsSentDynamic
	c.DynamicRefsSent += o.DynamicRefsSent
	c.SectionBytesSent += o.SectionBytesSent
	c.SectionsRecv += o.SectionsRecv
	c.SectionsRecvDynamic += o.SectionsRecvDynamic
	c.DynamicRefsRecv += o.DynamicRefsRecv
	c.SectionBytesRecv += o.SectionBytesRecv
	c.SectionsBlocked += o.SectionsBlocked
	c.MaxBlocked = max(c.MaxBlocked, o.MaxBlocked)
	c.EncoderStreamSent += o.EncoderStreamSent
	c.EncoderStreamRecv += o.EncoderStreamRecv
	c.DecoderStreamSent += o.DecoderStreamSent
	c.DecoderStreamRecv += o.DecoderStreamRecv
	c.StreamCancellations += o.StreamCancellations
	c.StreamErrors += o.StreamErrors
	c.ConnectionErrorCount += o.ConnectionErrorCount
	if o.ConnectionErrorCode != 0 {
		c.ConnectionErrorCode = o.ConnectionErrorCode
	}
}

// String formats the counters as name=value pairs on one line, the form
// the CI scripts read.
func (c Counters) String() string {
	var b strings.Builder
	kv := func(k string, v uint64) { fmt.Fprintf(&b, " %s=%d", k, v) }
	kv("requests", c.Requests)
	kv("inserts_sent", c.InsertsSent)
	kv("inserts_recv", c.InsertsReceived)
	kv("sections_sent", c.SectionsSent)
	kv("sections_sent_dynamic", c.SectionsSentDynamic)
	kv("dynamic_refs_sent", c.DynamicRefsSent)
	kv("section_bytes_sent", c.SectionBytesSent)
	kv("sections_recv", c.SectionsRecv)
	kv("sections_recv_dynamic", c.SectionsRecvDynamic)
	kv("dynamic_refs_recv", c.DynamicRefsRecv)
	kv("section_bytes_recv", c.SectionBytesRecv)
	kv("sections_blocked", c.SectionsBlocked)
	kv("max_blocked", c.MaxBlocked)
	kv("encoder_stream_sent", c.EncoderStreamSent)
	kv("encoder_stream_recv", c.EncoderStreamRecv)
	kv("decoder_stream_sent", c.DecoderStreamSent)
	kv("decoder_stream_recv", c.DecoderStreamRecv)
	kv("stream_cancellations", c.StreamCancellations)
	kv("stream_errors", c.StreamErrors)
	kv("connection_errors", c.ConnectionErrorCount)
	if c.ConnectionErrorCode != 0 {
		fmt.Fprintf(&b, " connection_error=%v", ErrCode(c.ConnectionErrorCode))
	}
	return strings.TrimPrefix(b.String(), " ")
}

// stats are the live counters of a connection; the QPACK insert counts
// come from the codecs when a snapshot is taken.
type stats struct {
	requests                                                        atomic.Uint64
	sectionsSent, sectionsSentDynamic, refsSent, sectionBytesSent   atomic.Uint64
	sectionsRecv, sectionsRecvDynamic, refsRecv, sectionBytesRecv   atomic.Uint64
	sectionsBlocked, maxBlocked                                     atomic.Uint64
	encSent, encRecv, decSent, decRecv, cancellations, streamErrors atomic.Uint64
	connErrCode                                                     atomic.Uint64
}

// dynamicRefs counts the field lines of an encoded section that reference
// the dynamic table (RFC 9204 §4.5): indexed lines and name references with
// the T bit clear, and both post-base forms. ok is false for a section it
// cannot parse; the decoder reports those.
func dynamicRefs(p []byte) (n uint64, ok bool) {
	// The prefix: Required Insert Count, then the sign bit and Delta Base.
	_, k, ok := prefixInt(p, 8)
	if !ok {
		return 0, false
	}
	p = p[k:]
	if _, k, ok = prefixInt(p, 7); !ok {
		return 0, false
	}
	p = p[k:]
	for len(p) > 0 {
		b := p[0]
		var value bool // a string value follows the name part
		switch {
		case b&0x80 != 0: // Indexed Field Line, T = 0x40
			if b&0x40 == 0 {
				n++
			}
			_, k, ok = prefixInt(p, 6)
		case b&0x40 != 0: // Literal with Name Reference, T = 0x10
			if b&0x10 == 0 {
				n++
			}
			_, k, ok = prefixInt(p, 4)
			value = true
		case b&0x20 != 0: // Literal with Literal Name: H = 0x08, 3-bit length
			var l uint64
			l, k, ok = prefixInt(p, 3)
			if ok && uint64(len(p)-k) < l {
				return n, false
			}
			k += int(l)
			value = true
		case b&0x10 != 0: // Indexed Field Line with Post-Base Index
			n++
			_, k, ok = prefixInt(p, 4)
		default: // Literal with Post-Base Name Reference
			n++
			_, k, ok = prefixInt(p, 3)
			value = true
		}
		if !ok {
			return n, false
		}
		p = p[k:]
		if value {
			l, k, ok := prefixInt(p, 7)
			if !ok || uint64(len(p)-k) < l {
				return n, false
			}
			p = p[k+int(l):]
		}
	}
	return n, true
}

// prefixInt reads an RFC 7541 §5.1 prefixed integer with an n-bit prefix.
func prefixInt(p []byte, n uint8) (v uint64, k int, ok bool) {
	if len(p) == 0 {
		return 0, 0, false
	}
	mask := uint64(1)<<n - 1
	v = uint64(p[0]) & mask
	if v < mask {
		return v, 1, true
	}
	for i, shift := 1, uint(0); i < len(p) && i < 10; i, shift = i+1, shift+7 {
		v += uint64(p[i]&0x7f) << shift
		if p[i]&0x80 == 0 {
			return v, i + 1, true
		}
	}
	return 0, 0, false
}
