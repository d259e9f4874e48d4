package table_test

import (
	"fmt"

	"github.com/hqpack/hqpack/internal/table"
)

func Example() {
	var t table.Table
	t.Init(120, true) // room for 120 RFC octets, with Lookup
	t.AddString("custom-key", "custom-header")
	t.AddString("cache-control", "no-cache")
	fmt.Println(t.Len(), t.Size())

	name, value, _ := t.Get(0) // the newest entry
	fmt.Printf("%s: %s\n", name, value)

	abs, exact, found := t.Lookup("custom-key", "other", 0, t.Inserted())
	fmt.Println(abs, exact, found)

	// A third entry does not fit with both others: the oldest goes.
	t.AddString("x", "y")
	fmt.Println(t.Len(), t.Size())
	// Output:
	// 2 108
	// cache-control: no-cache
	// 0 false true
	// 2 87
}
