package codectest

import (
	"strconv"

	"github.com/hqpack/hqpack/fastpath"
)

// StringPath returns a copy of l, at the same position, in which every raw
// Content-Length is an ordinary "content-length" field with its decimal
// value and the same flags. Encoding it must give exactly what encoding l
// gives: the equivalence properties compare the two.
func StringPath(l *fastpath.FieldList) *fastpath.FieldList {
	c := new(fastpath.FieldList)
	for i := range l.Len() {
		name, value, f, raw := l.At(i)
		if raw >= 0 {
			value = strconv.FormatInt(raw, 10)
		}
		c.Add(name, value, f)
	}
	c.Seek(l.Pos())
	return c
}
