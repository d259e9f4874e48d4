//go:build interop && cgo

package interop

/*
#cgo LDFLAGS: -lnghttp3
#include <nghttp3/nghttp3.h>
#include "cbuf.h"
#include "trace.h"

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

// hq3_read_request feeds a whole section (fin) to its stream's context;
// the fields it yields go to out and are counted into t, each unless NULL.
// It returns the bytes consumed, or a negative nghttp3 error; *state is 1
// when the section is complete, 2 when it is blocked (the rest of it is to
// be fed again later), 0 when nghttp3 wants more input.
static nghttp3_ssize hq3_read_request(nghttp3_qpack_decoder *d, nghttp3_qpack_stream_context *s, const uint8_t *src, size_t len, hq_out *out, hq_tally *t, int *state) {
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
			hq_count(t, name.len, value.len);
			int rv = out == NULL ? 0 : hq_put_field(out, name.base, name.len, value.base, value.len, nv.flags & NGHTTP3_NV_FLAG_NEVER_INDEX);
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

HQ_DEFINE_TRACE_NVA(hq3_trace_nva, nghttp3_nv)

// hq3_read_rv turns what a call that reads a stream returned, m of want
// bytes, into 0 or an error: nghttp3's, or short for a short read.
static int hq3_read_rv(nghttp3_ssize m, size_t want, int short_err) {
	return m < 0 ? (int)m : (size_t)m != want ? short_err : 0;
}

// hq3_trace_encode encodes every list of t (its fields put into nva, room
// for the longest list, before each), each
// connection on a new encoder for a peer that allows cap and blocked, and
// after each list reads back the decoder stream t holds for it. The three
// buffers nghttp3 writes into are kept from list to list. With keep each
// list's encoder stream and section go into out after the last and lens
// gets their lengths (2 a list). r counts the bytes.
static void hq3_trace_encode(const hq_trace *t, nghttp3_nv *nva, size_t cap, size_t blocked, hq_out *out, size_t *lens, int keep, hq_tally *r) {
	const nghttp3_mem *mem = nghttp3_mem_default();
	nghttp3_buf pbuf, rbuf, ebuf;
	nghttp3_buf_init(&pbuf);
	nghttp3_buf_init(&rbuf);
	nghttp3_buf_init(&ebuf);
	size_t list = 0;
	const uint8_t *w = t->wire;
	const size_t *at = t->field_at;
	for (size_t c = 0; c < t->nconns && r->rv == 0; c++) {
		nghttp3_qpack_encoder *e = hq3_encoder_new(cap, blocked);
		if (e == NULL) {
			r->rv = NGHTTP3_ERR_NOMEM;
			break;
		}
		for (size_t k = 0; k < t->conn_lists[c]; k++, list++) {
			size_t n = t->list_fields[list];
			nghttp3_buf_reset(&pbuf);
			nghttp3_buf_reset(&rbuf);
			nghttp3_buf_reset(&ebuf);
			hq3_trace_nva(nva, t, at, n);
			at += 4 * n;
			if ((r->rv = nghttp3_qpack_encoder_encode(e, &pbuf, &rbuf, &ebuf, (int64_t)(4 * k), nva, n)) != 0) {
				break;
			}
			size_t es = nghttp3_buf_len(&ebuf), sec = nghttp3_buf_len(&pbuf) + nghttp3_buf_len(&rbuf);
			r->bytes += (int64_t)(es + sec);
			if (keep) {
				if (hq_put(out, ebuf.pos, es) || hq_put(out, pbuf.pos, nghttp3_buf_len(&pbuf)) || hq_put(out, rbuf.pos, nghttp3_buf_len(&rbuf))) {
					r->rv = NGHTTP3_ERR_NOMEM;
					break;
				}
				lens[2 * list] = es;
				lens[2 * list + 1] = sec;
			}
			const size_t *wl = t->wire_lens + 3 * list;
			const uint8_t *ds = w + wl[0] + wl[1];
			w = ds + wl[2];
			if (wl[2] > 0 && (r->rv = hq3_read_rv(nghttp3_qpack_encoder_read_decoder(e, ds, wl[2]), wl[2], NGHTTP3_ERR_QPACK_DECODER_STREAM_ERROR)) != 0) {
				break;
			}
		}
		nghttp3_qpack_encoder_del(e);
	}
	r->list = list;
	nghttp3_buf_free(&pbuf, mem);
	nghttp3_buf_free(&rbuf, mem);
	nghttp3_buf_free(&ebuf, mem);
}

// hq3_trace_decode decodes every list of t, each connection on a new
// decoder that allows cap and blocked: the list's encoder stream, then its
// section on a new stream context, then the decoder stream nghttp3 has to
// send, counted into r->stream. The fields are counted into r and go to
// out unless NULL. A section that blocks is an error: its encoder stream
// came first.
static void hq3_trace_decode(const hq_trace *t, size_t cap, size_t blocked, hq_out *out, hq_tally *r) {
	hq_out ds = {0};
	size_t list = 0;
	const uint8_t *w = t->wire;
	for (size_t c = 0; c < t->nconns && r->rv == 0; c++) {
		nghttp3_qpack_decoder *d = hq3_decoder_new(cap, blocked);
		if (d == NULL) {
			r->rv = NGHTTP3_ERR_NOMEM;
			break;
		}
		for (size_t k = 0; k < t->conn_lists[c]; k++, list++) {
			const size_t *wl = t->wire_lens + 3 * list;
			if (wl[0] > 0 && (r->rv = hq3_read_rv(nghttp3_qpack_decoder_read_encoder(d, w, wl[0]), wl[0], NGHTTP3_ERR_QPACK_ENCODER_STREAM_ERROR)) != 0) {
				break;
			}
			nghttp3_qpack_stream_context *s = hq3_stream_new((int64_t)(4 * k));
			if (s == NULL) {
				r->rv = NGHTTP3_ERR_NOMEM;
				break;
			}
			int state;
			nghttp3_ssize m = hq3_read_request(d, s, w + wl[0], wl[1], out, r, &state);
			nghttp3_qpack_stream_context_del(s);
			if (m < 0 || state != 1) {
				r->rv = m < 0 ? (int)m : NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED;
				break;
			}
			ds.len = 0;
			if ((r->rv = hq3_write_decoder(d, &ds)) != 0) {
				break;
			}
			r->stream += (int64_t)ds.len;
			w += wl[0] + wl[1] + wl[2];
		}
		nghttp3_qpack_decoder_del(d);
	}
	r->list = list;
	free(ds.p);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
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
	n := C.hq3_read_request(d.d, b.s, ptr(b.rest), C.size_t(len(b.rest)), &d.out, nil, &state)
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

// nghttp3TraceNVA returns room for the nghttp3_nv of c's longest list,
// freed with c.
func nghttp3TraceNVA(c *cTrace) unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(cArray[C.nghttp3_nv](c, c.maxFields)))
}

// nghttp3TraceEncode runs hq3_trace_encode for a peer that allows
// capacity and blocked.
func nghttp3TraceEncode(c *cTrace, nva unsafe.Pointer, capacity, blocked uint64, out *C.hq_out, lens []C.size_t, keep bool) (r C.hq_tally) {
	C.hq3_trace_encode(c.t, (*C.nghttp3_nv)(nva), C.size_t(capacity), C.size_t(blocked), out, unsafe.SliceData(lens), cBool(keep), &r)
	return r
}

// nghttp3TraceDecode runs hq3_trace_decode for a decoder that allows
// capacity and blocked.
func nghttp3TraceDecode(c *cTrace, capacity, blocked uint64, out *C.hq_out) (r C.hq_tally) {
	C.hq3_trace_decode(c.t, C.size_t(capacity), C.size_t(blocked), out, &r)
	return r
}
