package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
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
var ErrNoResults = errors.New("no results folder")

// ErrNoRun is wrapped by the error of Write when the machine or scale asked
// for has no run in the results tree.
var ErrNoRun = errors.New("no such run")

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
			if rel, err := filepath.Rel(filepath.Dir(absPath(path)), absPath(o.Figures)); err == nil {
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
	doc := build(d)
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

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// data is everything read, before any section is built.
type data struct {
	published []records.Published
	runs      []*runData
	ignored   []string // runs found and not read, with why
	problems  []string // files that could not be read, with the error
	noPublish string   // why there are no published numbers, or ""
	// bench is each machine's benchmark output (records.Benches), by the
	// machine's folder name.
	bench map[string][]records.BenchFile
	// align is Options.Align: the Alignment section's aligner, or nil.
	align func(a, b string) (string, error)
	// only is Options.Only.
	only []string
}

// runData is one run's records, tallied.
type runData struct {
	run   records.Run           // Dir as given (slashes)
	where string                // Dir as the report names it (shownDir)
	tally *tally                // the records used
	specs map[string]*spec.Spec // the specs kept beside the records, by name
	// specNotes says, by experiment, what its section must say of its
	// kept specs: one that could not be read, two that name it.
	specNotes map[string][]string
	rows      int               // records read, those left out included
	leftOut   []records.Problem // the first records not used, by file:line; rows − tally.used in all
	problems  []string
}

func load(o Options) (*data, error) {
	if o.Results == "" {
		return nil, fmt.Errorf("report: no results folder given")
	}
	fi, err := os.Stat(o.Results)
	if err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", o.Results, err, ErrNoResults)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("report: results folder %s: not a folder (%w)", o.Results, ErrNoResults)
	}
	all, err := records.Runs(o.Results)
	if err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", o.Results, err, ErrNoResults)
	}
	if records.HoldsRecords(o.Results) {
		// A run's folder, not a tree: its records are one run.
		all = append([]records.Run{{Machine: filepath.Base(absPath(o.Results)), Scale: scaleOf(o.Results), Dir: o.Results}}, all...)
	}
	read, ignored, err := chooseRuns(o, all)
	if err != nil {
		return nil, err
	}
	d := &data{ignored: ignored, align: o.Align, only: o.Only}
	empty, _ := records.EmptyRuns(o.Results)
	for _, run := range empty {
		d.problems = append(d.problems, noRecords(run)...)
	}
	pubDir := records.PublishedPath(o.Results)
	pubFiles := csvFiles(pubDir)
	if len(pubFiles) == 0 {
		d.noPublish = "no published numbers: " + filepath.ToSlash(pubDir) + " holds no CSV"
	}
	for _, p := range pubFiles {
		rows, err := records.ReadPublishedFile(p)
		if err != nil {
			d.problems = append(d.problems, err.Error())
			continue
		}
		d.published = append(d.published, rows...)
	}
	if d.bench, err = records.Benches(o.Results); err != nil {
		d.problems = append(d.problems, err.Error())
	}
	for _, run := range read {
		rd := loadRun(run)
		rd.where = shownDir(o.Results, run.Dir)
		rd.keptSpecs(run.Dir)
		d.runs = append(d.runs, rd)
	}
	if len(o.Only) > 0 {
		if err := d.keepOwn(o.Results, o.Only); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// errStop ends a scan of records early.
var errStop = errors.New("stop")

// scaleOf returns the scale the first record of the run's folder dir was
// measured at (its scale column), or "quick", the scale levlab run
// writes by default, where none says.
func scaleOf(dir string) string {
	scale := ""
	for _, f := range csvFiles(dir) {
		records.ScanRows(f, func(r records.Row) error {
			scale = r.Scale
			return errStop
		})
		if scale != "" {
			return scale
		}
	}
	return records.ScaleQuick
}

// noRecords names each records file of a folder records.EmptyRuns gives
// (no run: none of its files holds a record) with what it holds: nothing,
// its header alone (a run stopped before its first record), or a header
// of another schema.
func noRecords(run records.Run) []string {
	var out []string
	for _, f := range csvFiles(run.Dir) {
		err := records.ScanRows(f, func(records.Row) error { return nil })
		switch fi, serr := os.Stat(f); {
		case err != nil:
			out = append(out, err.Error())
		case serr == nil && fi.Size() == 0:
			out = append(out, filepath.ToSlash(f)+": empty (no header, no records)")
		default:
			out = append(out, filepath.ToSlash(f)+": its header alone, no record (a run stopped before its first)")
		}
	}
	return out
}

// keepOwn keeps the runs that hold an experiment of one's own of only (a
// report of them alone), or says which of only no run holds, naming where
// it looked, the runs it read there and the experiments they hold.
func (d *data) keepOwn(root string, only []string) error {
	var have []string
	for _, rd := range d.runs {
		for e := range rd.tally.own {
			if !slices.Contains(have, e) {
				have = append(have, e)
			}
		}
	}
	slices.Sort(have)
	for _, name := range only {
		if slices.Contains(have, name) {
			continue
		}
		if len(d.runs) == 0 {
			return fmt.Errorf("report: --only %s: %w: %s holds no run to read: %s", name, ErrNoRun, root, lookedIn(root))
		}
		var read []string
		for _, rd := range d.runs {
			read = append(read, rd.where)
		}
		there := strings.Join(have, ", ")
		if there == "" {
			there = "none"
		}
		return fmt.Errorf("report: --only %s: %w: no records of an experiment of one's own by that name in the runs read from %s (%s); there are: %s",
			name, ErrNoRun, root, strings.Join(read, ", "), there)
	}
	d.runs = slices.DeleteFunc(d.runs, func(rd *runData) bool {
		return !slices.ContainsFunc(only, func(name string) bool { return rd.tally.own[name] })
	})
	return nil
}

// lookedIn says what a folder that holds no run holds instead, and where
// runs would be.
func lookedIn(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err.Error()
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	const shown = 8
	held := "nothing"
	switch {
	case len(names) > shown:
		held = fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
	case len(names) > 0:
		held = strings.Join(names, ", ")
	}
	return fmt.Sprintf("it holds %s; a run is a folder of records files with a record at least (NAME.csv, as levlab run --spec --out DIR writes them), given as the results folder itself or as its <machine>/<scale>/", held)
}

// chooseRuns picks the runs of all to read as o asks — o.Measured first,
// then each other machine's preferred run, or those of o.Machines at
// o.Scale — and says why each other run is left out. A machine or scale
// that has no run is an error naming those there are.
func chooseRuns(o Options, all []records.Run) (read []records.Run, ignored []string, err error) {
	var have []string
	for _, r := range all {
		have = append(have, r.String())
	}
	haveList := strings.Join(have, ", ")
	if haveList == "" {
		haveList = "none"
	}
	var measured *records.Run
	if o.Measured != "" {
		measured = &records.Run{Machine: filepath.Base(filepath.Dir(o.Measured)), Scale: filepath.Base(o.Measured), Dir: o.Measured}
		read = append(read, *measured)
	}
	for _, m := range o.Machines {
		if (measured == nil || m != measured.Machine) && !slices.ContainsFunc(all, func(r records.Run) bool { return r.Machine == m }) {
			return nil, nil, fmt.Errorf("report: machine %q: %w under %s; runs there: %s", m, ErrNoRun, o.Results, haveList)
		}
	}
	if o.Scale != "" && !slices.ContainsFunc(all, func(r records.Run) bool {
		return r.Scale == o.Scale && (len(o.Machines) == 0 || slices.Contains(o.Machines, r.Machine))
	}) {
		return nil, nil, fmt.Errorf("report: scale %q: %w under %s; runs there: %s", o.Scale, ErrNoRun, o.Results, haveList)
	}
	var candidates []records.Run
	for _, r := range all {
		switch {
		case measured != nil && sameDir(r.Dir, measured.Dir):
			continue
		case len(o.Machines) > 0 && !slices.Contains(o.Machines, r.Machine):
			ignored = append(ignored, r.String()+" (not among --machine "+strings.Join(o.Machines, ",")+")")
		case o.Scale != "" && r.Scale != o.Scale:
			ignored = append(ignored, r.String()+" (not at --scale "+o.Scale+")")
		case measured != nil && r.Machine == measured.Machine && o.Scale == "" && scaleRank(r.Scale) >= scaleRank(measured.Scale):
			// A run of the measured machine at a larger scale (the
			// committed paper run beside a quick one) is read too.
			ignored = append(ignored, r.String()+" (the same machine as "+measured.String()+", which is read)")
		default:
			candidates = append(candidates, r)
		}
	}
	if len(o.Only) > 0 && o.Scale == "" {
		// An experiment of one's own may be in any run of a machine:
		// every run is read, and load keeps those that hold it.
		return append(read, candidates...), ignored, nil
	}
	pref := records.Preferred(candidates)
	for _, r := range candidates {
		if slices.Contains(pref, r) {
			read = append(read, r)
			continue
		}
		for _, p := range pref {
			if p.Machine == r.Machine {
				ignored = append(ignored, r.String()+" (the same machine at another scale; "+p.Scale+" is read: --scale "+r.Scale+" reads this one)")
			}
		}
	}
	for i := range read {
		read[i].Dir = filepath.ToSlash(read[i].Dir)
	}
	return read, ignored, nil
}

// scaleRank orders scales as records.Runs does: paper, quick, the rest.
func scaleRank(scale string) int {
	switch scale {
	case records.ScalePaper:
		return 0
	case records.ScaleQuick:
		return 1
	}
	return 2
}

// shownDir names a run's folder dir as the report shows it: within the
// results tree root, from the tree's own name on ("results/<machine>/<scale>"
// however root was given, so that no absolute path of the machine that
// wrote the report shows), elsewhere as given.
func shownDir(root, dir string) string {
	rel, err := filepath.Rel(absPath(root), absPath(dir))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return dir
	}
	return filepath.ToSlash(filepath.Join(filepath.Base(absPath(root)), rel))
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// csvFiles returns the *.csv files directly in dir, in name order
// (records.CSVFiles); a folder that cannot be read holds none.
func csvFiles(dir string) []string {
	paths, _ := records.CSVFiles(dir)
	return paths
}
