package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hqpack/hqpack/internal/conformance"
	"github.com/hqpack/hqpack/qpack"
)

func runQPACK(args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 {
		return usageError("qpack: want encode or decode")
	}
	mode := args[0]
	if mode != "encode" && mode != "decode" {
		return usageError(fmt.Sprintf("qpack: unknown mode %q", mode))
	}
	fs := flag.NewFlagSet("qpack "+mode, flag.ContinueOnError)
	fs.SetOutput(stderr)
	capacity := fs.Uint64("table-capacity", 0, "SETTINGS_QPACK_MAX_TABLE_CAPACITY (required)")
	blocked := fs.Uint64("max-blocked", 0, "SETTINGS_QPACK_BLOCKED_STREAMS (required)")
	var immediateAck *bool
	var initial *uint64
	if mode == "encode" {
		immediateAck = fs.Bool("immediate-ack", false, "act as if every section were acknowledged as soon as it was written (QIFS ack mode 1)")
	} else {
		initial = fs.Uint64("initial-capacity", 0, "interop: start the dynamic table at this capacity, without Set Dynamic Table Capacity (pre-RFC drafts)")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return usageError(err.Error())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["table-capacity"] || !set["max-blocked"] {
		return usageError(fmt.Sprintf("qpack %s: -table-capacity and -max-blocked are required", mode))
	}
	if fs.NArg() != 2 {
		return usageError(fmt.Sprintf("qpack %s: want IN and OUT", mode))
	}
	in, out := fs.Arg(0), fs.Arg(1)
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}

	var result []byte
	if mode == "encode" {
		lists, err := conformance.ReadQIF(data)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		ack := qpack.AckNever
		if *immediateAck {
			ack = qpack.AckImmediate
		}
		result = conformance.EncodeQIF(lists, qpack.EncoderConfig{
			MaxTableCapacity:  *capacity,
			MaxBlockedStreams: *blocked,
			TableCapacity:     *capacity,
			AckMode:           ack,
		})
	} else {
		if *initial > *capacity {
			return usageError("qpack decode: -initial-capacity is above -table-capacity")
		}
		recs, err := conformance.ReadRecords(data)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		lists, err := conformance.DecodeQIFS(recs, qpack.DecoderConfig{
			MaxTableCapacity:  *capacity,
			MaxBlockedStreams: *blocked,
			InitialCapacity:   *initial,
		})
		if err != nil {
			if errors.Is(err, qpack.ErrCapacity) && *initial == 0 && *capacity > 0 {
				// The usual cause in interop files: an encoder written to a
				// draft before RFC 9204, whose table started at the maximum.
				return fmt.Errorf("%s: %w (an encoder that inserts before any Set Dynamic Table Capacity needs -initial-capacity %d)", in, err, *capacity)
			}
			return fmt.Errorf("%s: %w", in, err)
		}
		result = conformance.AppendQIF(nil, lists)
	}
	// Written only once everything succeeded: nothing reaches OUT on failure.
	return os.WriteFile(out, result, 0o644)
}
