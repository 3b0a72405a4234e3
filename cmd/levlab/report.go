package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/levlab/levlab/report"
)

// reproduceReport writes the report of what reproduce just measured in
// dir (results/<machine>/quick by default), beside the published numbers
// two folders up, into dir's parent.
func reproduceReport(dir string) (string, error) {
	path := filepath.Join(filepath.Dir(dir), "levlab-report.html")
	o := report.Options{Results: filepath.Dir(filepath.Dir(dir)), Measured: dir}
	return path, report.WriteFile(path, o)
}

func reportUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab report [--results DIR] [--out FILE] [--format html|md]

Reads the CSV under DIR — the reports' numbers in DIR/published and our
records in DIR/<machine>/<scale> (paper preferred over quick) — and writes
one report: HTML with every table and chart (self-contained, it opens
offline), or Markdown with the same tables. It prints the file's path.
A record whose times are not finite non-negative numbers, or that repeats
the rep of a point already read, is left out of every median, table and
chart, and named (FILE:LINE) in the report's first section.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  the report was written
  1  the results could not be read, or the file not written
  2  bad usage: an unknown flag or format, arguments
`)
}

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", stdout, reportUsage)
	results := fs.String("results", "results", "`DIR` holding published/ and <machine>/<scale>/")
	out := fs.String("out", "", "`FILE` to write; unset: levlab-report.html (or .md) in the current directory")
	format := fs.String("format", report.FormatHTML, "`FORMAT`: html or md")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErrorf("takes no arguments, got %s", quoteAll(pos))
	}
	if *format != report.FormatHTML && *format != report.FormatMarkdown {
		return usageErrorf("--format %q: want html or md", *format)
	}
	path := *out
	if path == "" {
		path = "levlab-report." + *format
	}
	if err := report.WriteFile(path, report.Options{Results: *results, Format: *format}); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, path)
	return err
}
