package gen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// leaf is one key of a decision tree and the Go expression it returns,
// or, when body is set, the code body writes for it.
type leaf struct {
	key, ret string
	body     func()
}

// then writes what a leaf's key leads to.
func (w *writer) then(l leaf) {
	if l.body != nil {
		l.body()
		return
	}
	w.p("return %s", l.ret)
}

// tree writes Go code that returns ret when the string variable v equals
// a key and falls through otherwise: a switch on len(v), then switches on
// the byte that splits each group best, then one comparison. eq writes
// the comparison of v (resliced by slice, "" or "[i:j]") with a literal
// (it differs for string and []byte).
func (w *writer) tree(v string, eq func(slice, lit string) string, leaves []leaf) {
	if len(leaves) == 1 {
		l := leaves[0]
		w.p("if %s {", eq("", strconv.Quote(l.key)))
		w.then(l)
		w.p("}")
		return
	}
	byLen := map[int][]leaf{}
	var lens []int
	for _, l := range leaves {
		if _, ok := byLen[len(l.key)]; !ok {
			lens = append(lens, len(l.key))
		}
		byLen[len(l.key)] = append(byLen[len(l.key)], l)
	}
	sort.Ints(lens)
	w.p("switch len(%s) {", v)
	for _, n := range lens {
		w.p("case %d:", n)
		w.split(v, eq, byLen[n])
	}
	w.p("}")
}

// split writes the byte switches for leaves of one length.
func (w *writer) split(v string, eq func(slice, lit string) string, leaves []leaf) {
	if len(leaves) == 1 {
		l := leaves[0]
		if l.key == "" {
			w.then(l)
		} else {
			w.leaf(eq, l)
		}
		return
	}
	pos := bestByte(leaves)
	groups := map[byte][]leaf{}
	var bytes []byte
	for _, l := range leaves {
		c := l.key[pos]
		if _, ok := groups[c]; !ok {
			bytes = append(bytes, c)
		}
		groups[c] = append(groups[c], l)
	}
	sort.Slice(bytes, func(i, j int) bool { return bytes[i] < bytes[j] })
	w.p("switch %s[%d] {", v, pos)
	for _, c := range bytes {
		w.p("case %s:", strconv.QuoteRune(rune(c)))
		w.split(v, eq, groups[c])
	}
	w.p("}")
}

// leaf writes the comparison of a key whose length is known: in pieces of
// at most maxInline bytes, which the compiler compares inline by words,
// where a longer literal would be a call to the runtime's memequal (and
// make the lookup a function with a frame).
func (w *writer) leaf(eq func(slice, lit string) string, l leaf) {
	var conds []string
	if len(l.key) <= maxInline {
		conds = append(conds, eq("", strconv.Quote(l.key)))
	} else {
		for i := 0; i < len(l.key); i += maxInline {
			j := min(i+maxInline, len(l.key))
			conds = append(conds, eq(fmt.Sprintf("[%d:%d]", i, j), strconv.Quote(l.key[i:j])))
		}
	}
	w.p("if %s {", strings.Join(conds, " && "))
	w.then(l)
	w.p("}")
}

// maxInline is the longest string literal the compiler compares inline on
// the 64-bit architectures that merge loads (2 words).
const maxInline = 16

// bestByte picks the position (all keys have the same length, at least
// two differ) with the most distinct bytes, then the smallest largest
// group, then the lowest position.
func bestByte(leaves []leaf) int {
	best, bestDistinct, bestMax := -1, 0, 0
	for pos := 0; pos < len(leaves[0].key); pos++ {
		count := map[byte]int{}
		most := 0
		for _, l := range leaves {
			count[l.key[pos]]++
			most = max(most, count[l.key[pos]])
		}
		if len(count) > bestDistinct || (len(count) == bestDistinct && most < bestMax) {
			best, bestDistinct, bestMax = pos, len(count), most
		}
	}
	if bestDistinct < 2 {
		keys := make([]string, len(leaves))
		for i, l := range leaves {
			keys[i] = l.key
		}
		panic(fmt.Sprintf("gen: keys %q do not differ", keys))
	}
	return best
}
