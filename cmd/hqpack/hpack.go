package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/hpack"
	"github.com/hqpack/hqpack/internal/conformance"
)

func runHPACK(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) < 1 {
		return usageError("hpack: want inflate or deflate")
	}
	mode := args[0]
	fs := flag.NewFlagSet("hpack "+mode, flag.ContinueOnError)
	fs.SetOutput(stderr)
	tableSize := fs.Int("table-size", hpack.DefaultTableSize, "dynamic table size (SETTINGS_HEADER_TABLE_SIZE) at the start of each story")
	huffman := "auto"
	if mode == "deflate" {
		fs.StringVar(&huffman, "huffman", "auto", "Huffman policy: auto, always or never")
	} else if mode != "inflate" {
		return usageError(fmt.Sprintf("hpack: unknown mode %q", mode))
	}
	if err := fs.Parse(args[1:]); err != nil {
		return usageError(err.Error())
	}
	if fs.NArg() > 1 {
		return usageError("hpack: at most one FILE")
	}
	if *tableSize < 0 {
		return usageError("hpack: -table-size must not be negative")
	}
	policy, ok := huffmanPolicies[huffman]
	if !ok {
		return usageError(fmt.Sprintf("hpack: -huffman %q: want auto, always or never", huffman))
	}

	name := "stdin"
	var data []byte
	var err error
	if fs.NArg() == 1 {
		name = fs.Arg(0)
		data, err = os.ReadFile(name)
	} else {
		data, err = io.ReadAll(stdin)
	}
	if err != nil {
		return err
	}
	story, err := conformance.ReadStory(data)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if mode == "inflate" {
		err = conformance.Inflate(story, *tableSize)
	} else {
		size := *tableSize
		if size == 0 {
			size = hpack.NoTable
		}
		err = conformance.Deflate(story, hpack.Config{TableLimit: size, InitialTableSize: size, Huffman: policy})
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out, err := story.Marshal()
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

var huffmanPolicies = map[string]fastpath.HuffmanPolicy{
	"auto":   fastpath.HuffmanAuto,
	"always": fastpath.HuffmanAlways,
	"never":  fastpath.HuffmanNever,
}
