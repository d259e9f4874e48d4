//go:build interop && cgo

package interop

/*
#include <nghttp2/nghttp2.h>
#include "cbuf.h"

// hq2_inflate_piece decodes one piece of a header block into out: the
// fields it completes. final says it is the block's last piece.
static int hq2_inflate_piece(nghttp2_hd_inflater *d, uint8_t *in, size_t len, int final, hq_out *out) {
	for (;;) {
		nghttp2_nv nv;
		int flags = 0;
		ssize_t n = nghttp2_hd_inflate_hd2(d, &nv, &flags, in, len, final);
		if (n < 0) {
			return (int)n;
		}
		in += n;
		len -= (size_t)n;
		if (flags & NGHTTP2_HD_INFLATE_EMIT) {
			if (hq_put_field(out, nv.name, nv.namelen, nv.value, nv.valuelen, nv.flags & NGHTTP2_NV_FLAG_NO_INDEX) != 0) {
				return NGHTTP2_ERR_NOMEM;
			}
			continue;
		}
		if (flags & NGHTTP2_HD_INFLATE_FINAL) {
			return nghttp2_hd_inflate_end_headers(d);
		}
		if (len == 0) {
			return final ? NGHTTP2_ERR_HEADER_COMP : 0; // the piece is used up
		}
	}
}
*/
import "C"

// DecodePieces decodes one header block that arrives in pieces (a HEADERS
// frame and its CONTINUATION frames), as nghttp2 does for a connection:
// each piece is fed as it comes, and may end inside a field.
func (d *HPACKInflater) DecodePieces(pieces [][]byte) ([]Field, error) {
	for i, p := range pieces {
		final := C.int(0)
		if i == len(pieces)-1 {
			final = 1
		}
		if rv := C.hq2_inflate_piece(d.d, ptr(p), C.size_t(len(p)), final, &d.out); rv != 0 {
			take(&d.out)
			return nil, nghttp2Error("nghttp2_hd_inflate_hd2", rv)
		}
	}
	return parseFields(take(&d.out)), nil
}
