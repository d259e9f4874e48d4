package hpack

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentUse holds the types and functions documented as safe for
// concurrent use to it: goroutines share HeaderField, DecodingError and
// InvalidIndexError values and call the Huffman functions at once (run it
// with -race, as CI does), each checking what it gets.
func TestConcurrentUse(t *testing.T) {
	shared := HeaderField{Name: "authorization", Value: "secret", Sensitive: true}
	derr := DecodingError{Err: InvalidIndexError(70)}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				s := fmt.Sprintf("goroutine %d, string %d: www.example.com", g, i)
				b := AppendHuffmanString(nil, s)
				if uint64(len(b)) != HuffmanEncodeLength(s) {
					errs <- fmt.Errorf("%q: %d bytes, HuffmanEncodeLength %d", s, len(b), HuffmanEncodeLength(s))
					return
				}
				got, err := HuffmanDecodeToString(b)
				var buf bytes.Buffer
				n, err2 := HuffmanDecode(&buf, b)
				if err != nil || err2 != nil || got != s || buf.String() != s || n != len(s) {
					errs <- fmt.Errorf("%q: decoded %q, %q (%v, %v)", s, got, buf.String(), err, err2)
					return
				}
				if shared.String() != `header field "authorization" = "secret" (sensitive)` || shared.Size() != 51 || shared.IsPseudo() {
					errs <- fmt.Errorf("shared field: %v", shared)
					return
				}
				if derr.Error() != "decoding error: invalid indexed representation index 70" {
					errs <- fmt.Errorf("shared error: %v", derr)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
