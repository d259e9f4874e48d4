package hpack

import "unsafe"

// strCache hands out the strings of byte slices the native decoder
// delivered before. An indexed field's name and value are bytes of a
// dynamic table entry, which stay where they are while the entry lives: a
// warm connection's request is mostly such fields, and x/net's decoder
// hands out its table's strings for them without allocating. The cache
// finds a slice's string by its address and checks the bytes in full, so
// an address reused for other bytes (an evicted entry's, the decoder's
// scratch) only misses.
//
// It is 4-way set-associative, 16 sets, and keeps strings of up to
// strCacheMax bytes: at most 16 KiB per decoder.
type strCache [strCacheSets][strCacheWays]strCacheEntry

const (
	strCacheSets = 16
	strCacheWays = 4
	strCacheMax  = 256
)

type strCacheEntry struct {
	at uintptr // the address of the bytes, as a number: nothing is kept alive
	s  string
}

// get returns b as a string, the cached one when it holds b's bytes.
func (c *strCache) get(b []byte) string {
	if len(b) == 0 || len(b) > strCacheMax {
		return string(b)
	}
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	set := &c[(at^at>>7^at>>13)%strCacheSets]
	for i := range set {
		if set[i].at == at && set[i].s == string(b) {
			return set[i].s
		}
	}
	// The newest first; the oldest leaves.
	s := string(b)
	copy(set[1:], set[:strCacheWays-1])
	set[0] = strCacheEntry{at: at, s: s}
	return s
}
