package bench

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/qpack"
	quicgo "github.com/quic-go/qpack"
	xhpack "golang.org/x/net/http2/hpack"
)

// BenchmarkConnMemory reports the heap a connection's header codecs hold
// (bytes/conn): an encoder and a decoder, after one request decoded and one
// response encoded, as a server holds them between requests; the turns=3
// rows after three of each, the steady state of a connection whose codecs
// grow on use (the QPACK decoder's memo starts at its second section). Each
// iteration makes connMemConns connections and keeps them all alive; the
// heap is measured after a collection, before and after.
//
// hqpack rows also report table-B/conn: the names and values in the live
// entries of both dynamic tables, the contents proper (without the RFC's 32
// bytes per entry), which bytes/conn includes; bytes/conn minus table-B/conn
// is what the codecs hold beyond the table contents.
func BenchmarkConnMemory(b *testing.B) {
	reqBlock := xnetBlock(b, request) // the request as a client encodes it
	var rl fastpath.FieldList
	buildRequest(&rl)
	qreq := new(qpack.Encoder).AppendSection(0, nil, &rl)
	for _, turns := range []int{1, 3} {
		connMemoryRows(b, turns, reqBlock, qreq)
	}
}

// connMemoryRows runs BenchmarkConnMemory's rows with turns requests
// decoded and responses encoded per connection.
func connMemoryRows(b *testing.B, turns int, reqBlock, qreq []byte) {
	name := func(row string) string {
		if turns == 1 {
			return row
		}
		return fmt.Sprintf("%s/turns=%d", row, turns)
	}
	b.Run(name("codec=hpack/impl=hqpack"), func(b *testing.B) {
		connMemory(b, func() (any, int) {
			c := new(struct {
				e hpack.Encoder
				d hpack.Decoder
			})
			for range turns {
				var s countSink
				if err := c.d.Decode(reqBlock, &s); err != nil {
					b.Fatal(err)
				}
				var l fastpath.FieldList
				buildResponse(&l)
				c.e.AppendSection(make([]byte, 0, 512), &l)
			}
			return c, hpackTableBytes(c.e.TableEntry) + hpackTableBytes(c.d.TableEntry)
		})
	})
	b.Run(name("codec=hpack/impl=xnet"), func(b *testing.B) {
		connMemory(b, func() (any, int) {
			var buf bytes.Buffer
			c := struct {
				e *xhpack.Encoder
				d *xhpack.Decoder
			}{xhpack.NewEncoder(&buf), xhpack.NewDecoder(4096, func(xhpack.HeaderField) {})}
			for range turns {
				if _, err := c.d.DecodeFull(reqBlock); err != nil {
					b.Fatal(err)
				}
				buf.Reset()
				for _, f := range responseStrings() {
					c.e.WriteField(xhpack.HeaderField{Name: f.name, Value: f.value})
				}
			}
			return c, -1
		})
	})
	qpackConn := func(ecfg qpack.EncoderConfig, dcfg qpack.DecoderConfig) func() (any, int) {
		return func() (any, int) {
			c := new(struct {
				e qpack.Encoder
				d qpack.Decoder
			})
			c.e.Init(ecfg)
			c.d.Init(dcfg)
			for i := range uint64(turns) {
				var s countSink
				if _, err := c.d.DecodeSection(4*i, qreq, &s); err != nil {
					b.Fatal(err)
				}
				var l fastpath.FieldList
				buildResponse(&l)
				c.e.AppendSection(4*i, make([]byte, 0, 512), &l)
				c.e.AppendEncoderStream(nil)
			}
			return c, qpackTableBytes(c.e.InsertCount(), c.e.TableEntry) + qpackTableBytes(c.d.InsertCount(), c.d.TableEntry)
		}
	}
	b.Run(name("codec=qpack/impl=hqpack"), func(b *testing.B) {
		connMemory(b, qpackConn(qpack.EncoderConfig{}, qpack.DecoderConfig{}))
	})
	b.Run(name("codec=qpack/impl=hqpack-dyn"), func(b *testing.B) {
		connMemory(b, qpackConn(dynConfig, dynDecoderConfig))
	})
	b.Run(name("codec=qpack/impl=quicgo"), func(b *testing.B) {
		connMemory(b, func() (any, int) {
			c := struct {
				e *quicgo.Encoder
				d *quicgo.Decoder
			}{quicgo.NewEncoder(io.Discard), quicgo.NewDecoder()}
			for range turns {
				next := c.d.Decode(qreq)
				for {
					if _, err := next(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
				for _, f := range responseStrings() {
					c.e.WriteField(quicgo.HeaderField{Name: f.name, Value: f.value})
				}
			}
			return c, -1
		})
	})
}

const connMemConns = 1000

// connMemory makes connMemConns connections with conn per iteration and
// reports the heap they hold, per connection, and the bytes of their
// tables' contents that conn returns (-1: not known, not reported).
func connMemory(b *testing.B, conn func() (any, int)) {
	var held int64
	var keep []any
	tables := 0
	for b.Loop() {
		keep = make([]any, connMemConns)
		before := heapInUse()
		for i := range keep {
			keep[i], tables = conn()
		}
		held = heapInUse() - before
	}
	runtime.KeepAlive(keep)
	b.ReportMetric(float64(held)/connMemConns, "bytes/conn")
	if tables >= 0 {
		b.ReportMetric(float64(tables), "table-B/conn")
	}
}

// hpackTableBytes returns the name and value bytes of the live entries
// that entry, an hpack Encoder's or Decoder's TableEntry, reads.
func hpackTableBytes(entry func(int) ([]byte, []byte, bool)) int {
	n := 0
	for i := 0; ; i++ {
		name, value, ok := entry(i)
		if !ok {
			return n
		}
		n += len(name) + len(value)
	}
}

// qpackTableBytes is hpackTableBytes for a qpack codec that has made
// inserted inserts.
func qpackTableBytes(inserted uint64, entry func(uint64) ([]byte, []byte, bool)) int {
	n := 0
	for abs := range inserted {
		if name, value, ok := entry(abs); ok {
			n += len(name) + len(value)
		}
	}
	return n
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// xnetBlock is fs as x/net's encoder writes a connection's first section.
func xnetBlock(b *testing.B, fs []field) []byte {
	var buf bytes.Buffer
	e := xhpack.NewEncoder(&buf)
	for _, f := range fs {
		if err := e.WriteField(xhpack.HeaderField{Name: f.name, Value: f.value}); err != nil {
			b.Fatal(err)
		}
	}
	return buf.Bytes()
}
