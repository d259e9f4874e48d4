// Package trace runs the trace benchmarks: whole connections of real header
// lists from the public corpora (hpack-test-case's stories, the QIFS files),
// encoded and decoded by hqpack and by its peers, one connection after
// another, each on a fresh or re-Init'ed codec.
//
// The package bench runs the Go rows (hqpack, golang.org/x/net/http2/hpack,
// github.com/quic-go/qpack); the package interop runs the same benchmarks
// with rows for nghttp2 and nghttp3 added (cgo, one call a trace). Both call
// the functions here, so the traces, the Go rows and the checks are the same
// code in both runs:
//
//	go test ./bench -run '^$' -bench Trace
//	go test -tags interop ./interop -run '^$' -bench Trace
//
// One iteration is the whole trace; each row reports ns/list (a list is one
// header block or field section) beside the usual figures, which are per
// trace, and the encoders wire-B/list, what they wrote.
// Every row is checked before its timed loop (what it encodes decodes back
// to the lists, what it decodes is the lists) and again after it (the timed
// runs wrote and delivered as much as the checked one).
//
// Nothing in the module imports this package but those benchmarks; it
// imports the peers, which the core packages never do.
package trace

import (
	"encoding/hex"
	"fmt"
	"github.com/hqpack/hqpack/internal/corpustest"
	"strings"
	"sync"
	"testing"

	"github.com/hqpack/hqpack/internal/conformance"
)

// Trace is a benchmark's input: connections, each a sequence of lists.
type Trace struct {
	Name    string // where the lists come from
	Conns   []Conn
	Strings Strings // how the lists' strings were made (see Copy)
}

// Conn is one connection of a trace: an hpack-test-case story or a QIF
// file, its lists in order.
type Conn struct {
	Name  string // the story's folder and file, or the QIF's name
	Lists []List
}

// List is one header list of a connection and, once encoded, what it puts
// on the wire.
type List struct {
	Fields conformance.Headers // in order; names may repeat
	// CL is the index in Fields of a content-length whose value is a plain
	// decimal, which hqpack's rows add raw (AddContentLength(CLValue)), as
	// a server that holds the length as a number does; -1 for none.
	CL      int
	CLValue int64
	// Size is the SETTINGS_HEADER_TABLE_SIZE acknowledged just before the
	// list (hpack-test-case's header_table_size), -1 for none.
	Size int
	Wire
}

// Wire is what a list puts on the wire.
type Wire struct {
	// Section is the header block (HPACK) or field section (QPACK).
	Section []byte
	// EncoderStream is the QPACK encoder-stream bytes sent before the
	// section; DecoderStream is what the decoder sends back after it
	// (acknowledgments), which the encoder reads before the next list.
	EncoderStream, DecoderStream []byte
}

// Lists returns the number of lists of all connections.
func (t *Trace) Lists() int {
	n := 0
	for i := range t.Conns {
		n += len(t.Conns[i].Lists)
	}
	return n
}

// Strings says how the strings of a trace's lists were made.
type Strings int

const (
	// Fresh: every name and value of every list is an allocation of its
	// own, as net/http hands a server the fields of each request. An
	// encoder's memos keyed by address see every string once.
	Fresh Strings = iota
	// Interned: one string for equal contents across the whole trace, as
	// a server's constants are: address-keyed memos see them again.
	Interned
)

// String names s in the benchmarks' names: "fresh" or "interned".
func (s Strings) String() string {
	if s == Interned {
		return "interned"
	}
	return "fresh"
}

// Copy returns t with the strings of its lists made anew as s says; the
// wire bytes are shared.
func (t *Trace) Copy(s Strings) *Trace {
	seen := map[string]string{}
	str := func(v string) string {
		if s == Fresh {
			return strings.Clone(v)
		}
		if w, ok := seen[v]; ok {
			return w
		}
		w := strings.Clone(v)
		seen[w] = w
		return w
	}
	c := &Trace{Name: t.Name, Conns: make([]Conn, len(t.Conns)), Strings: s}
	for i, conn := range t.Conns {
		lists := make([]List, len(conn.Lists))
		for j, l := range conn.Lists {
			fs := make(conformance.Headers, len(l.Fields))
			for k, f := range l.Fields {
				fs[k] = conformance.Header{Name: str(f.Name), Value: str(f.Value)}
			}
			l.Fields = fs
			lists[j] = l
		}
		c.Conns[i] = Conn{Name: conn.Name, Lists: lists}
	}
	return c
}

// newList returns a list of fields, with their raw content-length found.
func newList(fs conformance.Headers, size int) List {
	l := List{Fields: fs, CL: -1, Size: size}
	for i, f := range fs {
		if n, ok := conformance.RawContentLength(f); ok {
			l.CL, l.CLValue = i, n
			break
		}
	}
	return l
}

// HPACKDecodeFolders are the hpack-test-case encoder folders whose blocks
// the HPACK decode trace decodes: one per encoder (Go's, Haskell's with
// Huffman and indexing, nghttp2's, node's, swift-nio's without Huffman),
// and nghttp2's again with the table size changing within stories (31
// stories), 20,187 blocks in all.
var HPACKDecodeFolders = []string{
	"go-hpack",
	"haskell-http2-linear-huffman",
	"nghttp2",
	"nghttp2-change-table-size",
	"node-http2-hpack",
	"swift-nio-hpack-plain-text",
}

// QIFs are the QIFS header lists of the QPACK traces, one connection each:
// 1,568 lists.
var QIFs = []string{"fb-req", "fb-req-hq", "fb-resp", "fb-resp-hq", "netbsd", "netbsd-hq"}

// loader loads a trace from the corpus once per process: -count 10 calls
// each benchmark ten times.
type loader struct {
	once sync.Once
	t    *Trace
	err  error
	load func(*conformance.Corpus) (*Trace, error)
}

func (l *loader) get(tb testing.TB) *Trace {
	tb.Helper()
	dir := corpustest.Dir(tb, "")
	l.once.Do(func() {
		c, err := conformance.OpenCorpus(dir)
		if err != nil {
			l.err = err
			return
		}
		l.t, l.err = l.load(c)
	})
	if l.err != nil {
		tb.Fatal(l.err)
	}
	return l.t
}

var (
	hpackLists  = loader{load: loadHPACKLists}
	hpackBlocks = loader{load: loadHPACKBlocks}
	qpackLists  = loader{load: loadQPACKLists}
)

// loadHPACKLists loads the raw-data stories: 3,384 lists in 32 stories.
func loadHPACKLists(c *conformance.Corpus) (*Trace, error) {
	t := &Trace{Name: "hpack-test-case raw-data"}
	err := addStories(c, t, "raw-data", false)
	return t, err
}

// loadHPACKBlocks loads the stories of HPACKDecodeFolders, their blocks
// and header_table_size settings.
func loadHPACKBlocks(c *conformance.Corpus) (*Trace, error) {
	t := &Trace{Name: "hpack-test-case " + strings.Join(HPACKDecodeFolders, ", ")}
	for _, folder := range HPACKDecodeFolders {
		if err := addStories(c, t, folder, true); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// addStories adds the stories of a folder to t as connections, with their
// blocks when wire is set.
func addStories(c *conformance.Corpus, t *Trace, folder string, wire bool) error {
	files, err := c.Stories(folder)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.Err != nil {
			return f.Err
		}
		conn := Conn{Name: folder + "/" + f.Name}
		for i, cs := range f.Story.Cases {
			size := -1
			if cs.HeaderTableSize != nil {
				size = *cs.HeaderTableSize
			}
			l := newList(cs.Headers, size)
			if wire {
				if l.Section, err = hex.DecodeString(cs.Wire); err != nil {
					return fmt.Errorf("%s case %d: %w", conn.Name, i, err)
				}
			}
			conn.Lists = append(conn.Lists, l)
		}
		t.Conns = append(t.Conns, conn)
	}
	return nil
}

// loadQPACKLists loads QIFs.
func loadQPACKLists(c *conformance.Corpus) (*Trace, error) {
	t := &Trace{Name: "QIFS " + strings.Join(QIFs, ", ")}
	for _, name := range QIFs {
		lists, err := c.QIF(name)
		if err != nil {
			return nil, err
		}
		conn := Conn{Name: name}
		for _, fs := range lists {
			conn.Lists = append(conn.Lists, newList(fs, -1))
		}
		t.Conns = append(t.Conns, conn)
	}
	return t, nil
}
