package qpack

import (
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// A 13-field browser request, static-only (as quic-go/qpack encodes it).
var requestStatic = cat(sectionPrefix(0, 0, 0),
	indexedStatic(17), // :method GET
	indexedStatic(23), // :scheme https
	literalStaticRef(0, "www.example.com", false, true), // :authority
	literalStaticRef(1, "/index.html?q=1", false, true), // :path
	literalStaticRef(95, "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0", false, true),
	literalStaticRef(29, "text/html,application/xhtml+xml", false, true), // accept
	literalName("accept-language", "en-US,en;q=0.5", false, true),
	indexedStatic(31), // accept-encoding
	literalStaticRef(5, "session=abcdef0123456789; theme=dark", true, true), // cookie, never-indexed
	literalStaticRef(13, "https://www.example.com/", false, true),           // referer
	literalName("sec-fetch-dest", "document", false, false),
	literalName("sec-fetch-mode", "navigate", false, false),
	literalName("upgrade-insecure-requests", "1", false, false),
)

func TestDecodeAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	sink := fastpath.NewSinkList(64, 16<<10)

	t.Run("static section", func(t *testing.T) {
		d := newDecoder(DecoderConfig{Validate: true})
		n := testing.AllocsPerRun(100, func() {
			sink.Reset()
			if _, err := d.DecodeSection(4, requestStatic, sink); err != nil || sink.Len() != 13 {
				t.Fatal(err, sink.Len())
			}
		})
		if n != 0 {
			t.Errorf("%v allocs per section", n)
		}
	})

	t.Run("dynamic section", func(t *testing.T) {
		d := newTestDecoder(t, 0)
		mustRead(t, d, cat(
			insertStaticRef(0, "www.example.com", true),
			insertStaticRef(95, "Mozilla/5.0 (X11; Linux x86_64)", true),
			insertLiteral("x-request-id", "0123456789", true),
		))
		section := cat(sectionPrefix(3, 1, 128),
			indexedStatic(17), indexedDynamic(0), indexedPostBase(0), indexedPostBase(1),
			literalDynamicRef(0, "other.example.com", false, true), literalPostBaseRef(1, "42", true, false),
			literalName("x-huff", "some huffman coded value", false, true))
		var out []byte
		n := testing.AllocsPerRun(100, func() {
			sink.Reset()
			if _, err := d.DecodeSection(4, section, sink); err != nil || sink.Len() != 7 {
				t.Fatal(err, sink.Len())
			}
			out = d.AppendDecoderStream(out[:0])
		})
		if n != 0 {
			t.Errorf("%v allocs per section", n)
		}
	})

	t.Run("encoder stream", func(t *testing.T) {
		d := newTestDecoder(t, 0)
		// Inserts that keep the table full, so every one evicts.
		stream := cat(insertLiteral("x-a", "aaaaaaaaaaaaaaaaaaaaaaaaaa", true), insertStaticRef(2, "1234", false),
			duplicate(0), insertDynamicRef(1, "some value", true))
		var out []byte
		for i := 0; i < 100; i++ { // fill and warm
			mustRead(t, d, stream)
		}
		n := testing.AllocsPerRun(100, func() {
			for i := 0; i < len(stream); i += 5 { // in pieces
				if err := d.ReadEncoderStream(stream[i:min(i+5, len(stream))]); err != nil {
					t.Fatal(err)
				}
			}
			out = d.AppendDecoderStream(out[:0])
		})
		if n != 0 {
			t.Errorf("%v allocs per read", n)
		}
	})

	t.Run("blocked and unblocked", func(t *testing.T) {
		d := newTestDecoder(t, 1)
		// Each round holds a section that needs the next insert, then
		// inserts it and decodes the section. RIC is sent modulo 256.
		var sections [256][]byte
		for r := range sections {
			sections[r] = cat(sectionPrefix(uint64(r)+256, uint64(r)+256, 128), indexedDynamic(0), indexedStatic(25))
		}
		insert := insertLiteral("x-seq", "value", false)
		var out []byte
		round := func() {
			ric := d.InsertCount() + 1
			blocked, err := d.DecodeSection(8, sections[ric%256], sink)
			if err != nil || !blocked {
				t.Fatal(blocked, err)
			}
			if err := d.ReadEncoderStream(insert); err != nil {
				t.Fatal(err)
			}
			id, ok := d.NextUnblocked()
			if !ok {
				t.Fatal("not unblocked")
			}
			sink.Reset()
			if _, err := d.DecodeUnblocked(id, sink); err != nil || sink.Len() != 2 {
				t.Fatal(err, sink.Len())
			}
			out = d.AppendDecoderStream(out[:0])
		}
		for i := 0; i < 300; i++ {
			round()
		}
		if n := testing.AllocsPerRun(100, round); n != 0 {
			t.Errorf("%v allocs per round", n)
		}
	})
}
