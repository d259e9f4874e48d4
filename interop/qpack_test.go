//go:build interop && cgo

package interop

import (
	"fmt"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/conformance"
	"github.com/hqpack/hqpack/qpack"
)

// qpackSetting is a connection's settings for the QPACK interop tests:
// the decoder's SETTINGS_QPACK_MAX_TABLE_CAPACITY (used whole by the
// encoder) and SETTINGS_QPACK_BLOCKED_STREAMS, and how late the encoder
// stream arrives: every lag sections it is delivered, with the decoder
// stream sent back; 1 delivers it before each section.
type qpackSetting struct {
	capacity, blocked, lag int
}

func (s qpackSetting) String() string {
	return fmt.Sprintf("capacity=%d/blocked=%d/lag=%d", s.capacity, s.blocked, s.lag)
}

func qpackSettings() []qpackSetting {
	var ss []qpackSetting
	for _, c := range []int{0, 256, 512, 4096} {
		for _, b := range []int{0, 100} {
			for _, lag := range []int{1, 3} {
				ss = append(ss, qpackSetting{c, b, lag})
			}
		}
	}
	return ss
}

// streamID is the stream of list i: client-initiated bidirectional.
func streamID(i int) int64 { return 4 * int64(i) }

// qpackSender is the encoding end of a test connection.
type qpackSender interface {
	// encode encodes list i on its stream, returning the section and the
	// encoder-stream bytes it depends on.
	encode(i int, hs conformance.Headers) (section, es []byte, err error)
	readDecoderStream(b []byte) error
}

// qpackReceiver is the decoding end of a test connection.
type qpackReceiver interface {
	readEncoderStream(b []byte) error
	decodeSection(stream int64, section []byte) (fs []Field, blocked bool, err error)
	// unblocked decodes the held sections the inserts read so far
	// complete.
	unblocked() (map[int64][]Field, error)
	decoderStream() ([]byte, error)
	held() int
}

// qpackConn runs lists over a connection from enc to dec at setting s: the
// encoder stream is delivered every s.lag sections (before the section
// when s.lag is 1, so that nothing blocks), then the decoder's stream goes
// back to the encoder. It returns the fields dec decoded by stream, the
// bytes enc wrote (encoder stream and sections), and how many sections
// dec held blocked.
func qpackConn(lists []conformance.Headers, s qpackSetting, enc qpackSender, dec qpackReceiver) (got map[int64][]Field, total, held int, err error) {
	got = map[int64][]Field{}
	var es []byte
	deliver := func() error {
		if err := dec.readEncoderStream(es); err != nil {
			return err
		}
		es = es[:0]
		done, err := dec.unblocked()
		if err != nil {
			return err
		}
		for id, fs := range done {
			got[id] = fs
		}
		ds, err := dec.decoderStream()
		if err != nil {
			return err
		}
		return enc.readDecoderStream(ds)
	}
	for i, hs := range lists {
		section, e, err := enc.encode(i, hs)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("list %d: %w", i, err)
		}
		total += len(section) + len(e)
		es = append(es, e...)
		if s.lag == 1 {
			if err := deliver(); err != nil {
				return nil, 0, 0, fmt.Errorf("list %d: %w", i, err)
			}
		}
		fs, blocked, err := dec.decodeSection(streamID(i), section)
		switch {
		case err != nil:
			return nil, 0, 0, fmt.Errorf("list %d: %w", i, err)
		case blocked && s.lag == 1:
			return nil, 0, 0, fmt.Errorf("list %d blocked with its inserts delivered first", i)
		case blocked:
			held++
		default:
			got[streamID(i)] = fs
		}
		if s.lag > 1 && i%s.lag == s.lag-1 {
			if err := deliver(); err != nil {
				return nil, 0, 0, fmt.Errorf("list %d: %w", i, err)
			}
		}
	}
	if err := deliver(); err != nil {
		return nil, 0, 0, err
	}
	if n := dec.held(); n != 0 {
		return nil, 0, 0, fmt.Errorf("%d sections still blocked with the whole encoder stream delivered", n)
	}
	return got, total, held, nil
}

// hqpackSender is hqpack's encoder, with the tests' never-indexed
// requests and raw Content-Lengths.
type hqpackSender struct {
	e qpack.Encoder
	l fastpath.FieldList
}

func newHQPACKSender(s qpackSetting, ack qpack.AckMode) *hqpackSender {
	h := new(hqpackSender)
	h.e.Init(qpack.EncoderConfig{
		MaxTableCapacity:  uint64(s.capacity),
		MaxBlockedStreams: uint64(s.blocked),
		TableCapacity:     uint64(s.capacity),
		AckMode:           ack,
	})
	return h
}

func (h *hqpackSender) encode(i int, hs conformance.Headers) (section, es []byte, err error) {
	fill(&h.l, i, hs)
	section = h.e.AppendSection(uint64(streamID(i)), nil, &h.l)
	return section, h.e.AppendEncoderStream(nil), nil
}

func (h *hqpackSender) readDecoderStream(b []byte) error { return h.e.ReadDecoderStream(b) }

// nghttp3Sender is nghttp3's encoder, given the same never-indexed
// requests.
type nghttp3Sender struct{ *QPACKEncoder }

func (n nghttp3Sender) encode(i int, hs conformance.Headers) (section, es []byte, err error) {
	return n.Encode(streamID(i), fields(i, hs))
}

func (n nghttp3Sender) readDecoderStream(b []byte) error { return n.ReadDecoderStream(b) }

// hqpackReceiver is hqpack's decoder, into a SinkList.
type hqpackReceiver struct {
	d    qpack.Decoder
	sink fastpath.SinkList
}

func newHQPACKReceiver(s qpackSetting) *hqpackReceiver {
	h := new(hqpackReceiver)
	h.d.Init(qpack.DecoderConfig{MaxTableCapacity: uint64(s.capacity), MaxBlockedStreams: uint64(s.blocked)})
	return h
}

func (h *hqpackReceiver) readEncoderStream(b []byte) error { return h.d.ReadEncoderStream(b) }

func (h *hqpackReceiver) decodeSection(stream int64, section []byte) ([]Field, bool, error) {
	h.sink.Reset()
	blocked, err := h.d.DecodeSection(uint64(stream), section, &h.sink)
	if err != nil || blocked {
		return nil, blocked, err
	}
	return sinkFields(&h.sink), false, nil
}

func (h *hqpackReceiver) unblocked() (map[int64][]Field, error) {
	done := map[int64][]Field{}
	for {
		id, ok := h.d.NextUnblocked()
		if !ok {
			return done, nil
		}
		h.sink.Reset()
		if blocked, err := h.d.DecodeUnblocked(id, &h.sink); err != nil || blocked {
			return nil, fmt.Errorf("stream %d: DecodeUnblocked: blocked %v, %v", id, blocked, err)
		}
		done[int64(id)] = sinkFields(&h.sink)
	}
}

func (h *hqpackReceiver) decoderStream() ([]byte, error) { return h.d.AppendDecoderStream(nil), nil }

func (h *hqpackReceiver) held() int { return h.d.BlockedStreams() }

// nghttp3Receiver is nghttp3's decoder.
type nghttp3Receiver struct{ *QPACKDecoder }

func (n nghttp3Receiver) readEncoderStream(b []byte) error { return n.ReadEncoderStream(b) }

func (n nghttp3Receiver) decodeSection(stream int64, section []byte) ([]Field, bool, error) {
	return n.DecodeSection(stream, section)
}

func (n nghttp3Receiver) unblocked() (map[int64][]Field, error) { return n.Unblock() }

func (n nghttp3Receiver) decoderStream() ([]byte, error) { return n.DecoderStream() }

func (n nghttp3Receiver) held() int { return n.Blocked() }

// TestQPACKToNghttp3 encodes every QIF with hqpack's encoder at every
// setting and decodes it with nghttp3's decoder. The encoder stream
// arrives late, so sections block where the setting allows it (and must
// not where it does not: nghttp3 0.8 does not check that), and
// nghttp3's decoder stream, its Section Acknowledgments and Insert Count
// Increments, goes back to hqpack's encoder, which evicts and references
// entries by what it says.
func TestQPACKToNghttp3(t *testing.T) {
	runQPACK(t, hqpackToNghttp3)
}

// TestNghttp3ToQPACK encodes every QIF with nghttp3's encoder at every
// setting and decodes it with hqpack's decoder, the encoder stream
// arriving late; hqpack's decoder stream goes back to nghttp3, which
// rejects acknowledgments it did not expect.
func TestNghttp3ToQPACK(t *testing.T) {
	runQPACK(t, nghttp3ToQPACK)
}

// runQPACK runs conn on every QIF at every setting, and checks that the
// late encoder stream made sections block where the setting allows.
func runQPACK(t *testing.T, conn func([]conformance.Headers, qpackSetting) (total, held int, err error)) {
	files := qifs(t)
	for _, s := range qpackSettings() {
		t.Run(s.String(), func(t *testing.T) {
			held := 0
			for _, name := range qifFiles {
				_, n, err := conn(files[name], s)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				held += n
			}
			checkHeld(t, s, held)
		})
	}
}

// hqpackToNghttp3 returns the bytes hqpack wrote and how many sections
// nghttp3 held blocked.
func hqpackToNghttp3(lists []conformance.Headers, s qpackSetting) (total, held int, err error) {
	dec, err := NewQPACKDecoder(s.capacity, s.blocked)
	if err != nil {
		return 0, 0, err
	}
	defer dec.Close()
	got, total, held, err := qpackConn(lists, s, newHQPACKSender(s, qpack.AckDecoderStream), nghttp3Receiver{dec})
	if err != nil {
		return 0, 0, err
	}
	for i, hs := range lists {
		if err := checkList(i, hs, got[streamID(i)], true); err != nil {
			return 0, 0, err
		}
	}
	return total, held, nil
}

// nghttp3ToQPACK returns the bytes nghttp3 wrote and how many sections
// hqpack's decoder held blocked. A second nghttp3 decoder, given every
// section after its inserts, says what nghttp3 sent, never-indexed bits
// included (its policy differs from the one hqpack shares with nghttp2):
// hqpack's decoder must read the same.
func nghttp3ToQPACK(lists []conformance.Headers, s qpackSetting) (total, held int, err error) {
	enc, err := NewQPACKEncoder(s.capacity, s.blocked)
	if err != nil {
		return 0, 0, err
	}
	defer enc.Close()
	ref, err := NewQPACKDecoder(s.capacity, s.blocked)
	if err != nil {
		return 0, 0, err
	}
	defer ref.Close()
	want := make([][]Field, len(lists))
	tee := &teeSender{nghttp3Sender{enc}, func(i int, section, es []byte) (err error) {
		if err = ref.ReadEncoderStream(es); err == nil {
			want[i], _, err = ref.DecodeSection(streamID(i), section)
		}
		return err
	}}
	got, total, held, err := qpackConn(lists, s, tee, newHQPACKReceiver(s))
	if err != nil {
		return 0, 0, err
	}
	if n := enc.BlockedStreams(); n != 0 {
		return 0, 0, fmt.Errorf("nghttp3 still counts %d blocked streams with everything acknowledged", n)
	}
	for i, hs := range lists {
		if err := checkList(i, hs, want[i], false); err != nil {
			return 0, 0, fmt.Errorf("reference: %w", err)
		}
		if err := sameFields(got[streamID(i)], want[i]); err != nil {
			return 0, 0, fmt.Errorf("list %d: %w", i, err)
		}
	}
	return total, held, nil
}

// teeSender hands what a sender writes to see as well.
type teeSender struct {
	qpackSender
	see func(i int, section, es []byte) error
}

func (t *teeSender) encode(i int, hs conformance.Headers) (section, es []byte, err error) {
	if section, es, err = t.qpackSender.encode(i, hs); err == nil {
		err = t.see(i, section, es)
	}
	return section, es, err
}

// checkHeld checks that the late encoder stream made sections wait where
// the setting allows it, and nowhere else: otherwise the test would not
// cover blocked streams.
func checkHeld(t *testing.T, s qpackSetting, held int) {
	t.Helper()
	if can := s.capacity > 0 && s.blocked > 0 && s.lag > 1; can != (held > 0) {
		t.Errorf("%d sections were held blocked", held)
	}
}

// TestQPACKCompressionBesideNghttp3 sets the bytes hqpack's encoder writes
// over the QIFs (encoder stream and sections) beside nghttp3's at each
// capacity and blocked-streams limit, in three ack modes: QIFS's 1 (every
// section acknowledged once written) and 0 (nothing ever acknowledged),
// and a real decoder stream, each side's acknowledgments coming from
// nghttp3's decoder and hqpack's decoder after every section (with the
// tests' never-indexed requests, the same for both).
//
// hqpack must write no more than nghttp3 where acknowledgments arrive.
// With none, the rows are only logged: at capacity 256 with 100 blocked
// streams nghttp3 0.8 writes 0.26% less than hqpack. Nothing is ever
// evicted then, and nghttp3 never inserts a name outside its list of known
// names, which keeps such a small table for common fields; hqpack fills it
// with the first fields that come. Doing as nghttp3 does would win there
// and lose at 512 and 4096 (measured), and QPACK without
// acknowledgments exists only in QIFS files.
func TestQPACKCompressionBesideNghttp3(t *testing.T) {
	files := qifs(t)
	type mode struct {
		name string
		ack  qpack.AckMode
	}
	modes := []mode{{"immediate", qpack.AckImmediate}, {"never", qpack.AckNever}, {"decoder-stream", qpack.AckDecoderStream}}
	t.Logf("%-9s %-8s %-15s %9s %9s %9s", "capacity", "blocked", "acks", "hqpack", "nghttp3", "diff")
	for _, c := range []int{0, 256, 512, 4096} {
		for _, b := range []int{0, 100} {
			for _, m := range modes {
				ours, theirs := 0, 0
				for _, name := range qifFiles {
					lists := files[name]
					s := qpackSetting{c, b, 1}
					var o, th int
					var err error
					if m.ack == qpack.AckDecoderStream {
						if o, _, err = hqpackToNghttp3(lists, s); err == nil {
							th, _, err = nghttp3ToQPACK(lists, s)
						}
					} else {
						o, err = hqpackBytes(lists, s, m.ack)
						if err == nil {
							th, err = nghttp3Bytes(lists, s, m.ack == qpack.AckImmediate)
						}
					}
					if err != nil {
						t.Fatalf("%s %v %s: %v", name, s, m.name, err)
					}
					ours += o
					theirs += th
				}
				t.Logf("%-9d %-8d %-15s %9d %9d %+9d", c, b, m.name, ours, theirs, ours-theirs)
				if ours > theirs && m.ack != qpack.AckNever {
					t.Errorf("capacity %d, blocked %d, acks %s: hqpack wrote %d bytes, more than nghttp3's %d", c, b, m.name, ours, theirs)
				}
			}
		}
	}
	t.Logf("nghttp3: libnghttp3 %s", Nghttp3Version())
}

// hqpackBytes encodes lists with hqpack alone, in ack mode AckImmediate
// or AckNever, and returns the bytes it wrote, as the QIFS records hold
// them without their headers.
func hqpackBytes(lists []conformance.Headers, s qpackSetting, ack qpack.AckMode) (int, error) {
	recs, err := conformance.ReadRecords(conformance.EncodeQIF(lists, qpack.EncoderConfig{
		MaxTableCapacity: uint64(s.capacity), MaxBlockedStreams: uint64(s.blocked), TableCapacity: uint64(s.capacity), AckMode: ack,
	}))
	total := 0
	for _, r := range recs {
		total += len(r.Data)
	}
	return total, err
}

// nghttp3Bytes encodes lists with nghttp3 alone and returns the bytes it
// wrote, every section acknowledged as soon as written or none ever.
func nghttp3Bytes(lists []conformance.Headers, s qpackSetting, ack bool) (int, error) {
	enc, err := NewQPACKEncoder(s.capacity, s.blocked)
	if err != nil {
		return 0, err
	}
	defer enc.Close()
	total := 0
	for i, hs := range lists {
		fs := make([]Field, len(hs))
		for j, h := range hs {
			fs[j] = Field{Name: h.Name, Value: h.Value}
		}
		section, es, err := enc.Encode(streamID(i), fs)
		if err != nil {
			return 0, err
		}
		total += len(section) + len(es)
		if ack {
			enc.AckEverything()
		}
		if n := enc.BlockedStreams(); n > s.blocked {
			return 0, fmt.Errorf("list %d: nghttp3 counts %d blocked streams, over %d", i, n, s.blocked)
		}
	}
	return total, nil
}
