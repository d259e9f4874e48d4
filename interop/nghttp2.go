//go:build interop && cgo

package interop

/*
#cgo LDFLAGS: -lnghttp2
#include <nghttp2/nghttp2.h>
#include "cbuf.h"
#include "trace.h"

HQ_DEFINE_NEW_NVA(hq2_new_nva, nghttp2_nv, NGHTTP2_NV_FLAG_NO_INDEX)

// hq2_deflate_nva encodes n fields into out, as an nghttp2 session does:
// the bound, then the block. It returns the block's length, or an error.
static ssize_t hq2_deflate_nva(nghttp2_hd_deflater *d, const nghttp2_nv *nva, size_t n, hq_out *out) {
	size_t bound = nghttp2_hd_deflate_bound(d, nva, n);
	if (hq_reserve(out, bound) != 0) {
		return NGHTTP2_ERR_NOMEM;
	}
	ssize_t w = nghttp2_hd_deflate_hd(d, out->p + out->len, bound, nva, n);
	if (w > 0) {
		out->len += (size_t)w;
	}
	return w;
}

// hq2_deflate encodes the n fields laid out by makeCFields into out.
static int hq2_deflate(nghttp2_hd_deflater *d, const uint8_t *bytes, const size_t *lens, const uint8_t *never, size_t n, hq_out *out) {
	nghttp2_nv *nva = hq2_new_nva(bytes, lens, never, n);
	if (nva == NULL) {
		return NGHTTP2_ERR_NOMEM;
	}
	ssize_t w = hq2_deflate_nva(d, nva, n, out);
	free(nva);
	return w < 0 ? (int)w : 0;
}

// hq2_inflate decodes a whole header block: its fields go to out and
// are counted into t, each unless NULL.
static int hq2_inflate(nghttp2_hd_inflater *d, const uint8_t *in, size_t len, hq_out *out, hq_tally *t) {
	for (;;) {
		nghttp2_nv nv;
		int flags = 0;
		ssize_t n = nghttp2_hd_inflate_hd2(d, &nv, &flags, in, len, 1);
		if (n < 0) {
			return (int)n;
		}
		in += n;
		len -= (size_t)n;
		if (flags & NGHTTP2_HD_INFLATE_EMIT) {
			hq_count(t, nv.namelen, nv.valuelen);
			if (out != NULL && hq_put_field(out, nv.name, nv.namelen, nv.value, nv.valuelen, nv.flags & NGHTTP2_NV_FLAG_NO_INDEX) != 0) {
				return NGHTTP2_ERR_NOMEM;
			}
		}
		if (flags & NGHTTP2_HD_INFLATE_FINAL) {
			return nghttp2_hd_inflate_end_headers(d);
		}
		if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && len == 0) {
			return NGHTTP2_ERR_HEADER_COMP; // the block ended inside a field
		}
	}
}

HQ_DEFINE_TRACE_NVA(hq2_trace_nva, nghttp2_nv)

// hq2_trace_deflate encodes every list of t (its fields put into nva, room
// for the longest list, before each), each connection on a new deflater
// with a 4096-byte table. With keep each block goes into out after the
// last and lens gets its length; else over the last. r counts the bytes.
static void hq2_trace_deflate(const hq_trace *t, nghttp2_nv *nva, hq_out *out, size_t *lens, int keep, hq_tally *r) {
	size_t list = 0;
	const size_t *at = t->field_at;
	for (size_t c = 0; c < t->nconns && r->rv == 0; c++) {
		nghttp2_hd_deflater *d;
		if ((r->rv = nghttp2_hd_deflate_new(&d, 4096)) != 0) {
			break;
		}
		for (size_t k = 0; k < t->conn_lists[c]; k++, list++) {
			size_t n = t->list_fields[list];
			if (!keep) {
				out->len = 0;
			}
			hq2_trace_nva(nva, t, at, n);
			at += 4 * n;
			ssize_t w = hq2_deflate_nva(d, nva, n, out);
			if (w < 0) {
				r->rv = (int)w;
				break;
			}
			if (keep) {
				lens[list] = (size_t)w;
			}
			r->bytes += w;
		}
		nghttp2_hd_deflate_del(d);
	}
	r->list = list;
}

// hq2_trace_inflate decodes the section of every list of t, each
// connection on a new inflater, applying each list's header_table_size
// first; the fields are counted into r, and go to out unless NULL.
static void hq2_trace_inflate(const hq_trace *t, hq_out *out, hq_tally *r) {
	size_t list = 0;
	const uint8_t *w = t->wire;
	for (size_t c = 0; c < t->nconns && r->rv == 0; c++) {
		nghttp2_hd_inflater *d;
		if ((r->rv = nghttp2_hd_inflate_new(&d)) != 0) {
			break;
		}
		for (size_t k = 0; k < t->conn_lists[c]; k++, list++) {
			const size_t *lens = t->wire_lens + 3 * list;
			int64_t size = t->list_size[list];
			if (size >= 0 && (r->rv = nghttp2_hd_inflate_change_table_size(d, (size_t)size)) != 0) {
				break;
			}
			if ((r->rv = hq2_inflate(d, w + lens[0], lens[1], out, r)) != 0) {
				break;
			}
			w += lens[0] + lens[1] + lens[2];
		}
		nghttp2_hd_inflate_del(d);
	}
	r->list = list;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

func nghttp2Error(call string, rv C.int) error {
	if rv >= 0 {
		return nil
	}
	return &Error{call, int(rv), C.GoString(C.nghttp2_strerror(rv)), -1}
}

// HPACKDeflater is nghttp2's HPACK encoder.
type HPACKDeflater struct {
	d   *C.nghttp2_hd_deflater
	out C.hq_out
}

// NewHPACKDeflater returns an nghttp2 encoder whose dynamic table never
// exceeds limit bytes (the table starts at 4096, the default
// SETTINGS_HEADER_TABLE_SIZE, or limit if smaller). Close frees it.
func NewHPACKDeflater(limit int) (*HPACKDeflater, error) {
	var d *C.nghttp2_hd_deflater
	if rv := C.nghttp2_hd_deflate_new(&d, C.size_t(limit)); rv != 0 {
		return nil, nghttp2Error("nghttp2_hd_deflate_new", rv)
	}
	return &HPACKDeflater{d: d}, nil
}

// SetMaxTableSize applies the peer's SETTINGS_HEADER_TABLE_SIZE: the next
// block starts with a Dynamic Table Size Update.
func (d *HPACKDeflater) SetMaxTableSize(n int) error {
	return nghttp2Error("nghttp2_hd_deflate_change_table_size", C.nghttp2_hd_deflate_change_table_size(d.d, C.size_t(n)))
}

// Encode encodes fields as one header block.
func (d *HPACKDeflater) Encode(fields []Field) ([]byte, error) {
	c := makeCFields(fields)
	b, lens, never, n := c.args()
	if rv := C.hq2_deflate(d.d, b, lens, never, n, &d.out); rv != 0 {
		return nil, nghttp2Error("nghttp2_hd_deflate_hd", rv)
	}
	return take(&d.out), nil
}

// Close frees the encoder.
func (d *HPACKDeflater) Close() {
	C.nghttp2_hd_deflate_del(d.d)
	free(&d.out)
}

// HPACKInflater is nghttp2's HPACK decoder.
type HPACKInflater struct {
	d   *C.nghttp2_hd_inflater
	out C.hq_out
}

// NewHPACKInflater returns an nghttp2 decoder that allows a 4096-byte
// table. Close frees it.
func NewHPACKInflater() (*HPACKInflater, error) {
	var d *C.nghttp2_hd_inflater
	if rv := C.nghttp2_hd_inflate_new(&d); rv != 0 {
		return nil, nghttp2Error("nghttp2_hd_inflate_new", rv)
	}
	if d == nil {
		return nil, errors.New("nghttp2_hd_inflate_new returned no inflater")
	}
	return &HPACKInflater{d: d}, nil
}

// SetMaxTableSize sets the SETTINGS_HEADER_TABLE_SIZE the decoder allows;
// after a decrease the next block must start with a size update to at
// most n, or nghttp2 rejects it.
func (d *HPACKInflater) SetMaxTableSize(n int) error {
	return nghttp2Error("nghttp2_hd_inflate_change_table_size", C.nghttp2_hd_inflate_change_table_size(d.d, C.size_t(n)))
}

// Decode decodes one whole header block.
func (d *HPACKInflater) Decode(block []byte) ([]Field, error) {
	if rv := C.hq2_inflate(d.d, ptr(block), C.size_t(len(block)), &d.out, nil); rv != 0 {
		take(&d.out)
		return nil, nghttp2Error("nghttp2_hd_inflate_hd2", rv)
	}
	return parseFields(take(&d.out)), nil
}

// Close frees the decoder.
func (d *HPACKInflater) Close() {
	C.nghttp2_hd_inflate_del(d.d)
	free(&d.out)
}

// Nghttp2Version returns the version of the libnghttp2 linked in.
func Nghttp2Version() string {
	return C.GoString(C.nghttp2_version(0).version_str)
}

// nghttp2TraceNVA returns room for the nghttp2_nv of c's longest list,
// freed with c.
func nghttp2TraceNVA(c *cTrace) unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(cArray[C.nghttp2_nv](c, c.maxFields)))
}

// nghttp2TraceDeflate runs hq2_trace_deflate.
func nghttp2TraceDeflate(c *cTrace, nva unsafe.Pointer, out *C.hq_out, lens []C.size_t, keep bool) (r C.hq_tally) {
	C.hq2_trace_deflate(c.t, (*C.nghttp2_nv)(nva), out, unsafe.SliceData(lens), cBool(keep), &r)
	return r
}

// nghttp2TraceInflate runs hq2_trace_inflate.
func nghttp2TraceInflate(c *cTrace, out *C.hq_out) (r C.hq_tally) {
	C.hq2_trace_inflate(c.t, out, &r)
	return r
}
