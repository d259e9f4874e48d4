package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// shownFailures is how many failures per suite the plain report shows
// without verbose.
const shownFailures = 5

// WriteText writes the report as plain text for a terminal: a table of
// suites (cases, passed, failed), the compression tables, the notes, and
// the failures (the first few per suite, or every one with verbose).
func (r *Report) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	src := "embedded RFC examples, vectors and malformed inputs only (no -corpus)"
	if r.Corpus != "" {
		src = "corpus " + r.Corpus
	}
	fmt.Fprintf(&b, "hqpack conformance: %s\n\n", src)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "suite\tunit\tcases\tpassed\tfailed\tsections\tbytes\t\n")
	for _, s := range r.Suites {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t\n", s.Name, s.Unit, s.Cases, s.Passed, s.Failed, s.Sections, s.Bytes)
	}
	fmt.Fprintf(tw, "total\t\t%d\t%d\t%d\t\t\t\n", r.Cases, r.Passed, r.Failed)
	tw.Flush()
	b.WriteString("\n")
	for _, s := range r.Suites {
		fmt.Fprintf(&b, "%s: %s.\n", s.Name, s.Title)
	}
	for _, s := range r.Suites {
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "  %s: %s\n", s.Name, n)
		}
	}
	for _, s := range r.Suites {
		if s.Compression != nil {
			b.WriteString("\n")
			writeCompression(&b, s)
		}
	}
	for _, s := range r.Suites {
		if len(s.Failures) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: %d failed:\n", s.Name, len(s.Failures))
		for i, f := range s.Failures {
			if !verbose && i == shownFailures {
				fmt.Fprintf(&b, "  ... and %d more (-v shows every failure)\n", len(s.Failures)-i)
				break
			}
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	if r.OK() {
		fmt.Fprintf(&b, "\nPASS: %d cases\n", r.Cases)
	} else {
		fmt.Fprintf(&b, "\nFAIL: %d of %d cases failed\n", r.Failed, r.Cases)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCompression writes a suite's compression table: one line per
// implementation when rows compare many (HPACK's folders), one line per
// setting with a column per implementation otherwise (QPACK).
func writeCompression(b *strings.Builder, s *Suite) {
	c := s.Compression
	fmt.Fprintf(b, "%s compression (raw = %s):\n", s.Name, c.Raw)
	if s.Name == "qpack-encode" {
		writeColumns(b, c)
	} else {
		writeRows(b, c)
	}
	b.WriteString("\n")
	for _, n := range c.Notes {
		fmt.Fprintf(b, "  %s\n", n)
	}
}

func writeRows(b *strings.Builder, c *Compression) {
	for _, r := range c.Rows {
		fmt.Fprintf(b, "\n  %s: %d header blocks, raw %d bytes\n", r.Setting, r.Sections, r.Raw)
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "    implementation\tbytes\tratio\t\n")
		for _, im := range r.Impls {
			mark := ""
			if len(r.Impls) > 1 && (im.Name == r.Smallest || slices.Contains(r.Tied, im.Name)) {
				mark = "smallest"
				if len(r.Tied) > 0 {
					mark += " (tie)"
				}
			}
			if im.Excluded {
				mark = "* " + im.Note
			}
			fmt.Fprintf(tw, "    %s\t%d\t%.4f\t%s\n", im.Name, im.Bytes, im.Ratio, mark)
		}
		tw.Flush()
	}
}

func writeColumns(b *strings.Builder, c *Compression) {
	var names []string
	seen := map[string]bool{}
	for _, r := range c.Rows {
		for _, im := range r.Impls {
			if !seen[im.Name] {
				seen[im.Name] = true
				names = append(names, im.Name)
			}
		}
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  setting\tQIFs\traw\t")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintf(tw, "hqpack ratio\tsmallest\thqpack-best\t\n")
	for _, r := range c.Rows {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t", r.Setting, r.Inputs, r.Raw)
		for _, n := range names {
			cell := "-"
			for _, im := range r.Impls {
				if im.Name == n {
					cell = fmt.Sprint(im.Bytes)
					if im.Excluded {
						cell += "*"
					}
				}
			}
			fmt.Fprintf(tw, "%s\t", cell)
		}
		diff := "-"
		if ours, best, ok := r.ours(); ok {
			diff = fmt.Sprintf("%+d", ours-best.Bytes)
		}
		fmt.Fprintf(tw, "%.4f\t%s\t%s\t\n", r.Impls[0].Ratio, r.smallest(), diff)
	}
	tw.Flush()
}

// WriteJSON writes the report as indented JSON, every failure included.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
