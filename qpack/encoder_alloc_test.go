package qpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/wire"
)

// etResponse is a typical response, with a raw Content-Length.
func etResponse(l *fastpath.FieldList, n int64) {
	l.Reset()
	l.Add(":status", "200", 0)
	l.Add("content-type", "text/html; charset=utf-8", 0)
	l.AddContentLength(n)
	l.Add("date", "Fri, 01 Dec 2017 02:47:59 GMT", 0)
	l.Add("server", "hqpack", 0)
	l.Add("cache-control", "private, max-age=0", 0)
	l.Add("x-request-id", "0123456789abcdef", 0)
}

func TestEncoderAllocs(t *testing.T) {
	for _, cfg := range []EncoderConfig{
		{},
		etDynamic(4096, 100),
		{MaxTableCapacity: 4096, TableCapacity: 4096, MaxBlockedStreams: 100, AckMode: AckImmediate},
	} {
		e := etEncoder(cfg)
		var l fastpath.FieldList
		buf := make([]byte, 0, 512)
		frame := make([]byte, 64)
		es := make([]byte, 0, 4096)
		var ack []byte
		id := uint64(0)
		round := func() {
			etResponse(&l, 1234+int64(id))
			buf = e.AppendSection(id, buf[:0], &l)
			es = e.AppendEncoderStream(es[:0])
			// The same section again, in frames.
			l.Rewind()
			for n, res := e.Begin(id+4, frame, &l); res != fastpath.Done; n, res = e.Continue(frame) {
				_ = n
			}
			es = e.AppendEncoderStream(es[:0])
			if cfg.AckMode == AckDecoderStream && e.Outstanding() > 0 {
				ack = ack[:0]
				for _, s := range e.out {
					ack = wire.AppendInt(ack, 0x80, 7, s.stream)
				}
				if err := e.ReadDecoderStream(ack); err != nil {
					t.Fatal(err)
				}
			}
			id = (id + 8) % 64
		}
		for range 100 {
			round() // warm up: the table, the plan, the tracking grow to size
		}
		if cfg.TableCapacity > 0 && (e.InsertCount() == 0 || len(buf) > 20) {
			t.Fatalf("%+v: the table is not used: %d inserts, %d-byte section", cfg, e.InsertCount(), len(buf))
		}
		if n := testing.AllocsPerRun(200, round); n != 0 {
			t.Errorf("%+v: %v allocations per warm section pair", cfg, n)
		}
	}
}
