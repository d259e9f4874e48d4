package table

import "testing"

// TestHashIDOf checks that HashIDOf gives HashID's Hash (Hash's for id 0)
// and HashOf's value hash, and that an entry added with it is found by it.
func TestHashIDOf(t *testing.T) {
	var a Table
	a.InitSeeded(400, 7)
	for _, id := range []int{0, 1, 5, 99} {
		h, vh := a.HashIDOf(id, "accept", "text/html")
		if h != a.HashID(id, "accept", "text/html") {
			t.Fatalf("id %d: HashIDOf's Hash %v, HashID %v", id, h, a.HashID(id, "accept", "text/html"))
		}
		if _, want := a.HashOf("other", "text/html"); vh != want {
			t.Fatalf("id %d: value hash %x, HashOf's %x", id, vh, want)
		}
	}
	h, _ := a.HashIDOf(3, "accept", "text/html")
	a.AddHashed(h, "accept", "text/html")
	if abs, ok := a.LookupExact(h, "accept", "text/html", 0, a.Inserted()); !ok || abs != 0 {
		t.Fatalf("LookupExact = %d, %v", abs, ok)
	}
	if abs, ok := a.LookupName(h, "accept", 0, a.Inserted()); !ok || abs != 0 {
		t.Fatalf("LookupName = %d, %v", abs, ok)
	}
}
