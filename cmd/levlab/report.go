package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/report"
)

// reproduceReport writes the report of what reproduce just measured in
// dir (results/<machine>/quick by default), beside the published numbers
// two folders up, into dir's parent.
func reproduceReport(dir string) (string, error) {
	path := filepath.Join(filepath.Dir(dir), "levlab-report.html")
	o := report.Options{Results: filepath.Dir(filepath.Dir(dir)), Measured: dir, Align: alignCIGAR}
	return path, report.WriteFile(path, o)
}

// alignCIGAR is the report's aligner (report.Options.Align): lev.AlignString
// on one worker, its CIGAR.
func alignCIGAR(a, b string) (string, error) {
	al, err := lev.AlignString(a, b, lev.WithWorkers(1))
	return al.CIGAR(), err
}

func reportUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab report [--results DIR] [--machine NAME,...] [--scale quick|paper]
                [--format html|md|tex|pdf] [--out FILE] [--figures DIR]
                [--only NAME,...]

Reads the CSV under DIR — the reports' numbers in DIR/published and our
runs in DIR/<machine>/<scale> — and writes one report: the key results
first, then each course report's tables and figures with the reports'
numbers beside ours, one column or line per machine, and each machine's
go test -bench output in DIR/<machine>/bench (make bench-results); your
own experiments (levlab run --spec) follow, or with --only NAME are the
report alone, findings first. DIR may be a run's folder itself, its
records in it (levlab run --spec S --out DIR): it is read as one run. By
default every machine is read, each at its preferred scale (paper before
quick). It prints the file's path. The format is --format's, else the
one --out's extension names (report.md is Markdown), else html.

  html  self-contained (every chart inlined; it opens offline)
  md    Markdown: tables, and image links to the figures
  tex   a LaTeX fragment to \input: booktabs tables and \includegraphics
        of the figures; its first lines name the packages it needs
  pdf   the HTML printed on A4 by headless Chromium

With md and tex the figures are written as SVG and PNG into --figures
(default: FILE's name without its extension, then -figures); drawing them
needs Chromium, as pdf does (Debian: apt-get install chromium). With
--figures none, md and tex show each chart as the table of its points.

A record whose times are not finite non-negative numbers, or that repeats
the rep of a point already read, is left out of every median, table and
chart, and named (FILE:LINE) in the report.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  the report was written
  1  the results could not be read, a machine or scale asked for has no
     run, --only names an experiment of one's own no run read holds, Chromium is missing for pdf or figures, or the file could not
     be written (nothing is left half-written)
  2  bad usage: an unknown flag, format or scale, an --out or --figures
     that cannot be written to (a folder where the file goes, a file
     where a folder does or on the way, a link to nothing), arguments
`)
}

// formatNames are the formats' names in a sentence.
var formatNames = map[string]string{report.FormatHTML: "HTML", report.FormatMarkdown: "Markdown", report.FormatTeX: "LaTeX", report.FormatPDF: "PDF"}

// formatNamed is the format a file's extension names (.html or .htm,
// .md or .markdown, .tex, .pdf, any case), or "".
func formatNamed(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm":
		return report.FormatHTML
	case ".md", ".markdown":
		return report.FormatMarkdown
	case ".tex":
		return report.FormatTeX
	case ".pdf":
		return report.FormatPDF
	}
	return ""
}

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", stdout, reportUsage)
	results := fs.String("results", "results", "`DIR` holding published/ and <machine>/<scale>/")
	machines := fs.String("machine", "", "`NAME`s of machine folders under DIR to read, comma-separated; unset: every machine")
	scale := fs.String("scale", "", "`SCALE` to read (quick or paper); unset: each machine's preferred, paper before quick")
	out := fs.String("out", "", "`FILE` to write; unset: levlab-report.FORMAT in the current directory")
	format := fs.String("format", report.FormatHTML, "`FORMAT`: "+strings.Join(report.Formats, ", ")+"; unset: what --out's extension names (.html, .md, .tex, .pdf), else html")
	only := fs.String("only", "", "`NAME`s of your own experiments (levlab run --spec), comma-separated: the report is of them alone")
	figures := fs.String("figures", "", "`DIR` to write every figure into as SVG and PNG; with md and tex unset means FILE-figures beside FILE, and none means no figures")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErrorf("takes no arguments, got %s", quoteAll(pos))
	}
	if !slices.Contains(report.Formats, *format) {
		return usageErrorf("--format %q: want one of %s", *format, strings.Join(report.Formats, ", "))
	}
	if named := formatNamed(*out); named != "" {
		switch {
		case !fs.given()["format"]:
			*format = named
		case named != *format:
			return usageErrorf("--out %s names a %s file, and --format %s writes %s: give one of them, or both alike",
				*out, formatNames[named], *format, formatNames[*format])
		}
	}
	if *scale != "" || fs.given()["scale"] {
		// The scales run writes, and no other word: run and report
		// answer an unknown one alike, and an empty one too (an unset
		// shell variable must not read every scale).
		if _, err := parseScale(*scale); err != nil {
			return err
		}
	}
	o := report.Options{Results: *results, Format: *format, Scale: *scale, Align: alignCIGAR}
	for _, n := range strings.Split(*only, ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(o.Only, n) {
			o.Only = append(o.Only, n)
		}
	}
	if fs.given()["only"] && len(o.Only) == 0 {
		return usageErrorf("--only %q names no experiment: give the name of your spec's experiment", *only)
	}
	for _, m := range strings.Split(*machines, ",") {
		if m = strings.TrimSpace(m); m != "" {
			if strings.ContainsAny(m, `/\`) || m == "." || m == ".." {
				return usageErrorf("--machine %q: want a machine folder's name under %s", m, *results)
			}
			o.Machines = append(o.Machines, m)
		}
	}
	path := *out
	if path == "" {
		path = "levlab-report." + *format
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usageErrorf("--out %s is a folder; want the report's file, such as %s", path, filepath.Join(path, "levlab-report."+*format))
	}
	if err := report.CheckPath(path, false); err != nil {
		return usageErrorf("--out %s: %v", path, err)
	}
	switch {
	case *figures == "none":
	case *figures != "":
		o.Figures = *figures
		if err := report.CheckPath(o.Figures, true); err != nil {
			return usageErrorf("--figures %s: %v", o.Figures, err)
		}
	case *format == report.FormatMarkdown || *format == report.FormatTeX:
		o.Figures = strings.TrimSuffix(path, filepath.Ext(path)) + "-figures"
		if err := report.CheckPath(o.Figures, true); err != nil {
			return usageErrorf("--out %s: its figures' folder %s (--figures): %v", path, o.Figures, err)
		}
	}
	if err := report.WriteFile(path, o); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, path)
	return err
}
