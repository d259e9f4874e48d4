//go:build interop && cgo

package interop

/*
#include <stdlib.h>
#include "cbuf.h"
#include "trace.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/hqpack/hqpack/bench/trace"
)

// The trace benchmarks' rows for nghttp2 and nghttp3 (package trace runs
// them beside hqpack's and the Go peers'): the whole trace is laid out in
// C memory before the timer starts, and one cgo call runs it, so that no
// call overhead is counted per list. The C loops are in nghttp2.go and
// nghttp3.go.

// cTrace is a trace laid out in C memory (hq_trace): every list's fields,
// names and values in one block of strings (each string of a Fresh trace
// at a place of its own, equal strings of an Interned trace at one place),
// and every list's wire. It frees its memory with free.
type cTrace struct {
	t         *C.hq_trace // in C memory: a cgo call may not take Go memory that holds Go pointers
	lists     int
	maxFields int // in a list
	mem       []unsafe.Pointer
}

// cArray returns n zeroed values of T in C memory, freed with c.
func cArray[T any](c *cTrace, n int) []T {
	var zero T
	p := C.calloc(C.size_t(max(n, 1)), C.size_t(unsafe.Sizeof(zero)))
	if p == nil {
		panic("interop: out of C memory")
	}
	c.mem = append(c.mem, p)
	return unsafe.Slice((*T)(p), max(n, 1))[:n]
}

// cBytes copies b into C memory, freed with c.
func cBytes(c *cTrace, b []byte) *C.uint8_t {
	p := cArray[C.uint8_t](c, len(b)+1)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&p[0])), len(b)), b)
	return &p[0]
}

func newCTrace(t *trace.Trace) *cTrace {
	c := &cTrace{lists: t.Lists()}
	var strs, wire []byte
	var at, wireLens []C.size_t
	listFields := cArray[C.size_t](c, c.lists)
	sizes := cArray[C.int64_t](c, c.lists)
	connLists := cArray[C.size_t](c, len(t.Conns))
	interned := map[string]int{}
	place := func(s string) {
		off, ok := interned[s]
		if !ok {
			off = len(strs)
			strs = append(strs, s...)
			if t.Strings == trace.Interned {
				interned[s] = off
			}
		}
		at = append(at, C.size_t(off), C.size_t(len(s)))
	}
	i := 0
	for ci, conn := range t.Conns {
		connLists[ci] = C.size_t(len(conn.Lists))
		for _, l := range conn.Lists {
			listFields[i] = C.size_t(len(l.Fields))
			c.maxFields = max(c.maxFields, len(l.Fields))
			sizes[i] = C.int64_t(l.Size)
			for _, f := range l.Fields {
				place(f.Name)
				place(f.Value)
			}
			for _, b := range [][]byte{l.EncoderStream, l.Section, l.DecoderStream} {
				wire = append(wire, b...)
				wireLens = append(wireLens, C.size_t(len(b)))
			}
			i++
		}
	}
	c.t = &cArray[C.hq_trace](c, 1)[0]
	*c.t = C.hq_trace{
		nconns:      C.size_t(len(t.Conns)),
		conn_lists:  unsafe.SliceData(connLists),
		list_fields: unsafe.SliceData(listFields),
		list_size:   unsafe.SliceData(sizes),
		strings:     cBytes(c, strs),
		field_at:    unsafe.SliceData(cCopy(c, at)),
		wire:        cBytes(c, wire),
		wire_lens:   unsafe.SliceData(cCopy(c, wireLens)),
	}
	return c
}

// cCopy copies s into C memory, freed with c.
func cCopy[T any](c *cTrace, s []T) []T {
	d := cArray[T](c, len(s))
	copy(d, s)
	return d
}

func (c *cTrace) free() {
	for _, p := range c.mem {
		C.free(p)
	}
	c.mem = nil
}

// tallyError turns a failed run's tally into an error.
func tallyError(lib string, r *C.hq_tally) error {
	if r.rv == 0 {
		return nil
	}
	return fmt.Errorf("%s: list %d of the trace: error %d", lib, r.list, r.rv)
}

// traceEncoder runs a C encode loop over a trace: run encodes it once,
// into out with keep, each list's parts' lengths (parts a list: the block,
// or the encoder stream and the section) in lens.
type traceEncoder struct {
	c     *cTrace
	lib   string
	nva   unsafe.Pointer // nghttp2_nv or nghttp3_nv, room for the longest list (in c's memory)
	out   *C.hq_out      // apart from the struct, whose Go pointers C may not see
	lens  []C.size_t
	parts int
	run   func(e *traceEncoder, keep bool) C.hq_tally
}

func newTraceEncoder(t *trace.Trace, lib string, parts int, nva func(*cTrace) unsafe.Pointer, run func(*traceEncoder, bool) C.hq_tally) *traceEncoder {
	c := newCTrace(t)
	return &traceEncoder{c: c, lib: lib, nva: nva(c), out: new(C.hq_out), lens: cArray[C.size_t](c, parts*c.lists), parts: parts, run: run}
}

func (e *traceEncoder) Encode(keep bool) (int, []trace.Wire, error) {
	r := e.run(e, keep)
	if err := tallyError(e.lib, &r); err != nil {
		return 0, nil, err
	}
	if !keep {
		return int(r.bytes), nil, nil
	}
	b := take(e.out)
	ws := make([]trace.Wire, e.c.lists)
	for i := range ws {
		parts := make([][]byte, e.parts)
		for j := range parts {
			n := e.lens[e.parts*i+j]
			parts[j], b = b[:n], b[n:]
		}
		ws[i].Section = parts[e.parts-1]
		if e.parts > 1 {
			ws[i].EncoderStream = parts[0]
		}
	}
	return int(r.bytes), ws, nil
}

func (e *traceEncoder) Close() {
	free(e.out)
	e.c.free()
}

// traceDecoder runs a C decode loop over a trace: run decodes it once into
// out (when not nil) and the tally.
type traceDecoder struct {
	c   *cTrace
	lib string
	out *C.hq_out // apart from the struct (see traceEncoder)
	run func(c *cTrace, out *C.hq_out) C.hq_tally
}

func (d *traceDecoder) Decode(col *trace.Collector) error {
	var out *C.hq_out
	if col.Keeping() {
		out = d.out
	}
	r := d.run(d.c, out)
	if err := tallyError(d.lib, &r); err != nil {
		return err
	}
	if col.Keeping() {
		for _, f := range parseFields(take(d.out)) {
			col.Add(f.Name, f.Value)
		}
		if col.Fields != int(r.fields) || col.Bytes != int(r.bytes) {
			return fmt.Errorf("%s delivered %d fields of %d bytes and counted %d of %d", d.lib, col.Fields, col.Bytes, r.fields, r.bytes)
		}
	} else {
		col.Fields += int(r.fields)
		col.Bytes += int(r.bytes)
	}
	col.Stream += int(r.stream)
	return nil
}

func (d *traceDecoder) Close() {
	free(d.out)
	d.c.free()
}

// The rows' runners.

func newNghttp2TraceEncoder(t *trace.Trace, _ trace.Setting) (trace.TraceEncoder, error) {
	return newTraceEncoder(t, "nghttp2", 1, nghttp2TraceNVA, func(e *traceEncoder, keep bool) C.hq_tally {
		return nghttp2TraceDeflate(e.c, e.nva, e.out, e.lens, keep)
	}), nil
}

func newNghttp3TraceEncoder(t *trace.Trace, s trace.Setting) (trace.TraceEncoder, error) {
	return newTraceEncoder(t, "nghttp3", 2, nghttp3TraceNVA, func(e *traceEncoder, keep bool) C.hq_tally {
		return nghttp3TraceEncode(e.c, e.nva, s.Capacity, s.Blocked, e.out, e.lens, keep)
	}), nil
}

func newNghttp2TraceDecoder(t *trace.Trace, _ trace.Setting) (trace.TraceDecoder, error) {
	return &traceDecoder{c: newCTrace(t), lib: "nghttp2", out: new(C.hq_out), run: nghttp2TraceInflate}, nil
}

func newNghttp3TraceDecoder(t *trace.Trace, s trace.Setting) (trace.TraceDecoder, error) {
	return &traceDecoder{c: newCTrace(t), lib: "nghttp3", out: new(C.hq_out), run: func(c *cTrace, out *C.hq_out) C.hq_tally {
		return nghttp3TraceDecode(c, s.Capacity, s.Blocked, out)
	}}, nil
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
