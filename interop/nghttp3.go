//go:build interop && cgo

package interop

/*
#cgo LDFLAGS: -lnghttp3
#include <nghttp3/nghttp3.h>
#include "cbuf.h"

HQ_DEFINE_NEW_NVA(hq3_new_nva, nghttp3_nv, NGHTTP3_NV_FLAG_NEVER_INDEX)

static nghttp3_qpack_encoder *hq3_encoder_new(size_t cap, size_t blocked) {
	nghttp3_qpack_encoder *e = NULL;
	if (nghttp3_qpack_encoder_new(&e, cap, nghttp3_mem_default()) != 0) {
		return NULL;
	}
	nghttp3_qpack_encoder_set_max_dtable_capacity(e, cap);
	nghttp3_qpack_encoder_set_max_blocked_streams(e, blocked);
	return e;
}

// hq3_encode encodes the n fields laid out by makeCFields: the section
// (prefix and field lines) to sec, encoder-stream bytes to es.
static int hq3_encode(nghttp3_qpack_encoder *e, int64_t stream, const uint8_t *bytes, const size_t *lens, const uint8_t *never, size_t n, hq_out *sec, hq_out *es) {
	nghttp3_nv *nva = hq3_new_nva(bytes, lens, never, n);
	if (nva == NULL) {
		return NGHTTP3_ERR_NOMEM;
	}
	nghttp3_buf pbuf, rbuf, ebuf;
	nghttp3_buf_init(&pbuf);
	nghttp3_buf_init(&rbuf);
	nghttp3_buf_init(&ebuf);
	int rv = nghttp3_qpack_encoder_encode(e, &pbuf, &rbuf, &ebuf, stream, nva, n);
	if (rv == 0 && (hq_put(sec, pbuf.pos, nghttp3_buf_len(&pbuf)) || hq_put(sec, rbuf.pos, nghttp3_buf_len(&rbuf)) ||
	                hq_put(es, ebuf.pos, nghttp3_buf_len(&ebuf)))) {
		rv = NGHTTP3_ERR_NOMEM;
	}
	nghttp3_buf_free(&pbuf, nghttp3_mem_default());
	nghttp3_buf_free(&rbuf, nghttp3_mem_default());
	nghttp3_buf_free(&ebuf, nghttp3_mem_default());
	free(nva);
	return rv;
}

static nghttp3_qpack_decoder *hq3_decoder_new(size_t cap, size_t blocked) {
	nghttp3_qpack_decoder *d = NULL;
	if (nghttp3_qpack_decoder_new(&d, cap, blocked, nghttp3_mem_default()) != 0) {
		return NULL;
	}
	return d;
}

static nghttp3_qpack_stream_context *hq3_stream_new(int64_t stream) {
	nghttp3_qpack_stream_context *s = NULL;
	if (nghttp3_qpack_stream_context_new(&s, stream, nghttp3_mem_default()) != 0) {
		return NULL;
	}
	return s;
}

// hq3_read_request feeds a whole section (fin) to its stream's context and
// appends the fields it yields to out. It returns the bytes consumed, or a
// negative nghttp3 error; *state is 1 when the section is complete, 2 when
// it is blocked (the rest of it is to be fed again later), 0 when nghttp3
// wants more input.
static nghttp3_ssize hq3_read_request(nghttp3_qpack_decoder *d, nghttp3_qpack_stream_context *s, const uint8_t *src, size_t len, hq_out *out, int *state) {
	size_t off = 0;
	*state = 0;
	for (;;) {
		nghttp3_qpack_nv nv;
		uint8_t flags = 0;
		nghttp3_ssize n = nghttp3_qpack_decoder_read_request(d, s, &nv, &flags, src + off, len - off, 1);
		if (n < 0) {
			return n;
		}
		off += (size_t)n;
		if (flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) {
			nghttp3_vec name = nghttp3_rcbuf_get_buf(nv.name), value = nghttp3_rcbuf_get_buf(nv.value);
			int rv = hq_put_field(out, name.base, name.len, value.base, value.len, nv.flags & NGHTTP3_NV_FLAG_NEVER_INDEX);
			nghttp3_rcbuf_decref(nv.name);
			nghttp3_rcbuf_decref(nv.value);
			if (rv != 0) {
				return NGHTTP3_ERR_NOMEM;
			}
		}
		if (flags & NGHTTP3_QPACK_DECODE_FLAG_FINAL) {
			*state = 1;
			return (nghttp3_ssize)off;
		}
		if (flags & NGHTTP3_QPACK_DECODE_FLAG_BLOCKED) {
			*state = 2;
			return (nghttp3_ssize)off;
		}
		if (!(flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) && n == 0) {
			return (nghttp3_ssize)off;
		}
	}
}

// hq3_write_decoder appends the decoder stream nghttp3 has to send.
static int hq3_write_decoder(nghttp3_qpack_decoder *d, hq_out *out) {
	size_t n = nghttp3_qpack_decoder_get_decoder_streamlen(d);
	if (n == 0) {
		return 0;
	}
	if (hq_reserve(out, n) != 0) {
		return NGHTTP3_ERR_NOMEM;
	}
	nghttp3_buf b;
	b.begin = b.pos = b.last = out->p + out->len;
	b.end = b.begin + n;
	nghttp3_qpack_decoder_write_decoder(d, &b);
	out->len += (size_t)(b.last - b.begin);
	return 0;
}
*/
import "C"

import (
	"errors"
	"fmt"
)

// Error is an error code of nghttp2 or nghttp3, with the call that
// returned it, and the stream it was decoding (-1 for none).
type Error struct {
	Call   string
	Code   int
	Text   string
	Stream int64
}

func (e *Error) Error() string {
	if e.Stream >= 0 {
		return fmt.Sprintf("stream %d: %s: %s (%d)", e.Stream, e.Call, e.Text, e.Code)
	}
	return fmt.Sprintf("%s: %s (%d)", e.Call, e.Text, e.Code)
}

// errQPACKHeaderTooLarge is NGHTTP3_ERR_QPACK_HEADER_TOO_LARGE: a name or
// value over nghttp3's own limits.
const errQPACKHeaderTooLarge = C.NGHTTP3_ERR_QPACK_HEADER_TOO_LARGE

func nghttp3Error(call string, rv C.int) error {
	if rv >= 0 {
		return nil
	}
	return &Error{call, int(rv), C.GoString(C.nghttp3_strerror(rv)), -1}
}

// QPACKEncoder is nghttp3's QPACK encoder. Its decisions (what to insert,
// what to reference while blocked streams are allowed) are its own; it
// learns what the decoder has from the decoder stream it is given.
type QPACKEncoder struct {
	e       *C.nghttp3_qpack_encoder
	sec, es C.hq_out
}

// NewQPACKEncoder returns an nghttp3 encoder for a peer that announced
// capacity as SETTINGS_QPACK_MAX_TABLE_CAPACITY and blocked as
// SETTINGS_QPACK_BLOCKED_STREAMS; it uses the whole capacity. Close frees
// it.
func NewQPACKEncoder(capacity, blocked int) (*QPACKEncoder, error) {
	e := C.hq3_encoder_new(C.size_t(capacity), C.size_t(blocked))
	if e == nil {
		return nil, errors.New("nghttp3_qpack_encoder_new failed")
	}
	return &QPACKEncoder{e: e}, nil
}

// Encode encodes fields for stream and returns the field section and the
// encoder-stream bytes to deliver before it (or after it, to make the
// decoder block).
func (e *QPACKEncoder) Encode(stream int64, fields []Field) (section, encoderStream []byte, err error) {
	c := makeCFields(fields)
	b, lens, never, n := c.args()
	if rv := C.hq3_encode(e.e, C.int64_t(stream), b, lens, never, n, &e.sec, &e.es); rv != 0 {
		return nil, nil, nghttp3Error("nghttp3_qpack_encoder_encode", rv)
	}
	return take(&e.sec), take(&e.es), nil
}

// ReadDecoderStream gives nghttp3 the decoder's acknowledgments. nghttp3
// rejects malformed or impossible instructions.
func (e *QPACKEncoder) ReadDecoderStream(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return readAll("nghttp3_qpack_encoder_read_decoder", C.nghttp3_qpack_encoder_read_decoder(e.e, ptr(b), C.size_t(len(b))), b)
}

// readAll turns what a call that reads a stream returned, n, into an
// error: nghttp3's, or a short read of b.
func readAll(call string, n C.nghttp3_ssize, b []byte) error {
	if n < 0 {
		return nghttp3Error(call, C.int(n))
	}
	if int(n) != len(b) {
		return fmt.Errorf("%s read %d of %d bytes", call, n, len(b))
	}
	return nil
}

// AckEverything tells nghttp3 that every section so far was acknowledged
// and every insert received (QIFS ack mode 1).
func (e *QPACKEncoder) AckEverything() {
	C.nghttp3_qpack_encoder_ack_everything(e.e)
}

// BlockedStreams returns the number of streams nghttp3 counts as possibly
// blocked at the decoder.
func (e *QPACKEncoder) BlockedStreams() int {
	return int(C.nghttp3_qpack_encoder_get_num_blocked_streams(e.e))
}

// Close frees the encoder.
func (e *QPACKEncoder) Close() {
	C.nghttp3_qpack_encoder_del(e.e)
	free(&e.sec)
	free(&e.es)
}

// QPACKDecoder is nghttp3's QPACK decoder. It holds blocked sections as
// an HTTP/3 stack over nghttp3 would: the bytes not yet consumed, fed again
// by Unblock.
type QPACKDecoder struct {
	d       *C.nghttp3_qpack_decoder
	out, ds C.hq_out
	blocked map[int64]*blockedSection
}

type blockedSection struct {
	stream int64
	s      *C.nghttp3_qpack_stream_context
	rest   []byte
	got    []Field
}

// NewQPACKDecoder returns an nghttp3 decoder that announced capacity as
// SETTINGS_QPACK_MAX_TABLE_CAPACITY and blocked as
// SETTINGS_QPACK_BLOCKED_STREAMS. Close frees it.
func NewQPACKDecoder(capacity, blocked int) (*QPACKDecoder, error) {
	d := C.hq3_decoder_new(C.size_t(capacity), C.size_t(blocked))
	if d == nil {
		return nil, errors.New("nghttp3_qpack_decoder_new failed")
	}
	return &QPACKDecoder{d: d, blocked: map[int64]*blockedSection{}}, nil
}

// ReadEncoderStream gives nghttp3 the next encoder-stream bytes.
func (d *QPACKDecoder) ReadEncoderStream(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return readAll("nghttp3_qpack_decoder_read_encoder", C.nghttp3_qpack_decoder_read_encoder(d.d, ptr(b), C.size_t(len(b))), b)
}

// DecodeSection decodes a whole field section of stream. blocked is true
// when nghttp3 holds it for inserts not yet received: Unblock finishes it.
func (d *QPACKDecoder) DecodeSection(stream int64, section []byte) (fields []Field, blocked bool, err error) {
	if _, ok := d.blocked[stream]; ok {
		return nil, false, fmt.Errorf("stream %d already holds a blocked section", stream)
	}
	s := C.hq3_stream_new(C.int64_t(stream))
	if s == nil {
		return nil, false, errors.New("nghttp3_qpack_stream_context_new failed")
	}
	b := &blockedSection{stream: stream, s: s, rest: section}
	done, err := d.feed(b)
	if err != nil || done {
		C.nghttp3_qpack_stream_context_del(s)
		return b.got, false, err
	}
	d.blocked[stream] = b
	return nil, true, nil
}

// feed gives nghttp3 what is left of b's section; done is false when it
// blocked. nghttp3's error names b's stream.
func (d *QPACKDecoder) feed(b *blockedSection) (done bool, err error) {
	var state C.int
	n := C.hq3_read_request(d.d, b.s, ptr(b.rest), C.size_t(len(b.rest)), &d.out, &state)
	b.got = append(b.got, parseFields(take(&d.out))...)
	if n < 0 {
		err := nghttp3Error("nghttp3_qpack_decoder_read_request", C.int(n)).(*Error)
		err.Stream = b.stream
		return false, err
	}
	b.rest = b.rest[n:]
	switch state {
	case 1:
		return true, nil
	case 2:
		return false, nil
	}
	return false, fmt.Errorf("nghttp3_qpack_decoder_read_request: section incomplete, %d bytes left", len(b.rest))
}

// Unblock feeds again every held section whose Required Insert Count the
// inserts have reached, as an HTTP/3 stack over nghttp3 does after
// ReadEncoderStream, and returns the fields of those now complete, by
// stream.
func (d *QPACKDecoder) Unblock() (map[int64][]Field, error) {
	done := map[int64][]Field{}
	icnt := C.nghttp3_qpack_decoder_get_icnt(d.d)
	for stream, b := range d.blocked {
		if C.nghttp3_qpack_stream_context_get_ricnt(b.s) > icnt {
			continue
		}
		ok, err := d.feed(b)
		if err != nil {
			return nil, err
		}
		if ok {
			done[stream] = b.got
			C.nghttp3_qpack_stream_context_del(b.s)
			delete(d.blocked, stream)
		}
	}
	return done, nil
}

// Blocked returns the number of sections held.
func (d *QPACKDecoder) Blocked() int { return len(d.blocked) }

// DecoderStream returns the decoder-stream bytes nghttp3 has to send
// (Section Acknowledgments, Insert Count Increments).
func (d *QPACKDecoder) DecoderStream() ([]byte, error) {
	if rv := C.hq3_write_decoder(d.d, &d.ds); rv != 0 {
		return nil, nghttp3Error("nghttp3_qpack_decoder_write_decoder", rv)
	}
	return take(&d.ds), nil
}

// InsertCount returns the number of inserts nghttp3 has received.
func (d *QPACKDecoder) InsertCount() uint64 {
	return uint64(C.nghttp3_qpack_decoder_get_icnt(d.d))
}

// Close frees the decoder and the sections it holds.
func (d *QPACKDecoder) Close() {
	for _, b := range d.blocked {
		C.nghttp3_qpack_stream_context_del(b.s)
	}
	C.nghttp3_qpack_decoder_del(d.d)
	free(&d.out)
	free(&d.ds)
}

// Nghttp3Version returns the version of the libnghttp3 linked in.
func Nghttp3Version() string {
	return C.GoString(C.nghttp3_version(0).version_str)
}
