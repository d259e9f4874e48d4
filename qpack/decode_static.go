package qpack

import (
	"sync"

	"github.com/hqpack/hqpack/internal/static"
)

// staticEntry is a QPACK static entry as bytes, which decoded fields point
// at. Decoders share them: capacity is length, so a Sink's append copies.
type staticEntry struct {
	name, value []byte
	id          static.FieldID
}

var (
	staticOnce  sync.Once
	staticBytes [static.QPACKLen]staticEntry
)

// loadStatic fills staticBytes once, on the first NewDecoder.
func loadStatic() {
	staticOnce.Do(func() {
		for i := range staticBytes {
			e, _ := static.QPACK(uint64(i))
			n, v := len(e.Name), len(e.Value)
			staticBytes[i] = staticEntry{[]byte(e.Name)[:n:n], []byte(e.Value)[:v:v], e.ID}
		}
	})
}

// staticAt returns static entry i, or false past the table.
func staticAt(i uint64) (*staticEntry, bool) {
	if i >= static.QPACKLen {
		return nil, false
	}
	return &staticBytes[i], true
}
