package qpack

import (
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	quicgo "github.com/quic-go/qpack"

	"github.com/hqpack/hqpack/internal/codectest"
)

func decProperties(t *testing.T, n int) *gopter.Properties {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = n
	p.MaxSize = 40 // slices and strings: long enough, fast enough
	return gopter.NewProperties(p)
}

// genInstruction makes encoder-stream instructions, valid or not (indices
// past the table, entries too large), all complete.
func genInstruction() gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, 5), gen.UInt64Range(0, 110), gen.AlphaString(), gen.AnyString(), gen.Bool(),
	).Map(func(v []interface{}) []byte {
		idx, name, value, huff := v[1].(uint64), v[2].(string), v[3].(string), v[4].(bool)
		switch v[0].(int) {
		case 0:
			return insertStaticRef(idx%100, value, huff)
		case 1:
			return insertDynamicRef(idx%8, value, huff)
		case 2:
			return insertLiteral(name, value, huff)
		case 3:
			return duplicate(idx % 8)
		case 4:
			return setCapacity(idx * 40)
		}
		return insertLiteral("k", value, huff)
	})
}

// decoderState is what a decoder shows after reading an encoder stream.
type decoderState struct {
	Entries  [][2]string
	Inserted uint64
	Size     int
	Capacity int
	Out      []byte
	Err      string
}

func stateOf(d *Decoder, err error) decoderState {
	s := decoderState{Inserted: d.InsertCount(), Out: d.AppendDecoderStream(nil)}
	s.Size, s.Capacity = d.TableSize()
	for abs := d.InsertCount() - uint64(d.tbl.Len()); abs < d.InsertCount(); abs++ {
		n, v, _ := d.TableEntry(abs)
		s.Entries = append(s.Entries, [2]string{string(n), string(v)})
	}
	if err != nil {
		s.Err = err.Error()
	}
	return s
}

// TestPropertyEncoderStreamSplits: the encoder stream read in arbitrary
// pieces leaves the decoder exactly as read whole: table, insert count,
// decoder-stream output, and the same error at the same offset.
func TestPropertyEncoderStreamSplits(t *testing.T) {
	p := decProperties(t, 300)
	p.Property("split == whole", prop.ForAll(
		func(insts [][]byte, cuts []int, capSetting uint64) bool {
			stream := cat(append([][]byte{setCapacity(capSetting)}, insts...)...)
			cfg := DecoderConfig{MaxTableCapacity: capSetting, MaxEncoderStreamBuffer: 1 << 20}
			whole := newDecoder(cfg)
			want := stateOf(whole, whole.ReadEncoderStream(stream))

			split := newDecoder(cfg)
			var err error
			rest := stream
			for i := 0; len(rest) > 0 && err == nil; i++ {
				n := len(rest)
				if len(cuts) > 0 {
					n = min(n, cuts[i%len(cuts)])
				}
				err = split.ReadEncoderStream(rest[:n])
				rest = rest[n:]
			}
			got := stateOf(split, err)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Logf("stream %x (-whole +split):\n%s", stream, diff)
				return false
			}
			return true
		},
		gen.SliceOf(genInstruction()),
		gen.SliceOf(gen.IntRange(1, 9)),
		gen.OneConstOf(uint64(0), uint64(64), uint64(300), uint64(4096)),
	))
	p.TestingRun(t)
}

// TestPropertyNoPanic: arbitrary bytes on the encoder stream and as
// sections never panic, and every error is a typed one.
func TestPropertyNoPanic(t *testing.T) {
	p := decProperties(t, 1000)
	p.Property("typed errors", prop.ForAll(
		func(enc []byte, sections [][]byte, validate bool) bool {
			d := newDecoder(DecoderConfig{MaxTableCapacity: 256, MaxBlockedStreams: 2, Validate: validate, InitialCapacity: 256})
			ok := typedErr(t, d.ReadEncoderStream(enc))
			for i, s := range sections {
				_, err := d.DecodeSection(uint64(i), s, codectest.Discard{})
				ok = ok && typedErr(t, err)
				for {
					id, more := d.NextUnblocked()
					if !more {
						break
					}
					_, err := d.DecodeUnblocked(id, codectest.Discard{})
					ok = ok && typedErr(t, err)
				}
			}
			d.AppendDecoderStream(nil)
			return ok
		},
		gen.SliceOf(gen.UInt8()),
		gen.SliceOf(gen.SliceOf(gen.UInt8())),
		gen.Bool(),
	))
	p.TestingRun(t)
}

func typedErr(t *testing.T, err error) bool {
	var e *Error
	if err == nil || errors.As(err, &e) || err == ErrStreamBlocked {
		return true
	}
	t.Logf("untyped error %v (%T)", err, err)
	return false
}

// genFieldLine makes static-only field lines for the differential test,
// some invalid (static indices past 98, dynamic and post-base references).
func genFieldLine() gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, 9), gen.UInt64Range(0, 110), gen.AlphaString(), gen.AnyString(), gen.Bool(), gen.Bool(),
		gen.SliceOf(gen.UInt8()),
	).Map(func(v []interface{}) []byte {
		idx, name, value, never, huff := v[1].(uint64), v[2].(string), v[3].(string), v[4].(bool), v[5].(bool)
		switch v[0].(int) {
		case 0, 1:
			return indexedStatic(idx)
		case 2, 3:
			return literalStaticRef(idx, value, never, huff)
		case 4, 5:
			return literalName(name, value, never, huff)
		case 6:
			return indexedDynamic(idx)
		case 7:
			return indexedPostBase(idx)
		case 8:
			return literalPostBaseRef(idx, value, never, huff)
		}
		return v[6].([]uint8) // arbitrary bytes
	})
}

// TestDifferentialQuicGo compares the decoder with quic-go/qpack v0.6.0 on
// static-only sections: both give the same fields, or both reject. RFC 9204
// allows two differences, both in the prefix of a section with Required
// Insert Count 0:
//   - Delta Base > 0 with sign 0: the Base is then irrelevant ("any value"
//     may be used, §4.5.1.2); quic-go demands Base 0 and rejects, we accept.
//   - Sign 1 with Delta Base 0: a negative Base, invalid (§4.5.1.2);
//     quic-go ignores the sign bit and accepts, we reject.
func TestDifferentialQuicGo(t *testing.T) {
	p := decProperties(t, 2000)
	p.Property("same as quic-go", prop.ForAll(
		func(prefix []byte, lines [][]byte) bool {
			section := cat(append([][]byte{prefix}, lines...)...)
			var ours codectest.Recorder
			_, errOurs := newDecoder(DecoderConfig{}).DecodeSection(4, section, &ours)
			theirs, errTheirs := quicGoDecode(section)

			diff := ""
			switch {
			case errOurs == nil && errTheirs == nil:
				diff = cmp.Diff(theirs, ours.Pairs())
			case (errOurs == nil) != (errTheirs == nil):
				diff = "one rejects"
			}
			allowed := len(section) >= 2 && section[0] == 0 &&
				((section[1] > 0 && section[1] < 0x80 && errOurs == nil && errTheirs != nil) || // Base > 0
					(section[1] == 0x80 && errOurs != nil && errTheirs == nil)) // negative Base
			if diff != "" && !allowed {
				t.Logf("section %x: ours %v %v, quic-go %v %v: %s", section, ours.Pairs(), errOurs, theirs, errTheirs, diff)
				return false
			}
			return true
		},
		gen.OneGenOf(
			gen.Const([]byte{0, 0}), gen.Const([]byte{0, 0}), gen.Const([]byte{0, 0}),
			gen.OneConstOf([]byte{0, 5}, []byte{0, 0x80}, []byte{0, 0x85}, []byte{1, 0}, []byte{0}, []byte{}),
			gen.SliceOfN(2, gen.UInt8()),
		),
		gen.SliceOf(genFieldLine()),
	))
	p.TestingRun(t)
}

func quicGoDecode(section []byte) ([][2]string, error) {
	next := quicgo.NewDecoder().Decode(section)
	out := [][2]string{}
	for {
		hf, err := next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, [2]string{hf.Name, hf.Value})
	}
}
