//go:build interop && cgo

package interop

/*
#include <stdlib.h>
#include <string.h>
#include "cbuf.h"
*/
import "C"

import (
	"encoding/binary"
	"unsafe"
)

// Field is a field as the C libraries give and take it.
type Field struct {
	Name, Value string
	// NeverIndex is the never-indexed bit: sent as a never-indexed
	// literal, or received as one.
	NeverIndex bool
}

// cfields lays out fields for hq_nv: their bytes one after the other, the
// lengths in pairs and the never-indexed bits. None of it holds a Go
// pointer, so C may read it during a call.
type cfields struct {
	bytes []byte
	lens  []C.size_t
	never []C.uint8_t
}

func makeCFields(fields []Field) cfields {
	var c cfields
	for _, f := range fields {
		c.bytes = append(c.bytes, f.Name...)
		c.bytes = append(c.bytes, f.Value...)
		c.lens = append(c.lens, C.size_t(len(f.Name)), C.size_t(len(f.Value)))
		var n C.uint8_t
		if f.NeverIndex {
			n = 1
		}
		c.never = append(c.never, n)
	}
	// C gets a valid pointer even for no fields or no bytes.
	c.bytes = append(c.bytes, 0)
	c.lens = append(c.lens, 0)
	c.never = append(c.never, 0)
	return c
}

// args returns the pointers hq_nv takes, and the number of fields.
func (c *cfields) args() (*C.uint8_t, *C.size_t, *C.uint8_t, C.size_t) {
	return (*C.uint8_t)(&c.bytes[0]), &c.lens[0], &c.never[0], C.size_t(len(c.never) - 1)
}

// nothing is where ptr points for an empty slice: C gets a valid pointer.
var nothing C.uint8_t

// ptr returns a pointer to b's bytes for C.
func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return &nothing
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// take copies o's bytes into Go memory and empties o, keeping its memory.
func take(o *C.hq_out) []byte {
	if o.len == 0 {
		return nil
	}
	b := C.GoBytes(unsafe.Pointer(o.p), C.int(o.len))
	o.len = 0
	return b
}

// free releases o's memory.
func free(o *C.hq_out) {
	C.free(unsafe.Pointer(o.p))
	*o = C.hq_out{}
}

// parseFields reads the fields hq_put_field wrote.
func parseFields(b []byte) []Field {
	var fs []Field
	for len(b) > 0 {
		n := binary.LittleEndian.Uint32(b)
		name := string(b[4 : 4+n])
		b = b[4+n:]
		n = binary.LittleEndian.Uint32(b)
		value := string(b[4 : 4+n])
		fs = append(fs, Field{name, value, b[4+n] != 0})
		b = b[5+n:]
	}
	return fs
}
