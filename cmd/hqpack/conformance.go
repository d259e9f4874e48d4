package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/hqpack/hqpack/internal/conformance"
)

// runConformance runs the conformance suites and prints the report on
// stdout. It fails (exit status 1) when a case failed or the corpus folder
// cannot be read.
func runConformance(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "corpus folder laid out as shared/corpus (hpack-test-case/, qifs/, rfc-examples.json); without it, only what the module embeds")
	asJSON := fs.Bool("json", false, "print the report as JSON, every failure included")
	verbose := fs.Bool("v", false, "print every failure, not only the first of each suite")
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if fs.NArg() > 0 {
		return usageError("conformance: unexpected arguments")
	}
	r, err := conformance.Run(conformance.Options{Corpus: *corpus})
	if err != nil {
		return fmt.Errorf("conformance: %w", err)
	}
	if *asJSON {
		err = r.WriteJSON(stdout)
	} else {
		err = r.WriteText(stdout, *verbose)
	}
	if err != nil {
		return err
	}
	if !r.OK() {
		return fmt.Errorf("conformance: %d of %d cases failed", r.Failed, r.Cases)
	}
	return nil
}
