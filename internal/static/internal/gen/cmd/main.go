// Command cmd writes internal/static/tables.go; `go generate ./internal/static` runs it.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/hqpack/hqpack/internal/static/internal/gen"
)

func main() {
	out := flag.String("o", "tables.go", "output file")
	flag.Parse()
	src, err := gen.Generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
