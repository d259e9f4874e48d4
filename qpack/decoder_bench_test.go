package qpack

import (
	"io"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	quicgo "github.com/quic-go/qpack"
)

// BenchmarkDecodeRequest decodes the static-only 13-field request of
// decoder_alloc_test.go, beside quic-go/qpack (bench/ holds the project's
// comparisons; this one keeps the decoder's own figure at hand).
func BenchmarkDecodeRequest(b *testing.B) {
	b.Run("impl=hqpack", func(b *testing.B) {
		var d Decoder
		sink := fastpath.NewSinkList(64, 16<<10)
		b.SetBytes(int64(len(requestStatic)))
		b.ReportAllocs()
		for b.Loop() {
			sink.Reset()
			if _, err := d.DecodeSection(4, requestStatic, sink); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=quicgo", func(b *testing.B) {
		d := quicgo.NewDecoder()
		b.SetBytes(int64(len(requestStatic)))
		b.ReportAllocs()
		for b.Loop() {
			next := d.Decode(requestStatic)
			for {
				if _, err := next(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkDecodeDynamic decodes a section of dynamic references once the
// table is warm, with its acknowledgment.
func BenchmarkDecodeDynamic(b *testing.B) {
	var d Decoder
	d.Init(DecoderConfig{MaxTableCapacity: 4096})
	stream := cat(setCapacity(4096),
		insertStaticRef(0, "www.example.com", true), insertStaticRef(1, "/index.html?q=1", true),
		insertStaticRef(95, "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0", true),
		insertStaticRef(5, "session=abcdef0123456789; theme=dark", true),
		insertLiteral("accept-language", "en-US,en;q=0.5", true))
	if err := d.ReadEncoderStream(stream); err != nil {
		b.Fatal(err)
	}
	section := cat(sectionPrefix(5, 5, 128), indexedStatic(17), indexedStatic(23),
		indexedDynamic(4), indexedDynamic(3), indexedDynamic(2), indexedStatic(29), indexedDynamic(0),
		indexedStatic(31), indexedDynamic(1), literalStaticRef(13, "https://www.example.com/", false, true),
		indexedStatic(72))
	sink := fastpath.NewSinkList(64, 16<<10)
	var out []byte
	b.SetBytes(int64(len(section)))
	b.ReportAllocs()
	for b.Loop() {
		sink.Reset()
		if _, err := d.DecodeSection(4, section, sink); err != nil {
			b.Fatal(err)
		}
		out = d.AppendDecoderStream(out[:0])
	}
}
