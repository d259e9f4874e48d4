//go:build interop && cgo

package interop

/*
#cgo LDFLAGS: -lnghttp2
#include <nghttp2/nghttp2.h>
#include "cbuf.h"

HQ_DEFINE_NEW_NVA(hq2_new_nva, nghttp2_nv, NGHTTP2_NV_FLAG_NO_INDEX)

// hq2_deflate encodes the n fields laid out by makeCFields into out.
static int hq2_deflate(nghttp2_hd_deflater *d, const uint8_t *bytes, const size_t *lens, const uint8_t *never, size_t n, hq_out *out) {
	nghttp2_nv *nva = hq2_new_nva(bytes, lens, never, n);
	if (nva == NULL) {
		return NGHTTP2_ERR_NOMEM;
	}
	size_t bound = nghttp2_hd_deflate_bound(d, nva, n);
	int rv = hq_reserve(out, bound);
	if (rv == 0) {
		ssize_t w = nghttp2_hd_deflate_hd(d, out->p + out->len, bound, nva, n);
		if (w < 0) {
			rv = (int)w;
		} else {
			out->len += (size_t)w;
		}
	} else {
		rv = NGHTTP2_ERR_NOMEM;
	}
	free(nva);
	return rv;
}

// hq2_inflate decodes a whole header block into out.
static int hq2_inflate(nghttp2_hd_inflater *d, uint8_t *in, size_t len, hq_out *out) {
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
			if (hq_put_field(out, nv.name, nv.namelen, nv.value, nv.valuelen, nv.flags & NGHTTP2_NV_FLAG_NO_INDEX) != 0) {
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
*/
import "C"

import "errors"

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
	if rv := C.hq2_inflate(d.d, ptr(block), C.size_t(len(block)), &d.out); rv != 0 {
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
