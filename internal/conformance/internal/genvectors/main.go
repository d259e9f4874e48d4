// Command genvectors regenerates the conformance vectors: what hqpack's
// encoders make of the header lists in the folder it is given. Run it with
// go generate ./internal/conformance, deliberately: the conformance suite fails
// whenever the encoders' output differs from the checked-in vectors.
package main

import (
	"fmt"
	"os"

	"github.com/hqpack/hqpack/internal/conformance"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genvectors DIR")
		os.Exit(2)
	}
	if err := conformance.WriteVectors(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "genvectors:", err)
		os.Exit(1)
	}
}
