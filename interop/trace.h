// A trace of the trace benchmarks laid out in C memory (trace.go), which
// nghttp2.go and nghttp3.go run whole in one call, and what a run counts.
#ifndef HQPACK_INTEROP_TRACE_H
#define HQPACK_INTEROP_TRACE_H

#include <stdint.h>
#include <stdlib.h>

typedef struct {
	size_t nconns;
	const size_t *conn_lists;  // the number of lists of each connection
	const size_t *list_fields; // the number of fields of each list, in trace order
	const int64_t *list_size;  // HPACK: header_table_size before each list, -1 for none
	uint8_t *strings;          // the names and values
	const size_t *field_at;    // 4 a field: name offset in strings, name length, value offset, value length
	const uint8_t *wire;       // each list's encoder stream, section and decoder stream, one after the other
	const size_t *wire_lens;   // 3 a list: those lengths
} hq_trace;

typedef struct {
	// Decoding: fields delivered, their name and value bytes, and
	// decoder-stream bytes written. Encoding: bytes written in bytes
	// (sections and encoder stream).
	int64_t fields, bytes, stream;
	int rv;      // 0, or the library's error code
	size_t list; // with rv: the list (in trace order) it failed on
} hq_tally;

// hq_count counts a decoded field into t, if any.
static inline void hq_count(hq_tally *t, size_t namelen, size_t valuelen) {
	if (t != NULL) {
		t->fields++;
		t->bytes += (int64_t)(namelen + valuelen);
	}
}

// HQ_DEFINE_TRACE_NVA defines fn, which fills nva with the name-value
// structs of type T (nghttp2's and nghttp3's have the same fields) of the n
// fields of one list, whose field_at numbers start at at, pointing into t's
// strings. The encode loops call it for every list, inside the timed run:
// a server builds these for each message it sends, as the Go rows build
// their lists (trace.Fill) for each one.
#define HQ_DEFINE_TRACE_NVA(fn, T) \
	static void fn(T *nva, const hq_trace *t, const size_t *at, size_t n) { \
		for (size_t i = 0; i < n; i++, at += 4) { \
			nva[i].name = t->strings + at[0]; \
			nva[i].namelen = at[1]; \
			nva[i].value = t->strings + at[2]; \
			nva[i].valuelen = at[3]; \
			nva[i].flags = 0; \
		} \
	}

#endif
