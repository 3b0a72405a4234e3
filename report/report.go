package report

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/internal/atomicfile"
)

// Options say what to read and how to write it.
type Options struct {
	// Results is the results tree: published/ and <machine>/<scale>/
	// below it (records.Runs). A run's folder given in its place (what
	// levlab run --spec --out DIR wrote: records in it, not below it) is
	// read as one run, named after the folder.
	Results string
	// Measured, when set, is a run's folder to read first (for example
	// what levlab reproduce just wrote), wherever it lies; the tree's other
	// machines are read beside it.
	Measured string
	// Machines, when set, are the only machine folders read; Scale, when
	// set, the only scale. Unset, each machine's preferred run is read
	// (paper before quick).
	Machines []string
	Scale    string
	// Format is "html" (the default when empty), "md", "tex" or "pdf".
	Format string
	// Figures, when set, is the folder every chart is written to as SVG and
	// PNG; the Markdown and LaTeX reports then link their figures there.
	Figures string
	// Align, when set, aligns the Alignment section's pairs, rune by rune,
	// and returns each one's extended CIGAR (a the query), which the
	// section draws; unset, it draws none and says so. levlab passes
	// lev.AlignString's: the report itself computes nothing, it reads.
	Align func(a, b string) (cigar string, err error)
	// Only, when set, names the experiments of one's own (levlab run
	// --spec) the report is of: theirs alone, findings first, and how the
	// numbers were taken. Unset, they follow the reports' sections.
	Only []string
}

// Formats the report can be written in.
const (
	FormatHTML     = "html"
	FormatMarkdown = "md"
	FormatTeX      = "tex"
	FormatPDF      = "pdf"
)

// Formats lists the formats, in the order the CLI names them.
var Formats = []string{FormatHTML, FormatMarkdown, FormatTeX, FormatPDF}

// ErrNoResults is wrapped by the error of Write when the results folder
// does not exist.
var ErrNoResults = runs.ErrNoResults

// ErrNoRun is wrapped by the error of Write when the machine or scale asked
// for has no run in the results tree.
var ErrNoRun = runs.ErrNoRun

// Write writes the report of o.Results to w. With o.Figures set, the
// figures are written there too, and the Markdown and LaTeX reports link
// them by that path as given.
func Write(w io.Writer, o Options) error {
	format, err := formatOf(o.Format)
	if err != nil {
		return err
	}
	doc, err := prepare(o)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := renderDoc(&buf, doc, format, filepath.ToSlash(o.Figures)); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// WriteFile writes the report to path atomically: into a temporary file
// in the same folder, renamed over path once complete. The Markdown and
// LaTeX reports link the figures (o.Figures) relative to path's folder.
// A path, or o.Figures, that cannot be written to (CheckPath) is an error
// wrapping ErrBadPath, before any result is read.
func WriteFile(path string, o Options) error {
	format, err := formatOf(o.Format)
	if err != nil {
		return err
	}
	return writeFiles(o, []string{path}, []string{format})
}

// WriteFiles writes the report to each path in the format its extension
// names (.html, .md, .tex, .pdf; o.Format is not read), as WriteFile does,
// reading the results and drawing the figures (o.Figures) once: the
// write-up of a run in every format at the cost of one. An extension that
// names no format, or a format that cannot be written, is an error before
// any of the files is written.
func WriteFiles(o Options, paths ...string) error {
	formats := make([]string, len(paths))
	for i, p := range paths {
		f := strings.TrimPrefix(filepath.Ext(p), ".")
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("report: %s: the extension names no format; want .%s", p, strings.Join(Formats, ", ."))
		}
		formats[i] = f
	}
	return writeFiles(o, paths, formats)
}

func writeFiles(o Options, paths, formats []string) error {
	// Before anything is read: a path that cannot be written to is the
	// user's to fix, and says so plainly rather than as a failed mkdir.
	for _, p := range paths {
		if err := CheckPath(p, false); err != nil {
			return fmt.Errorf("report: %s: %w", p, err)
		}
	}
	doc, err := prepare(o)
	if err != nil {
		return err
	}
	// Every file is rendered before any is written: a format that fails
	// (a figures folder LaTeX cannot name, no Chromium for PDF) writes none.
	bufs := make([]bytes.Buffer, len(paths))
	for i, path := range paths {
		links := filepath.ToSlash(o.Figures)
		if o.Figures != "" {
			if rel, err := filepath.Rel(filepath.Dir(runs.AbsPath(path)), runs.AbsPath(o.Figures)); err == nil {
				links = filepath.ToSlash(rel)
			}
		}
		if err := renderDoc(&bufs[i], doc, formats[i], links); err != nil {
			return err
		}
	}
	for i, path := range paths {
		err := atomicfile.Write(path, func(w io.Writer) error {
			_, err := w.Write(bufs[i].Bytes())
			return err
		})
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}

// formatOf returns format, or html when it is empty; one not in Formats is
// an error naming those there are.
func formatOf(format string) (string, error) {
	if format == "" {
		return FormatHTML, nil
	}
	if !slices.Contains(Formats, format) {
		return "", fmt.Errorf("report: format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	return format, nil
}

// prepare reads what o names, builds the report and, with o.Figures set,
// draws its figures there.
func prepare(o Options) (*document.Doc, error) {
	if o.Figures != "" {
		if err := CheckPath(o.Figures, true); err != nil {
			return nil, fmt.Errorf("report: figures folder %s: %w", o.Figures, err)
		}
	}
	d, err := load(o)
	if err != nil {
		return nil, err
	}
	doc := build(d, o.Align)
	if o.Figures != "" {
		if _, err := document.WriteFigures(context.Background(), o.Figures, doc); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// renderDoc writes doc in format; the Markdown and LaTeX reports link the
// figures under figLinks, "" when none were drawn.
func renderDoc(w *bytes.Buffer, doc *document.Doc, format, figLinks string) error {
	switch format {
	case FormatMarkdown:
		document.WriteMarkdownFigs(w, doc, figLinks)
		return nil
	case FormatTeX:
		return document.WriteTeX(w, doc, figLinks)
	case FormatPDF:
		return document.WritePDF(context.Background(), w, doc)
	default:
		return document.WriteHTML(w, doc)
	}
}

// load reads the runs o names (runs.Load), each record's note as the
// report says it (readNote).
func load(o Options) (*runs.Set, error) {
	return runs.Load(runs.Choice{
		Results: o.Results, Measured: o.Measured, Machines: o.Machines, Scale: o.Scale, Only: o.Only,
		Note: readNote,
	})
}
