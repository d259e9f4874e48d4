package codectest

import (
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
)

// script is a fake codec: each side writes the sections' bytes in pieces
// as large as the buffer; bug, when set, changes what a side returns.
type script struct {
	secs [][]byte
	bug  func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result)
}

func (s script) Sections() int        { return len(s.secs) }
func (s script) New(side int) Encoder { return &scripted{s: s, side: side} }

type scripted struct {
	s              script
	side, sec, off int
	skew, state    int
}

func (p *scripted) Begin(i int, buf []byte) (int, fastpath.Result) {
	p.sec, p.off = i, 0
	return p.Continue(buf)
}

func (p *scripted) Continue(buf []byte) (int, fastpath.Result) {
	n := copy(buf, p.s.secs[p.sec][p.off:])
	p.off += n
	res := fastpath.MoreFields
	if p.off == len(p.s.secs[p.sec]) {
		res = fastpath.Done
	}
	if p.s.bug != nil {
		return p.s.bug(p.side, p, buf[:n], res)
	}
	return n, res
}

func (p *scripted) After(int)  {}
func (p *scripted) Pos() int   { return p.off + p.skew }
func (p *scripted) State() any { return p.state }

// TestEquivalentDetects: each property Equivalent checks fails on a codec
// that breaks it, and only there.
func TestEquivalentDetects(t *testing.T) {
	secs := [][]byte{[]byte("abcdef"), {}, []byte("0123456789")}
	for _, c := range []struct {
		name, want string
		bug        func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result)
	}{
		{"none", "", nil},
		{"result", "results", func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result) {
			if side == 1 && res == fastpath.Done {
				res = fastpath.MoreFields
			}
			return len(piece), res
		}},
		{"byte", "bytes", func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result) {
			if side == 1 && p.off == 9 && p.sec == 2 {
				piece[len(piece)-1] ^= 1
			}
			return len(piece), res
		}},
		{"position", "positions", func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result) {
			if side == 1 && p.off == 5 {
				p.skew = 1
			}
			return len(piece), res
		}},
		{"state", "states", func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result) {
			if side == 1 && res == fastpath.Done {
				p.state++
			}
			return len(piece), res
		}},
		{"split only", "piece", func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result) {
			if len(piece) == 1 && p.off > 1 {
				piece[0] ^= 1 // both sides alike
			}
			return len(piece), res
		}},
		{"no progress", "with 0 bytes", func(side int, p *scripted, piece []byte, res fastpath.Result) (int, fastpath.Result) {
			if p.sec == 2 && p.off == 4 {
				return 0, fastpath.MoreFields
			}
			return len(piece), res
		}},
	} {
		got := Equivalent(script{secs, c.bug}, nil)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, got, c.want)
		}
	}
}
