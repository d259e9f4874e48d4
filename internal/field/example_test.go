package field_test

import (
	"fmt"

	"github.com/hqpack/hqpack/internal/field"
)

func ExampleValidName() {
	fmt.Println(field.ValidName("content-type"), field.ValidName("Content-Type"), field.ValidName("a b"))
	fmt.Println(field.IsPseudo(":path"), field.ValidPseudo(":path"), field.KnownPseudo(":path"))
	fmt.Println(field.ValidValue("text/html"), field.ValidValue(" padded"), field.ValidValue("a\r\nb"))
	fmt.Println(string(field.AppendLower(nil, "Content-Type")))
	// Output:
	// true false false
	// true true true
	// true false false
	// content-type
}
