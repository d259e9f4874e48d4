package bench

import (
	"bytes"
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
// response encoded, as a server holds them between requests. Each
// iteration makes connMemConns connections and keeps them all alive; the
// heap is measured after a collection, before and after.
func BenchmarkConnMemory(b *testing.B) {
	reqBlock := xnetBlock(b, request) // the request as a client encodes it
	var rl fastpath.FieldList
	buildRequest(&rl)
	qreq := new(qpack.Encoder).AppendSection(0, nil, &rl)
	b.Run("codec=hpack/impl=hqpack", func(b *testing.B) {
		connMemory(b, func() any {
			c := new(struct {
				e hpack.Encoder
				d hpack.Decoder
			})
			var s countSink
			if err := c.d.Decode(reqBlock, &s); err != nil {
				b.Fatal(err)
			}
			var l fastpath.FieldList
			buildResponse(&l)
			c.e.AppendSection(make([]byte, 0, 512), &l)
			return c
		})
	})
	b.Run("codec=hpack/impl=xnet", func(b *testing.B) {
		connMemory(b, func() any {
			var buf bytes.Buffer
			c := struct {
				e *xhpack.Encoder
				d *xhpack.Decoder
			}{xhpack.NewEncoder(&buf), xhpack.NewDecoder(4096, func(xhpack.HeaderField) {})}
			if _, err := c.d.DecodeFull(reqBlock); err != nil {
				b.Fatal(err)
			}
			for _, f := range responseStrings() {
				c.e.WriteField(xhpack.HeaderField{Name: f.name, Value: f.value})
			}
			return c
		})
	})
	qpackConn := func(ecfg qpack.EncoderConfig, dcfg qpack.DecoderConfig) func() any {
		return func() any {
			c := new(struct {
				e qpack.Encoder
				d qpack.Decoder
			})
			c.e.Init(ecfg)
			c.d.Init(dcfg)
			var s countSink
			if _, err := c.d.DecodeSection(0, qreq, &s); err != nil {
				b.Fatal(err)
			}
			var l fastpath.FieldList
			buildResponse(&l)
			c.e.AppendSection(0, make([]byte, 0, 512), &l)
			c.e.AppendEncoderStream(nil)
			return c
		}
	}
	b.Run("codec=qpack/impl=hqpack", func(b *testing.B) {
		connMemory(b, qpackConn(qpack.EncoderConfig{}, qpack.DecoderConfig{}))
	})
	b.Run("codec=qpack/impl=hqpack-dyn", func(b *testing.B) {
		connMemory(b, qpackConn(dynConfig, dynDecoderConfig))
	})
	b.Run("codec=qpack/impl=quicgo", func(b *testing.B) {
		connMemory(b, func() any {
			c := struct {
				e *quicgo.Encoder
				d *quicgo.Decoder
			}{quicgo.NewEncoder(io.Discard), quicgo.NewDecoder()}
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
			return c
		})
	})
}

const connMemConns = 1000

// connMemory makes connMemConns connections with conn per iteration and
// reports the heap they hold, per connection.
func connMemory(b *testing.B, conn func() any) {
	var held int64
	var keep []any
	for b.Loop() {
		keep = make([]any, connMemConns)
		before := heapInUse()
		for i := range keep {
			keep[i] = conn()
		}
		held = heapInUse() - before
	}
	runtime.KeepAlive(keep)
	b.ReportMetric(float64(held)/connMemConns, "bytes/conn")
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
