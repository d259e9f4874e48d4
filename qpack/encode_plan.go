package qpack

import (
	"math"
	"slices"

	"github.com/hqpack/hqpack/internal/field"
	"github.com/hqpack/hqpack/internal/policy"
	"github.com/hqpack/hqpack/internal/wire"
	"strconv"
	"unsafe"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/static"
	"github.com/hqpack/hqpack/internal/table"
)

// repKind is the field line form chosen for one field (RFC 9204 §4.5).
type repKind uint8

const (
	repPending    repKind = iota // not chosen yet
	repStatic                    // Indexed Field Line, static
	repDynamic                   // Indexed Field Line or Indexed Post-Base, by Base
	repLitStatic                 // Literal with static Name Reference
	repLitDynamic                // Literal with dynamic or Post-Base Name Reference
	repLitName                   // Literal with Literal Name
	repLitDigits                 // Literal with static name 4, raw Content-Length digits
)

// staticContentLength is the QPACK static index of "content-length: 0".
const staticContentLength = 4

// planField is one planned field line, in 72 bytes: the slice of them
// grows with the longest section a connection sends. Between sections the
// slice keeps each line's table reference, without its strings: the next
// section's field at the same position is checked against it first (see
// Plan and planRemembered).
type planField struct {
	name, value string
	// ref is the static index or the dynamic absolute index the line
	// references; for repLitDigits, the raw Content-Length, or the code of
	// its digits when nlen is its length in bits (see planContentLength).
	ref uint64
	h   table.Hash // of name and value, for every lookup and the insert
	// nlen and vlen are the payload lengths of the literal name and value,
	// or -1 when not chosen (see choice); for a dynamic indexed line, the
	// lengths of its strings (as collect sets them), for planRemembered.
	nlen, vlen   int32
	kind         repKind
	never        bool
	nhuff, vhuff bool
	pol          uint8 // policy: fastpath.NeverIndex, NoIndex, Index or 0
	fl           uint8 // the field's policy flags (policyFlags), which gave pol
	sn           int8  // lowest static index with the name, or -1
	slot         int8  // name stats slot in the history, or -1
	// memo is set when the first pass found the field in the table with
	// LookupExact(h, name, value, lo, ref+memo): the end of its range (1: a static line).
	memo uint32
}

// sectionPlan is the section being planned or written.
type sectionPlan struct {
	fields    []planField
	stream    uint64
	ric, base uint64
	prefixLen int
	total     int
	next      int // next unit to write: -1 the prefix, then fields[next]
	active    bool
	lazy      bool // sized only as written, by AppendSection (see choice)

	// A static-only section, written when planned (planStatic).
	buffered bool
	buf      []byte // the section
	ends     []int  // the end of each unit in buf
	off      int    // bytes of buf written out
	unit     int    // next unit to write

	// While planning.
	start    uint64 // Insert Count when planning began
	minRef   uint64 // smallest absolute index referenced (max uint64 when none)
	maxRef   uint64 // largest absolute index referenced, when minRef is not
	minName  uint64 // smallest absolute index referenced by a name (max uint64 when none)
	name2    uint64 // the second smallest, of another line (max uint64 when none)
	maxName  uint64 // the largest (0 when none)
	canBlock bool   // may reference entries not known to be received
	early    bool   // the first pass runs as the fields are read
	dynamic  bool   // may use the dynamic table at all
	floor    uint64 // entries below it may be evicted (before minRef)
	drainLo  uint64 // entries below it are draining: not referenced (set by every insert)
	drainCum int    // see inserted
}

func (p *sectionPlan) reset() {
	clear(p.fields) // drop references to the caller's strings
	p.fields = p.fields[:0]
	p.active = false
	p.next = 0
	p.total = 0
	p.buffered = false
	p.ends = p.ends[:0]
}

// Plan plans the field section that fields enumerate, for stream streamID,
// and returns its exact encoded length (prefix and field lines). It consumes
// fields from the first: a *fastpath.FieldList is rewound, so the same list
// plans the same fields however often it is passed; another Enumerator is
// read from where it stands. The inserts the section relies on are made at once: they are
// pending on the encoder stream (AppendEncoderStream), and the section
// counts as unacknowledged from now on. Write it with Continue.
//
// Planning takes two passes over the fields. The first, in field order,
// references the entries that hold a field, and makes the inserts (and
// Duplicates) that the other fields want; the second chooses the literals'
// names, so that a name reference never pins an entry an insert of the
// section must evict.
//
// The Base is the Required Insert Count (every reference relative, Delta
// Base 0), unless a lower Base makes the section strictly shorter: the
// Insert Count when planning began (entries inserted for the section become
// post-base) or one past a referenced entry.
//
// A section planned but not completely written is abandoned by the next
// Plan. It still counts as unacknowledged until the peer acknowledges it or
// cancels the stream (with AckImmediate, it counts as acknowledged).
func (e *Encoder) Plan(streamID uint64, fields fastpath.Enumerator) int {
	rewind(fields)
	e.beginPlan(streamID)
	if e.staticOnly() {
		return e.planStatic(fields)
	}
	p := &e.pl
	p.start = e.tbl.Inserted()
	p.minRef, p.minName, p.name2 = ^uint64(0), ^uint64(0), ^uint64(0)
	p.maxRef, p.maxName = 0, 0
	p.dynamic = e.capacity > 0 && e.err == nil && len(e.out) < e.maxOut
	p.canBlock = false
	p.floor = 0
	blocked := false
	if p.dynamic && len(e.out) == 0 { // (the usual: every section acknowledged)
		p.canBlock, p.floor = e.maxBlocked > 0, e.krc
	} else if p.dynamic {
		n := e.blockedStreams()
		blocked = e.streamBlocked(streamID)
		p.canBlock = blocked || n < e.maxBlocked
		p.floor = min(e.krc, e.pinnedFloor())
	}
	// The first pass runs as the fields are read, except with AckNever
	// when worthBlocking must see the whole section before any lookup.
	late := p.canBlock && e.ack == AckNever && !blocked
	p.early = p.dynamic && !late // (a field, not a local reloaded after every call)
	e.scratch = e.scratch[:0]
	e.blocked = e.blocked[:0] // lines for the second pass (collectBlocked's scratch, free now)
	// A FieldList is read by index, its methods inlined: no dynamic call a
	// field, and its raw Content-Length comes with the field.
	l, _ := fields.(*fastpath.FieldList)
	for i := 0; ; i++ {
		var name, value string
		var f fastpath.Flags
		var raw int64
		if l != nil {
			if i == l.Len() {
				l.Seek(i) // consumed, as by Next
				break
			}
			name, value, f, raw = l.At(i)
		} else {
			if !fields.Next() {
				break
			}
			name, value, f, raw = e.field(fields)
		}
		if raw >= 0 {
			e.planContentLength(e.pl.push(), f, uint64(raw), true, "")
			continue
		}
		if n := len(p.fields); p.early && n < cap(p.fields) {
			// The memo (only a repDynamic or repStatic line has one), the lengths
			// and a static line (of a name never indexed but by the field's flag,
			// see collect) are checked here, inline: a call each cost more. The
			// field is read again after a miss: not kept (spilled) across the call.
			if m := lineAt(p.fields, n); m.memo != 0 && m.nlen == int32(len(name)) && m.vlen == int32(len(value)) {
				if m.kind == repStatic && f&fastpath.NeverIndex == 0 {
					if sn, sv := static.QPACKStrings(m.ref); (len(sn) < 8 && wire.EqualShort(sn, name) || len(sn) >= 8 && wire.EqualLoop(sn, name)) &&
						(len(sv) < 8 && wire.EqualShort(sv, value) || len(sv) >= 8 && wire.EqualLoop(sv, value)) {
						p.fields = p.fields[:n+1]
						continue
					}
				} else if m.kind != repStatic && e.planRemembered(m, name, value, f) {
					continue
				}
				if l != nil {
					name, value, f, _ = l.At(i)
				} else {
					name, value, f, _ = e.field(fields)
				}
			}
		}
		sx, sn := static.LookupQPACK(name, value) // static names are lowercase
		if sn < 0 && !field.IsLower(name) {
			name = e.keep(field.AppendLower(e.scratch, name))
			sx, sn = static.LookupQPACK(name, value)
		}
		if sn == staticContentLength {
			e.planContentLength(e.pl.push(), f, 0, false, value)
			continue
		}
		if pf := e.collect(name, value, f, sx, sn); pf.kind == repPending {
			e.blocked = append(e.blocked, uint64(len(p.fields)-1)) // (not a local: fewer spills)
		}
	}
	if late {
		if !e.worthBlocking() {
			p.canBlock = false
		}
		for _, i := range e.blocked {
			e.preInsert(&p.fields[i])
		}
	}
	// The second pass, over the lines still pending.
	for _, i := range e.blocked {
		if f := &p.fields[i]; f.kind == repPending {
			e.choose(f)
		}
	}
	e.finishPlan()
	return p.total
}

// planRemembered plans the field at the position of m, the line at that
// position in an earlier section, as collect and preInsert would, when m
// tells their answer without the lookups: the field is still in the
// dynamic table entry that m references (Recall). It reports whether it
// planned the field; the caller has checked that m is a remembered
// dynamic line (memo not 0) with the lengths of name and value (else
// another field, told without a look). Plan checks a static one itself.
func (e *Encoder) planRemembered(m *planField, name, value string, f fastpath.Flags) bool {
	p := &e.pl
	// The entry holds the strings that gave m.sn, and no static entry
	// matched them exactly. With the same flags, the policy is m's, which
	// was not NeverIndex (never-indexed fields are not referenced): the
	// name and the value's length, its other inputs, are the entry's.
	if fl := uint8(f & policyFlags); fl != m.fl {
		pol := decide(e.indexing, f, int(m.sn), len(value))
		if pol == fastpath.NeverIndex {
			return false
		}
		m.pol, m.fl = uint8(pol), fl
	}
	abs, since, hi := m.ref, m.ref+uint64(m.memo), e.refLimit()
	en := e.tbl.Recall(abs, hi)
	if en == nil || abs < p.drainLo || since < hi && e.tbl.HashedSince(&m.h, since, hi) {
		return false
	}
	if n, v := e.tbl.Strings(en); !(len(n) < 8 && wire.EqualShort(n, name) || len(n) >= 8 && wire.EqualLoop(n, name)) ||
		!(len(v) < 8 && wire.EqualShort(v, value) || len(v) >= 8 && wire.Equal(v, value)) {
		return false
	}
	// What collect and preInsert write: the rest of m is the same line
	// (slot -1 and never false, or preInsert would not have looked), and
	// an indexed dynamic line keeps no strings (see noStrings).
	m.memo = uint32(hi - abs)
	p.minRef, p.maxRef = min(p.minRef, abs), max(p.maxRef, abs) // reference, inline
	e.hist.referenced(abs)
	p.fields = p.fields[:len(p.fields)+1]
	return true
}

// noStrings drops the strings of a line just chosen to be an indexed
// dynamic one: written from its reference alone, it holds none (nor does
// a remembered one), so that AppendPlanned need not clear it.
func (f *planField) noStrings() { f.name, f.value = "", "" }

// memoSpan returns the memo of a line that LookupExact found at abs with
// hi as the end of its range (0, none, when it does not fit).
func memoSpan(abs, hi uint64) uint32 {
	if d := hi - abs; d <= math.MaxUint32 {
		return uint32(d)
	}
	return 0
}

// field returns the current field of fields, as FieldList.At: its raw
// Content-Length, or -1 (a negative one is sent as its decimal string).
func (e *Encoder) field(fields fastpath.Enumerator) (name, value string, f fastpath.Flags, raw int64) {
	name, value, f = fields.Field()
	if len(name) == len("content-length") && value == "" {
		if n, ok := fields.ContentLength(); ok {
			if n >= 0 {
				return name, value, f, n
			}
			value = e.keep(strconv.AppendInt(e.scratch, n, 10)) // not a length: sent as is
		}
	}
	return name, value, f, -1
}

// push appends a planned field, not zeroed (its writers set all), valid until the next push.
func (p *sectionPlan) push() *planField {
	if len(p.fields) == cap(p.fields) {
		p.fields = slices.Grow(p.fields, 1)
	}
	n := len(p.fields)
	p.fields = p.fields[:n+1] // (the length alone: no write barrier)
	return lineAt(p.fields, n)
}

// lineAt returns line i of fs (i < cap(fs), unchecked). The size is a variable: with
// the constant 72, each load or store under 8 bytes computed its address (base+9i*8).
func lineAt(fs []planField, i int) *planField {
	return (*planField)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(fs)), uintptr(i)*lineSize))
}

var lineSize = unsafe.Sizeof(planField{}) // (see lineAt)

// planContentLength plans content-length, held raw (n) or as a string, into
// pf, field by field (a struct built on the stack and copied stalls on store
// forwarding). Both give the same line: the indexed static entry 4 for 0,
// else a literal with static name reference 4. Content-length never enters
// the dynamic table. A raw length's Huffman-coded digits are coded here: ref
// holds their code, nlen its length in bits (0 for n itself in ref, see
// wire.DigitsCode).
func (e *Encoder) planContentLength(pf *planField, f fastpath.Flags, n uint64, raw bool, value string) {
	pf.name, pf.value, pf.memo, pf.sn, pf.slot, pf.nlen = "", "", 0, staticContentLength, -1, 0 // (no strings: written from ref)
	pf.never, pf.kind, pf.ref = f&fastpath.NeverIndex != 0, repLitStatic, staticContentLength
	switch {
	case (raw && n == 0 || !raw && value == "0") && !pf.never:
		pf.kind = repStatic
	case raw:
		vlen, vhuff, code, bits := wire.DigitsCode(e.huff, n)
		pf.kind, pf.ref, pf.vlen, pf.vhuff = repLitDigits, n, int32(vlen), vhuff
		if bits > 0 {
			pf.ref, pf.nlen = code, int32(bits)
		}
	default:
		vlen, vhuff := e.huff.Choose(value) // not memoized, as digits are not
		pf.value, pf.vlen, pf.vhuff = value, lenChoice(vlen), vhuff
	}
}

// keep returns the bytes that b appended to e.scratch as a string, valid
// while the plan is (the next Plan reuses the scratch; growing it leaves
// earlier strings in the old array).
func (e *Encoder) keep(b []byte) string {
	s := b[len(e.scratch):]
	e.scratch = b
	return unsafe.String(unsafe.SliceData(s), len(s))
}

// collect adds a field to the plan, settling what needs no table: static
// exact matches (sx and sn are static.LookupQPACK's); in an early first pass,
// preInsert the rest. It returns the line, valid until the next one is added.
func (e *Encoder) collect(name, value string, f fastpath.Flags, sx, sn int) *planField {
	pf := e.pl.push()
	pf.memo, pf.nlen, pf.vlen = 0, int32(len(name)), int32(len(value))
	// A static line is written from ref alone: no strings (as a line past
	// the plan holds none) nor policy. An exact match is never indexed only
	// by its flag or its name's class (Never, Cookie): else no policy runs,
	// and the line is remembered (see Plan).
	if sx >= 0 && f&fastpath.NeverIndex == 0 && nameClasses[sn] < policy.Never {
		pf.kind, pf.ref, pf.memo = repStatic, uint64(sx), 1
		return pf
	}
	pol := decide(e.indexing, f, sn, len(value))
	if sx >= 0 && pol != fastpath.NeverIndex {
		pf.kind, pf.ref = repStatic, uint64(sx)
		return pf
	}
	// Field by field: a literal's stack copy stalls on store forwarding.
	pf.name, pf.value, pf.pol, pf.fl, pf.sn, pf.slot, pf.never = name, value, uint8(pol), uint8(f&policyFlags), int8(sn), -1, pol == fastpath.NeverIndex
	pf.kind = repPending // ref, h and the lengths: set before read, by the passes
	if e.pl.early {
		e.preInsert(pf) // (here, not in Plan: a return and a call fewer)
	}
	return pf
}

// preInsert is the first pass for one field, in field order: reference the
// entry that holds it, or insert it (or duplicate a draining copy) if that
// pays, or insert its name alone. Name references wait for choose.
func (e *Encoder) preInsert(pf *planField) {
	p := &e.pl
	// Nothing needs the hash of a never-indexed field with a static name, or
	// of a NoIndex one whose name no entry had (see emitInsert): no lookup.
	if fastpath.Flags(pf.pol)&(fastpath.NeverIndex|fastpath.NoIndex) != 0 && pf.sn >= 0 && (pf.never || e.hist.named>>(pf.sn&63)&1 == 0) {
		if !pf.never {
			pf.slot = int8(e.hist.sawName(nameHash(pf.name, pf.sn)))
		}
		return
	}
	// A name of the static table is keyed by its index, not hashed: every
	// hash of the encoder's table keys names so (worthBlocking too; a name
	// outside it, sn -1, is hashed, as insertName's Hash does). vh is the
	// value's hash, for the history; newest the newest entry holding the
	// field, for insertField.
	var vh, abs, newest uint64
	var exact, held bool
	if hi := e.refLimit(); pf.never { // not looked up (its name is not static)
		pf.h = e.tbl.Hash(pf.name, pf.value)
	} else if pf.h, vh, abs, exact, newest, held = e.tbl.LookupExactAllID(int(pf.sn)+1, pf.name, pf.value, p.drainLo, hi); exact {
		e.reference(abs)
		pf.kind, pf.ref, pf.memo = repDynamic, abs, memoSpan(abs, min(hi, e.tbl.Inserted()))
		pf.noStrings()
		return
	}
	pf.slot = int8(e.hist.sawName(nameHash(pf.name, pf.sn))) // (a never-indexed name is not static)
	if !pf.never && e.insertField(pf, newest, held, vh) {
		if pf.kind == repPending { // inserted or duplicated: the newest entry (see choose)
			pf.ref, pf.memo = e.tbl.Inserted()-1, 1
		}
		return
	}
	if pf.sn < 0 && e.hist.names[pf.slot&(nameSlots-1)].seen >= 2 { // (slot: sawName's)
		e.insertName(pf)
	}
}

// choose is the second pass for one field: the line.
func (e *Encoder) choose(pf *planField) {
	p := &e.pl
	name, value := pf.name, pf.value
	var nameAbs uint64 // a referenceable entry with this name
	nameFound := false
	if p.dynamic {
		// The range is preInsert's, or narrower: the Known Received Count
		// does not move while planning, the draining zone only rises with
		// inserts (its end follows the bytes ever inserted), and the limit
		// moves only with inserts, when the section may block.
		hi := e.refLimit()
		switch {
		case pf.never:
			// The name of the newest entry holding the field, if any, as
			// LookupHashed answers; a static name goes first.
			if pf.sn < 0 {
				nameAbs, _, nameFound = e.tbl.LookupHashed(pf.h, name, value, p.drainLo, hi)
			}
		default:
			// preInsert's lookup missed below the entries inserted since:
			// only those can hold the field now (entry ref if memo: see preInsert).
			if p.canBlock && hi > p.start {
				if abs, ok := e.tbl.LookupAfter(&pf.h, name, value, pf.ref, pf.memo != 0, max(p.drainLo, p.start), hi); ok {
					e.reference(abs)
					pf.kind, pf.ref, pf.memo = repDynamic, abs, memoSpan(abs, min(hi, e.tbl.Inserted())) // remembered, as preInsert's
					pf.noStrings()
					return
				}
			}
			pf.memo = 0    // a literal: not remembered
			if pf.sn < 0 { // a static name goes first
				nameAbs, nameFound = e.tbl.LookupName(pf.h, name, p.drainLo, hi)
			}
		}
	}
	pf.vlen, pf.vhuff = e.choice(value)
	switch {
	case pf.sn >= 0:
		pf.kind, pf.ref = repLitStatic, uint64(pf.sn)
	case nameFound:
		e.reference(nameAbs)
		p.minName, p.name2, p.maxName = min(p.minName, nameAbs), min(p.name2, max(p.minName, nameAbs)), max(p.maxName, nameAbs)
		pf.kind, pf.ref = repLitDynamic, nameAbs
	default:
		pf.kind = repLitName
		pf.nlen, pf.nhuff = e.choice(name)
	}
}

// choice returns the payload length of literal s and whether it is
// Huffman-coded, or -1 for a section that AppendSection writes at once:
// appendChosen then codes s in one pass, not a pass to size it and another.
func (e *Encoder) choice(s string) (int32, bool) {
	if e.pl.lazy {
		return -1, false // (inline: the call is the rest)
	}
	return e.chooseNow(s)
}

// chooseNow is choice for a section not lazy.
func (e *Encoder) chooseNow(s string) (int32, bool) {
	n, huff := e.huff.Choose(s)
	return lenChoice(n), huff
}

// lenChoice returns a payload length as a plan holds it: -1 (coded as it
// is written, sized again when asked) past what 32 bits hold.
func lenChoice(n int) int32 {
	if n > math.MaxInt32 {
		return -1
	}
	return int32(n)
}

// refLimit returns the end of the range of absolute indexes the section may
// reference.
func (e *Encoder) refLimit() uint64 {
	if e.pl.canBlock {
		return e.tbl.Inserted()
	}
	return e.krc
}

// reference records that the section references entry abs.
func (e *Encoder) reference(abs uint64) {
	e.pl.minRef, e.pl.maxRef = min(e.pl.minRef, abs), max(e.pl.maxRef, abs)
	e.hist.referenced(abs) // (both inline)
}

// drainFraction and drainMax size the draining zone: 1/8 of the table,
// at most 256 bytes.
const (
	drainFraction = 8
	drainMax      = 256
)
