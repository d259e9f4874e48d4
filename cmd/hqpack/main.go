// Command hqpack encodes and decodes HTTP field sections with hqpack, in the
// formats of the public test corpora, and runs the conformance suite.
//
// Usage:
//
//	hqpack hpack inflate [-table-size N] [FILE]
//	hqpack hpack deflate [-table-size N] [-huffman auto|always|never] [FILE]
//	hqpack qpack encode -table-capacity N -max-blocked M [-immediate-ack] IN.qif OUT
//	hqpack qpack decode -table-capacity N -max-blocked M [-initial-capacity N] IN OUT.qif
//	hqpack conformance [-corpus DIR] [-json] [-v]
//
// hpack inflate reads an hpack-test-case story (stdin when FILE is absent)
// and prints it with "headers" decoded from each case's "wire"; deflate
// prints it with "wire" encoded from the headers. One coder serves the whole
// story, cases in order. On an error the command prints one line naming the
// file, the case and the error on stderr, prints nothing on stdout and exits
// with status 1.
//
// qpack encode reads a QIF file (header lists, one field per line) and
// writes the QIFS encoded file (records: stream ID, length, payload):
// list n on stream n, each section after the encoder-stream bytes it needs.
// -immediate-ack is QIFS ack mode 1. qpack decode reads a QIFS encoded file
// and writes the QIF; -initial-capacity is the interop option for files of
// encoders that insert before any Set Dynamic Table Capacity, as drafts
// before RFC 9204 allowed. On an error they print one line naming the file,
// the stream and the error on stderr, write nothing to OUT and exit with
// status 1.
//
// conformance runs the suites of package conformance and prints a report:
// a table of cases, passed and failed per suite, the compression tables
// and the first failures (-v: every failure; -json: the whole report as
// JSON). With -corpus DIR it runs every suite over DIR, a folder laid out as
// the project's shared corpus; without it, the RFC examples, the module's
// own vectors and the hand-made malformed inputs, all embedded. It exits
// with status 0 only when every case passed, 1 otherwise.
//
// Usage errors exit with status 2.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  hqpack hpack inflate [-table-size N] [FILE]
  hqpack hpack deflate [-table-size N] [-huffman auto|always|never] [FILE]
  hqpack qpack encode -table-capacity N -max-blocked M [-immediate-ack] IN.qif OUT
  hqpack qpack decode -table-capacity N -max-blocked M [-initial-capacity N] IN OUT.qif
  hqpack conformance [-corpus DIR] [-json] [-v]
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, apart from the process, for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "hpack":
		err = runHPACK(args[1:], stdin, stdout, stderr)
	case "qpack":
		err = runQPACK(args[1:], stdout, stderr)
	case "conformance":
		err = runConformance(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "hqpack: unknown command %q\n%s", args[0], usage)
		return 2
	}
	switch err.(type) {
	case nil:
		return 0
	case usageError:
		fmt.Fprintf(stderr, "hqpack: %v\n%s", err, usage)
		return 2
	}
	fmt.Fprintf(stderr, "hqpack: %v\n", err)
	return 1
}

// usageError is a command line the tool cannot run.
type usageError string

func (e usageError) Error() string { return string(e) }
