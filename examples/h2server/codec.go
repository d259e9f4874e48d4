package main

import (
	"fmt"

	"golang.org/x/net/http2"
)

// codecKind selects the header codec: hqpack, or golang.org/x/net/http2/hpack
// for comparison. Everything else in the server is the same code.
type codecKind int

const (
	codecHQPACK codecKind = iota
	codecXNet
)

func (k codecKind) String() string {
	if k == codecXNet {
		return "xnet"
	}
	return "hqpack"
}

func parseCodec(s string) (codecKind, error) {
	switch s {
	case "hqpack":
		return codecHQPACK, nil
	case "xnet":
		return codecXNet, nil
	}
	return 0, fmt.Errorf("unknown codec %q (want hqpack or xnet)", s)
}

// headerDecoder decodes the request field sections of one connection, one
// fragment (HEADERS or CONTINUATION payload) at a time. It belongs to the
// connection's reader goroutine.
type headerDecoder interface {
	// begin starts a section whose fields go to r; nil decodes the section
	// only to keep the dynamic table in sync.
	begin(r *request)
	// write decodes the next fragment. An error is a COMPRESSION_ERROR.
	write(frag []byte) error
	// end ends the section: fatal is a COMPRESSION_ERROR, stream an error
	// of this request alone (errMalformed, errTooLarge).
	end() (stream, fatal error)
}

// headerEncoder writes the response header sections of one connection. It
// belongs to the connection's writer goroutine, which sends the frames of a
// section back to back, in the order the encoder produced them.
type headerEncoder interface {
	// setPeerTableSize records the peer's SETTINGS_HEADER_TABLE_SIZE.
	setPeerTableSize(n uint32)
	// writeHeaders writes resp's header section as one HEADERS frame and
	// as many CONTINUATION frames as needed, none over maxFrame bytes.
	writeHeaders(fr *http2.Framer, id uint32, endStream bool, maxFrame int, resp *response) error
}

func (k codecKind) newDecoder(cfg *config) headerDecoder {
	if k == codecXNet {
		return newXNetDecoder(cfg)
	}
	return newHQDecoder(cfg)
}

func (k codecKind) newEncoder() headerEncoder {
	if k == codecXNet {
		return newXNetEncoder()
	}
	return newHQEncoder()
}

// statusText returns the :status value of code without allocating for the
// codes this server sends.
func statusText(code int) string {
	switch code {
	case 200:
		return "200"
	case 400:
		return "400"
	case 404:
		return "404"
	case 405:
		return "405"
	case 431:
		return "431"
	}
	return fmt.Sprint(code)
}
