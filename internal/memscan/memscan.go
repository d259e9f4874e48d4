// Package memscan finds bytes in the memory reachable from a value: every
// field, element, string and the whole capacity of every slice, through
// pointers, interfaces and maps. Tests use it to show that a codec holds
// nothing of a connection after Init: not in a cache, not in a buffer's
// spare capacity.
package memscan

import (
	"bytes"
	"fmt"
	"reflect"
	"unsafe"
)

// Find returns the path of the first place reachable from root (a pointer,
// usually) whose bytes contain one of needles, or "" when there is none.
// Memory behind an unsafe.Pointer or a uintptr is not followed.
func Find(root any, needles ...[]byte) string {
	s := scanner{needles: needles, seen: make(map[seenKey]bool)}
	s.walk(reflect.ValueOf(root), "root")
	return s.found
}

type seenKey struct {
	p uintptr
	t reflect.Type
	n int
}

type scanner struct {
	needles [][]byte
	seen    map[seenKey]bool
	found   string
}

func (s *scanner) scan(b []byte, path string) {
	for _, n := range s.needles {
		if s.found == "" && len(n) > 0 && bytes.Contains(b, n) {
			s.found = path
		}
	}
}

// visit reports whether memory at p of type t and length n is new.
func (s *scanner) visit(p uintptr, t reflect.Type, n int) bool {
	k := seenKey{p, t, n}
	if s.seen[k] {
		return false
	}
	s.seen[k] = true
	return true
}

func (s *scanner) walk(v reflect.Value, path string) {
	if s.found != "" || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && s.visit(v.Pointer(), v.Type(), 0) {
			s.walk(v.Elem(), path)
		}
	case reflect.Interface:
		if !v.IsNil() {
			s.walk(v.Elem(), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			s.walk(v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	case reflect.String:
		str := v.String()
		s.scan(unsafe.Slice(unsafe.StringData(str), len(str)), path)
	case reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 && v.CanAddr() {
			s.scan(unsafe.Slice((*byte)(v.Addr().UnsafePointer()), v.Len()), path)
			return
		}
		for i := range v.Len() {
			s.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || !s.visit(v.Pointer(), v.Type(), v.Cap()) {
			return
		}
		elem := v.Type().Elem()
		if elem.Kind() == reflect.Uint8 {
			s.scan(unsafe.Slice((*byte)(v.UnsafePointer()), v.Cap()), path)
			return
		}
		// Every element up to the capacity: what a slice keeps past its
		// length is held all the same.
		for i := range v.Cap() {
			e := reflect.NewAt(elem, unsafe.Add(v.UnsafePointer(), uintptr(i)*elem.Size())).Elem()
			s.walk(e, fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			s.walk(it.Key(), path+"{key}")
			s.walk(it.Value(), path+"{value}")
		}
	}
}
