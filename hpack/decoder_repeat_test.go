package hpack

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

// repSink records every call, and fails at its fail-th field (never at 0).
type repSink struct {
	calls []string
	fail  int
}

var errRepSink = errors.New("the sink stops")

func (s *repSink) Field(name, value []byte, f fastpath.Flags) error {
	s.calls = append(s.calls, fmt.Sprintf("%q: %q %#x", name, value, uint64(f)))
	if len(s.calls) == s.fail {
		return errRepSink
	}
	return nil
}

// TestDecodeRepeatChangesNothing runs two decoders side by side, one that
// does not remember sections, on connections whose sections often repeat:
// an encoder's (all indexed once the table holds them), and hand-made
// indexed sections, among sections that insert and evict, size updates
// that shrink the table under the remembered section, new limits, sinks
// that fail and invalid indexes. Every call of the sink, every error and
// the table must be the same.
func TestDecodeRepeatChangesNothing(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	hits := 0
	for seed := range seeds {
		r := rand.New(rand.NewSource(int64(seed)))
		cfg := DecoderConfig{MaxTableSize: []int{256, 4096}[r.Intn(2)]}
		switch r.Intn(4) {
		case 0:
			cfg.MaxSectionSize = 100 + r.Intn(300)
		case 1:
			cfg.MaxFields = 1 + r.Intn(6)
		case 2:
			cfg.Validate = true
		}
		var memo, plain Decoder
		memo.Init(cfg)
		plain.Init(cfg)
		plain.noRepeat = true
		enc := New(Config{TableLimit: cfg.MaxTableSize, Indexing: IndexAll})
		list := repRandomList(r)
		var raw []byte // the last hand-made section
		k := 0
		for step := range 80 {
			var block []byte
			if r.Intn(3) == 0 { // else the same kind of section again
				k = r.Intn(20)
			}
			switch {
			case k < 9: // the encoder's section, often the same as before
				if r.Intn(5) == 0 {
					list = repRandomList(r)
				}
				var l fastpath.FieldList
				for _, f := range list {
					l.Add(f[0], f[1], 0)
				}
				block = enc.AppendSection(nil, &l)
			case k < 16: // a hand-made section, often the last again
				if raw == nil || r.Intn(4) == 0 {
					raw = nil
					for range 1 + r.Intn(4) {
						i := 1 + r.Intn(61) // static
						switch n := memo.TableLen(); {
						case r.Intn(30) == 0:
							i = 62 + n + r.Intn(3) // past the table
						case n > 0 && r.Intn(2) == 0:
							i = 62 + r.Intn(min(n, 64))
						}
						raw = append(raw, 0x80|byte(i))
					}
					if r.Intn(3) == 0 { // :path "/", a literal that leaves the table alone
						raw = append(raw, 0x04, 0x01, '/')
					}
				}
				block = raw
			case k < 17: // a size update alone, maybe shrinking the table
				block = wire.AppendInt(nil, 0x20, 5, uint64(r.Intn(cfg.MaxTableSize+1)))
			default: // a new setting of ours, maybe owed an update
				v := uint32(r.Intn(cfg.MaxTableSize + 1))
				memo.SetMaxTableSize(v)
				plain.SetMaxTableSize(v)
				continue
			}
			if memo.rep.ready && string(memo.rep.block) == string(block) &&
				memo.tab.Inserted() == memo.rep.ins && memo.tab.Len() == memo.rep.n {
				hits++
			}
			fail := 0
			if r.Intn(5) == 0 {
				fail = 1 + r.Intn(4)
			}
			a, b := &repSink{fail: fail}, &repSink{fail: fail}
			var ea, eb error
			if cut := r.Intn(8); cut < 2 { // Write, which does not remember
				ea, eb = repWrite(&memo, block, cut, a), repWrite(&plain, block, cut, b)
			} else {
				ea, eb = memo.Decode(block, a), plain.Decode(block, b)
			}
			if fmt.Sprint(ea) != fmt.Sprint(eb) || !slices.Equal(a.calls, b.calls) {
				t.Fatalf("seed %d step %d, section % x: remembering, %v and %q; not, %v and %q", seed, step, block, ea, a.calls, eb, b.calls)
			}
			sa, ca := memo.TableSize()
			sb, cb := plain.TableSize()
			if sa != sb || ca != cb || memo.TableLen() != plain.TableLen() {
				t.Fatalf("seed %d step %d: tables differ", seed, step)
			}
			if errors.Is(ea, ErrClosed) || memo.err != nil {
				break // the connection is over
			}
		}
	}
	if hits < seeds {
		t.Fatalf("only %d sections were delivered from memory: the test does not reach repeat", hits)
	}
	t.Logf("%d sections delivered from memory", hits)
}

// repWrite decodes block with Write, whole or in two pieces, and End.
func repWrite(d *Decoder, block []byte, cut int, s fastpath.Sink) error {
	pieces := [][]byte{block}
	if cut == 1 && len(block) > 1 {
		pieces = [][]byte{block[:len(block)/2], block[len(block)/2:]}
	}
	for _, p := range pieces {
		if err := d.Write(p, s); err != nil {
			return err
		}
	}
	return d.End()
}

// repRandomList returns a few fields from small pools, so that lists
// repeat and their fields find entries.
func repRandomList(r *rand.Rand) [][2]string {
	names := []string{":status", "content-type", "server", "x-a", "x-b", "grpc-status"}
	values := []string{"200", "0", "text/plain", "application/grpc", "a much longer value to fill the table", ""}
	var l [][2]string
	for range 1 + r.Intn(5) {
		l = append(l, [2]string{names[r.Intn(len(names))], values[r.Intn(len(values))]})
	}
	return l
}

// TestDecodeRepeat checks that a section is delivered from memory from
// its third time in a row, and not once the table changed: an insert that
// evicts (the table's length stays the same), a size update that evicts.
func TestDecodeRepeat(t *testing.T) {
	var d Decoder
	d.Init(DecoderConfig{})
	decode := func(block []byte, wantHit bool, want ...decField) {
		t.Helper()
		hit := d.rep.ready && string(d.rep.block) == string(block) &&
			d.tab.Inserted() == d.rep.ins && d.tab.Len() == d.rep.n
		var c decCollect
		if err := d.Decode(block, &c); err != nil {
			t.Fatalf("% x: %v", block, err)
		}
		if hit != wantHit {
			t.Errorf("% x: from memory %v, want %v", block, hit, wantHit)
		}
		if !slices.Equal(c.fields, want) {
			t.Errorf("% x: %v, want %v", block, c.fields, want)
		}
	}
	// A table with room for one entry (2 bytes + 32), holding a: b.
	decode(append(wire.AppendInt(nil, 0x20, 5, 34), 0x40, 0x01, 'a', 0x01, 'b'), false, decField{"a", "b", false})
	block := []byte{0x88, 0xbe} // :status 200, entry 62
	status, ab, cd := decField{":status", "200", false}, decField{"a", "b", false}, decField{"c", "d", false}
	for _, hit := range []bool{false, false, true, true} {
		decode(block, hit, status, ab)
	}
	// Sections given to Write, not Decode, leave the remembered one as it
	// is: the table's state must tell that it changed.
	write := func(section []byte) {
		t.Helper()
		if err := d.Write(section, &decCollect{}); err != nil {
			t.Fatal(err)
		}
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
	}
	// c: d evicts a: b: one entry still, and entry 62 is c: d.
	write([]byte{0x40, 0x01, 'c', 0x01, 'd'})
	for _, hit := range []bool{false, false, true} {
		decode(block, hit, status, cd)
	}
	// A size update alone empties the table: entry 62 is gone.
	write([]byte{0x20})
	if err := d.Decode(block, &decCollect{}); !errors.Is(err, ErrInvalidIndex) {
		t.Errorf("entry 62 after the table was emptied: %v, want ErrInvalidIndex", err)
	}
}
