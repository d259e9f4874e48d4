// Growable output buffers in C memory, shared by the nghttp2 and nghttp3
// wrappers: C writes into them during a call, Go copies them out after it.
#ifndef HQPACK_INTEROP_CBUF_H
#define HQPACK_INTEROP_CBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint8_t *p;
	size_t len, cap;
} hq_out;

// hq_reserve makes room for n more bytes; -1 when out of memory.
static inline int hq_reserve(hq_out *o, size_t n) {
	if (o->len + n <= o->cap) {
		return 0;
	}
	size_t c = o->cap ? o->cap : 256;
	while (c < o->len + n) {
		c *= 2;
	}
	uint8_t *p = realloc(o->p, c);
	if (p == NULL) {
		return -1;
	}
	o->p = p;
	o->cap = c;
	return 0;
}

static inline int hq_put(hq_out *o, const uint8_t *b, size_t n) {
	if (hq_reserve(o, n) != 0) {
		return -1;
	}
	if (n > 0) {
		memcpy(o->p + o->len, b, n);
	}
	o->len += n;
	return 0;
}

// hq_put_field appends a decoded field as parseFields reads it: name
// length (uint32, little endian), name, value length, value, never-indexed
// byte.
static inline int hq_put_field(hq_out *o, const uint8_t *name, size_t nlen, const uint8_t *value, size_t vlen, int never) {
	uint8_t l[4], n = never ? 1 : 0;
	l[0] = nlen, l[1] = nlen >> 8, l[2] = nlen >> 16, l[3] = nlen >> 24;
	if (hq_put(o, l, 4) || hq_put(o, name, nlen)) {
		return -1;
	}
	l[0] = vlen, l[1] = vlen >> 8, l[2] = vlen >> 16, l[3] = vlen >> 24;
	if (hq_put(o, l, 4) || hq_put(o, value, vlen) || hq_put(o, &n, 1)) {
		return -1;
	}
	return 0;
}

// HQ_DEFINE_NEW_NVA defines fn, which allocates an array of n
// name-value structs of type T (nghttp2's and nghttp3's have the same
// fields) pointing into the fields laid out by makeCFields, the
// never-indexed ones flagged with never_flag; NULL when out of memory.
// Free it with free.
#define HQ_DEFINE_NEW_NVA(fn, T, never_flag) \
	static T *fn(const uint8_t *b, const size_t *lens, const uint8_t *never, size_t n) { \
		T *nva = calloc(n ? n : 1, sizeof(T)); \
		for (size_t i = 0; nva != NULL && i < n; i++) { \
			nva[i].name = (uint8_t *)b; \
			nva[i].namelen = lens[2 * i]; \
			b += lens[2 * i]; \
			nva[i].value = (uint8_t *)b; \
			nva[i].valuelen = lens[2 * i + 1]; \
			b += lens[2 * i + 1]; \
			nva[i].flags = never[i] ? (never_flag) : 0; \
		} \
		return nva; \
	}

#endif
