package qpack

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// TestFieldMemoChangesNothing runs two encoders side by side, one without
// fieldMemo and planRepeat, on connections where sections mostly repeat (the same
// strings, as a server sends them) and sometimes change a field, its
// flags, or everything; acknowledgments arrive late, in pieces, or never.
// Every section and every byte of the encoder stream must be the same.
func TestFieldMemoChangesNothing(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 80
	}
	hits, repeats := 0, 0
	for seed := range seeds {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := etDynamic([]uint64{256, 512, 4096}[r.Intn(3)], []uint64{0, 1, 100}[r.Intn(3)])
		cfg.AckMode = []AckMode{AckDecoderStream, AckDecoderStream, AckImmediate, AckNever}[r.Intn(4)]
		if r.Intn(4) == 0 {
			cfg.Indexing = IndexAll
		}
		memo, plain := etEncoder(cfg), etEncoder(cfg)
		plain.memoOff = true
		var dec Decoder
		dec.Init(DecoderConfig{MaxTableCapacity: cfg.MaxTableCapacity, MaxBlockedStreams: 1 << 20})
		var ds []byte
		var la, lb fastpath.FieldList
		sec := etRandomSection(r)
		for step := range 60 {
			switch k := r.Intn(10); {
			case k < 4: // the same section again, the same strings
			case k < 6: // the same strings, new raw Content-Lengths
				sec = append([]etField(nil), sec...)
				for i := range sec {
					if sec[i].Raw {
						sec[i].CL = []int64{0, 7, 1024, 99999, 1 << 40}[r.Intn(5)]
					}
				}
			case k < 8 && len(sec) > 0: // one field changes
				sec = append([]etField(nil), sec...)
				i := r.Intn(len(sec))
				if r.Intn(2) == 0 {
					sec[i].Flags = []fastpath.Flags{0, fastpath.NeverIndex, fastpath.NoIndex, fastpath.Index}[r.Intn(4)]
				} else if f := etRandomSection(r); len(f) > 0 {
					sec[i] = f[0]
				}
			default:
				sec = etRandomSection(r)
			}
			id := uint64(4 * step)
			var a, b []byte
			switch r.Intn(4) {
			case 0:
				a = memo.AppendSection(id, nil, newEtFields(sec))
				b = plain.AppendSection(id, nil, newEtFields(sec))
			case 1: // in pieces: the units must end in the same places
				size := 1 + r.Intn(12)
				var ca, cb []int
				a, ca = etPieces(t, memo, id, etList(&la, sec), size)
				b, cb = etPieces(t, plain, id, etList(&lb, sec), size)
				if !slices.Equal(ca, cb) {
					t.Fatalf("seed %d step %d: in %d-byte pieces, with the memo the results and lengths are %v; without %v", seed, step, size, ca, cb)
				}
			default: // a FieldList, which a repeated plan needs
				a = memo.AppendSection(id, nil, etList(&la, sec))
				b = plain.AppendSection(id, nil, etList(&lb, sec))
			}
			ea, eb := memo.AppendEncoderStream(nil), plain.AppendEncoderStream(nil)
			if !bytes.Equal(a, b) || !bytes.Equal(ea, eb) {
				t.Fatalf("seed %d step %d: with the memo section %x, stream %x; without %x, %x", seed, step, a, ea, b, eb)
			}
			if cfg.AckMode != AckDecoderStream {
				continue
			}
			// The peer's decoder reads everything; its acknowledgments
			// come back a random part at a time.
			if err := dec.ReadEncoderStream(ea); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			var sink etSink
			if _, err := dec.DecodeSection(id, a, &sink); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			ds = dec.AppendDecoderStream(ds)
			n := r.Intn(len(ds) + 1)
			if err := memo.ReadDecoderStream(ds[:n]); err != nil {
				t.Fatal(err)
			}
			if err := plain.ReadDecoderStream(ds[:n]); err != nil {
				t.Fatal(err)
			}
			ds = append(ds[:0], ds[n:]...)
		}
		for k := range memo.fmemo {
			if memo.fmemo[k].lens != 0 {
				hits++
			}
		}
		if memo.rep.ok {
			repeats++
		}
	}
	if hits == 0 || repeats == 0 {
		t.Fatalf("memo slots in use %d, repeatable plans %d at the ends: the test does not reach them", hits, repeats)
	}
	t.Logf("%d memo slots in use and %d repeatable plans at the ends", hits, repeats)
}

// etPieces writes the section of fields with Begin and Continue into
// buffers of size bytes, bigger ones for a unit that does not fit. It
// returns the pieces joined, and the Results with the length of each piece.
func etPieces(t *testing.T, e *Encoder, id uint64, fields fastpath.Enumerator, size int) (sec []byte, calls []int) {
	t.Helper()
	buf := make([]byte, size)
	n, res := e.Begin(id, buf, fields)
	for {
		sec = append(sec, buf[:n]...)
		calls = append(calls, int(res), n)
		switch res {
		case Done:
			return sec, calls
		case BufferTooSmall:
			buf = make([]byte, 2*len(buf))
		}
		n, res = e.Continue(buf)
	}
}

// etList fills l with sec's fields, raw Content-Lengths with
// AddContentLength.
func etList(l *fastpath.FieldList, sec []etField) *fastpath.FieldList {
	l.Reset()
	for _, f := range sec {
		if f.Raw {
			l.AddContentLength(f.CL)
		} else {
			l.Add(f.Name, f.Value, f.Flags)
		}
	}
	return l
}

// TestFieldMemoHit checks that a repeated section takes the memo's path:
// its fields are known without the static table's lookup, and found
// without the dynamic table's.
func TestFieldMemoHit(t *testing.T) {
	e := etEncoder(EncoderConfig{MaxTableCapacity: 4096, TableCapacity: 4096, MaxBlockedStreams: 100, AckMode: AckImmediate})
	sec := []etField{{Name: ":status", Value: "200"}, {Name: "server", Value: "hqpack"},
		{Name: "x-id", Value: "abc"}, {Raw: true, CL: 12}, {Name: "date", Value: "Wed, 02 Dec 2026 17:00:00 GMT"}}
	for i := range 4 {
		e.AppendSection(uint64(4*i), nil, newEtFields(sec))
	}
	e.Plan(16, newEtFields(sec))
	p := &e.pl
	for k, pf := range p.fields {
		switch pf.name {
		case ":status", "content-length":
			if pf.memo {
				t.Errorf("field %d (%s): memo, want the static table", k, pf.name)
			}
			continue
		}
		if !pf.memo || pf.kind != repDynamic {
			t.Errorf("field %d (%s): memo %v, kind %d; want memo and a dynamic reference", k, pf.name, pf.memo, pf.kind)
		}
		if _, ok := e.fmemo.found(&e.tbl, k, p.drainLo, e.refLimit()); !ok {
			t.Errorf("field %d (%s): the memo's lookup state is not the table's", k, pf.name)
		}
	}
	// The same bytes at another address miss, and still encode the same.
	other := append([]etField(nil), sec...)
	other[1].Value = string([]byte("hqpack"))
	e.Plan(20, newEtFields(other))
	if e.pl.fields[1].memo {
		t.Error("a value at another address was taken from the memo")
	}
	if e.pl.fields[1].kind != repDynamic {
		t.Errorf("kind %d, want the dynamic reference", e.pl.fields[1].kind)
	}
}

// TestRepeatedPlanPieces writes a repeated response whose raw
// Content-Length changes its length (and between 0, an indexed line, and
// a literal) in pieces of every size: the repeated plan must end its units
// where the planned section does, and register its section to be
// acknowledged as the planned one does.
func TestRepeatedPlanPieces(t *testing.T) {
	sec := []etField{{Name: ":status", Value: "200"}, {Name: "server", Value: "hqpack"},
		{Raw: true}, {Name: "x-id", Value: "abc"}, {Name: "date", Value: "Wed, 02 Dec 2026 17:00:00 GMT"}}
	lengths := []int64{7, 7, 7, 7, 1 << 40, 0, 99999, 12, 1 << 50, 0, 0}
	for _, mode := range []AckMode{AckImmediate, AckDecoderStream} {
		cfg := EncoderConfig{MaxTableCapacity: 4096, TableCapacity: 4096, MaxBlockedStreams: 100, AckMode: mode}
		for size := 1; size <= 24; size++ {
			memo, plain := etEncoder(cfg), etEncoder(cfg)
			plain.memoOff = true
			var dec Decoder
			dec.Init(DecoderConfig{MaxTableCapacity: 4096, MaxBlockedStreams: 100})
			var la, lb fastpath.FieldList
			written := 0
			for i, n := range lengths {
				sec[2].CL = n
				id := uint64(4 * i)
				a, ca := etPieces(t, memo, id, etList(&la, sec), size)
				b, cb := etPieces(t, plain, id, etList(&lb, sec), size)
				ea, eb := memo.AppendEncoderStream(nil), plain.AppendEncoderStream(nil)
				if !bytes.Equal(a, b) || !slices.Equal(ca, cb) || !bytes.Equal(ea, eb) {
					t.Fatalf("%v, %d-byte pieces, section %d: with the memo %x %v, stream %x; without %x %v, %x",
						mode, size, i, a, ca, ea, b, cb, eb)
				}
				if memo.rep.written {
					written++
				}
				if mode != AckDecoderStream {
					continue
				}
				if err := dec.ReadEncoderStream(ea); err != nil {
					t.Fatal(err)
				}
				if _, err := dec.DecodeSection(id, a, &etSink{}); err != nil {
					t.Fatal(err)
				}
				ds := dec.AppendDecoderStream(nil)
				if err := memo.ReadDecoderStream(ds); err != nil {
					t.Fatalf("%v, %d-byte pieces, section %d: with the memo: %v", mode, size, i, err)
				}
				if err := plain.ReadDecoderStream(ds); err != nil {
					t.Fatalf("%v, %d-byte pieces, section %d: without the memo: %v", mode, size, i, err)
				}
			}
			if written < len(lengths)-4 {
				t.Fatalf("%v, %d-byte pieces: %d of %d sections repeated from their bytes", mode, size, written, len(lengths))
			}
		}
	}
}
