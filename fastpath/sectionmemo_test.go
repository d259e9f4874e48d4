package fastpath

import (
	"strings"
	"testing"
	"unsafe"
)

// TestSectionMemo checks what Match accepts after Save: the same section
// again, with any raw Content-Length number, and nothing that differs in a
// byte, an address, a length, a flag, a position or in being raw.
func TestSectionMemo(t *testing.T) {
	date := []byte("Tue, 02 Dec 2025 09:38:12 GMT")
	short := []byte("gzip")
	name := []byte("x-trace")
	str := func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
	build := func(l *FieldList, cl int64) {
		l.Reset()
		l.Add(":status", "200", 0)
		l.Add("date", str(date), 0)
		l.AddContentLength(cl)
		l.Add("content-encoding", str(short), 0)
		l.Add(str(name), "1", NoIndex)
	}
	var l FieldList
	var m SectionMemo
	if _, ok := m.Match(&l, 0); ok {
		t.Fatal("the zero memo matched")
	}
	// Seen once, a section is not matched: its copies are taken when it
	// comes again.
	build(&l, 10)
	if m.Save(&l, 0) {
		t.Fatal("Save took a section seen once")
	}
	build(&l, 10)
	if _, ok := m.Match(&l, 0); ok {
		t.Fatal("a section seen once matched")
	}
	if !m.Save(&l, 0) {
		t.Fatal("Save refused a small section seen twice")
	}
	build(&l, 10)
	if cl, ok := m.Match(&l, 0); !ok || cl != 10 {
		t.Fatalf("same section: %d, %v", cl, ok)
	}
	build(&l, 123456)
	if cl, ok := m.Match(&l, 0); !ok || cl != 123456 {
		t.Fatalf("another number: %d, %v", cl, ok)
	}
	for _, b := range [][]byte{date, short, name} {
		for _, i := range []int{0, len(b) - 1} {
			b[i] ^= 0x20
			build(&l, 10)
			if _, ok := m.Match(&l, 0); ok {
				t.Errorf("%q changed in place: matched", b)
			}
			b[i] ^= 0x20
		}
	}
	others := map[string]func(){
		"other address": func() { l.fields[1].value = strings.Clone(str(date)) },
		"other flags":   func() { l.fields[4].flags = uint64(NeverIndex) },
		"string length": func() { l.fields[2] = listField{"content-length", "", -1, uint64(contentLengthFlags)} },
		"one more":      func() { l.Add("vary", "accept", 0) },
		"one less":      func() { l.fields = l.fields[:4] },
		"swapped":       func() { l.fields[0], l.fields[1] = l.fields[1], l.fields[0] },
	}
	for what, change := range others {
		build(&l, 10)
		change()
		if _, ok := m.Match(&l, 0); ok {
			t.Errorf("%s: matched", what)
		}
	}
	// From a position: the fields before it do not count.
	build(&l, 10)
	m.Save(&l, 2)
	build(&l, 10)
	if !m.Save(&l, 2) {
		t.Fatal("Save from 2 refused")
	}
	build(&l, 7)
	l.fields[0].value = "404"
	if cl, ok := m.Match(&l, 2); !ok || cl != 7 {
		t.Errorf("from 2: %d, %v", cl, ok)
	}
	if _, ok := m.Match(&l, 1); ok {
		t.Error("from 1 matched a memo saved from 2")
	}
	m.Forget()
	if _, ok := m.Match(&l, 2); ok {
		t.Error("matched after Forget")
	}
}

// TestSectionMemoEachWord changes one word of one field at a time, to
// another string of the same length or other flags: Match must see each.
func TestSectionMemoEachWord(t *testing.T) {
	names := []string{":status", "date", "x-a", ":path", "vary"}
	values := []string{"200", "Tue, 02 Dec", "1", "/", "accept"}
	others := map[string]string{
		":status": ":method", "date": "etag", "x-a": "x-b", ":path": ":PATH", "vary": "VARY",
		"200": "404", "Tue, 02 Dec": "Wed, 03 Dec", "1": "2", "/": "*", "accept": "cookie",
	}
	build := func(l *FieldList) {
		l.Reset()
		for i := range names {
			l.Add(names[i], values[i], 0)
		}
	}
	var l FieldList
	var m SectionMemo
	build(&l)
	m.Save(&l, 0)
	build(&l)
	if !m.Save(&l, 0) {
		t.Fatal("Save refused the section seen twice")
	}
	for i := range names {
		changes := map[string]func(){
			"name":  func() { l.fields[i].name = others[names[i]] },
			"value": func() { l.fields[i].value = others[values[i]] },
			"flags": func() { l.fields[i].flags = uint64(NoIndex) },
			"raw":   func() { l.fields[i].raw = 5 },
		}
		for what, change := range changes {
			build(&l)
			if _, ok := m.Match(&l, 0); !ok {
				t.Fatal("the same section did not match")
			}
			change()
			if _, ok := m.Match(&l, 0); ok {
				t.Errorf("field %d, other %s: matched", i, what)
			}
		}
	}
}

// TestSectionMemoLimits checks the sections Save refuses, and the empty
// section.
func TestSectionMemoLimits(t *testing.T) {
	var m SectionMemo
	var l FieldList
	m.Save(&l, 0)
	if !m.Save(&l, 0) {
		t.Error("refused the empty section")
	}
	if cl, ok := m.Match(&l, 0); !ok || cl != -1 {
		t.Errorf("the empty section: %d, %v", cl, ok)
	}
	l.AddContentLength(1)
	l.AddContentLength(2)
	if m.Save(&l, 0) {
		t.Error("saved two raw Content-Lengths")
	}
	l.Reset()
	for range MemoFields + 1 {
		l.Add("a", "b", 0)
	}
	if m.Save(&l, 0) {
		t.Error("saved more than MemoFields fields")
	}
	m.Save(&l, 1)
	if !m.Save(&l, 1) {
		t.Error("refused MemoFields fields")
	}
	l.Reset()
	l.Add("a", strings.Repeat("b", MemoBytes), 0)
	if m.Save(&l, 0) {
		t.Error("saved more than MemoBytes bytes")
	}
	if _, ok := m.Match(&l, 0); ok {
		t.Error("a refused Save left a memo that matches")
	}
}
