package hpack

import (
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
	"github.com/hqpack/hqpack/static"
)

// replay remembers, for each position of the last sections, the field that
// was there and the table entry it was sent as. A server sends the same
// fields in the same order, section after section: the field at position i
// is looked for in slot i first, which costs a comparison of the key and of
// the bytes, without hashing and without reading the table's entry.
//
// A slot holds the caller's addresses as integers (no caller memory is kept
// alive) and the strings they are verified against: static-table strings,
// which the caller's constants usually share (the linker keeps one copy of
// equal string constants, and the comparison stops at the address), or the
// table entry's bytes in the arena. Those stay as they were while the entry
// is live (the table never writes a live entry's bytes, and moves entries
// by copying to a new arena), and a slot is used only while its entry is.
type replay [replayLen]replaySlot

// replayLen is how many leading positions of a section are replayed.
const replayLen = 32

type replaySlot struct {
	name, value uintptr
	lens        uint64 // len(name)+1<<32 | len(value); 0 in an empty slot
	f           fastpath.Flags
	// abs is the dynamic entry's absolute index plus one; 0 means the
	// static entry whose index is sidx.
	abs           uint64
	sidx          uint8
	cname, cvalue string
	// line, when not empty, is the whole field as sent (a literal with the
	// static name sidx, not inserted, when no entry had that name and the
	// table's capacity was tcap), and cvalue is a copy of the value: the
	// field is sent as line again while nothing that decided it changed.
	line []byte
	tcap int
	buf  []byte // holds the copy and line, reused
}

// replayLineMax bounds the copy and line one slot keeps, so the slots keep
// at most replayLen*replayLineMax bytes.
const replayLineMax = 256

func replayKey(name, value string) uint64 {
	return uint64(len(name)+1)<<32 | uint64(uint32(len(value)))
}

// replayRun writes, from field i of l on, the fields that their replay
// slots know (and raw Content-Lengths whose digits were coded last), as
// long as each fits in buf, and returns buf and the index of the first
// field it did not write. The caller has no size update pending.
func (e *Encoder) replayRun(buf []byte, l *fastpath.FieldList, i int) ([]byte, int) {
	// Kept in registers: the loop stores nothing but output bytes.
	ins, live := e.table.Inserted(), uint64(e.table.Len())
	nth := e.nth
	for ; i < l.Len() && uint(nth) < replayLen && len(buf) < cap(buf); i, nth = i+1, nth+1 {
		name, value, f, raw := l.At(i)
		if raw >= 0 {
			// A raw Content-Length whose digits are the ones coded last:
			// contentLength's bytes, without leaving the loop.
			if e.clLen == 0 || e.clN != uint64(raw) || len(buf)+2+int(e.clLen) > cap(buf) {
				break
			}
			e.clAt = len(buf)
			buf = appendLengthHead(buf, f)
			buf = append(buf, e.clLine[:e.clLen]...)
			e.clEnd = len(buf)
			continue
		}
		s := &e.replay[nth]
		if s.name != uintptr(unsafe.Pointer(unsafe.StringData(name))) || s.lens != replayKey(name, value) ||
			s.value != uintptr(unsafe.Pointer(unsafe.StringData(value))) || s.f != f ||
			!wire.Same(s.cname, name) {
			break
		}
		// The value, compared inline (wire.Equal): a call to memequal
		// would make the loop spill its state.
		if !wire.Equal(s.cvalue, value) {
			break
		}
		if len(s.line) != 0 {
			if s.tcap != e.capNow || e.named&(1<<s.sidx) != 0 || len(buf)+len(s.line) > cap(buf) {
				break
			}
			buf = append(buf, s.line...)
			continue
		}
		b := patIndexed | s.sidx
		if s.abs != 0 {
			// rel counts from the newest entry; an evicted entry's rel
			// is past the live ones.
			rel := ins - s.abs
			if rel >= live || rel >= 0x7f-static.HPACKLen-1 {
				break
			}
			b = patIndexed | byte(static.HPACKLen+1+rel)
		}
		buf = append(buf, b)
	}
	e.nth = nth
	return buf, i
}

// note records in slot e.nth that the field (name, value, f), with name
// already lowercase, was sent as the static entry sidx (abs 0) or the
// dynamic entry abs-1.
func (e *Encoder) note(name, value string, f fastpath.Flags, sidx int, abs uint64) {
	if uint(e.nth) >= replayLen || e.memoOff {
		return
	}
	s := &e.replay[e.nth]
	*s = replaySlot{
		name: uintptr(unsafe.Pointer(unsafe.StringData(name))), value: uintptr(unsafe.Pointer(unsafe.StringData(value))),
		lens: replayKey(name, value), f: f, abs: abs, buf: s.buf,
	}
	if abs == 0 {
		ent := &staticEntries[sidx]
		s.sidx, s.cname, s.cvalue = uint8(sidx), ent.Name, ent.Value
		return
	}
	n, v, ok := e.table.Abs(abs - 1)
	if !ok {
		s.lens = 0
		return
	}
	s.cname = unsafe.String(unsafe.SliceData(n), len(n))
	if _, nameIdx := static.LookupHPACK(name, ""); nameIdx != 0 {
		s.cname = staticEntries[nameIdx].Name
	}
	s.cvalue = unsafe.String(unsafe.SliceData(v), len(v))
}

// noteLine records in slot e.nth that the field (name, value, f), with name
// already lowercase, was sent as line: a literal with the static name sidx
// that was not inserted, when no table entry had that name.
func (e *Encoder) noteLine(name, value string, f fastpath.Flags, sidx int, line []byte) {
	if uint(e.nth) >= replayLen || e.memoOff || len(value)+len(line) > replayLineMax {
		return
	}
	s := &e.replay[e.nth]
	buf := append(s.buf[:0], value...)
	buf = append(buf, line...)
	*s = replaySlot{
		name: uintptr(unsafe.Pointer(unsafe.StringData(name))), value: uintptr(unsafe.Pointer(unsafe.StringData(value))),
		lens: replayKey(name, value), f: f, sidx: uint8(sidx),
		cname: staticEntries[sidx].Name, cvalue: unsafe.String(unsafe.SliceData(buf), len(value)),
		line: buf[len(value):], tcap: e.capNow, buf: buf,
	}
}
