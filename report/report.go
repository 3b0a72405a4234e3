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

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// load reads what o names: the runs it chooses, each aggregated and
// named.
func load(o Options) (*rep, error) {
	return loadRuns(choice{results: o.Results, measured: o.Measured, machines: o.Machines, scale: o.Scale, only: o.Only, note: readNote})
}

// choice says which runs of a results tree loadRuns reads, as Options
// does, and how a record's note reads.
type choice struct {
	results, measured string
	machines          []string
	scale             string
	only              []string
	// note, when set, rewrites each record's note as it is read: two
	// skips of a point whose notes read the same are one.
	note func(string) string
}

// rep is everything read, before any section is built: the published
// numbers, each run read and aggregated, and the benchmark output.
type rep struct {
	published []records.Published
	runs      []*index
	ignored   []string // runs found and not read, with why
	problems  []string // files that could not be read, with the error
	noPublish string   // why there are no published numbers, or ""
	// bench is each machine's benchmark output (records.Benches), by the
	// machine's folder name.
	bench map[string][]records.BenchFile
	// only is choice.only: the experiments of one's own the runs were
	// kept for.
	only  []string
	stale *[]oldRecords // staleness's answer, once found
}

// loadRuns reads the runs c chooses, with the published numbers and the
// benchmark output beside them, and aggregates and names each run.
func loadRuns(c choice) (*rep, error) {
	if c.results == "" {
		return nil, fmt.Errorf("report: no results folder given")
	}
	fi, err := os.Stat(c.results)
	if err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", c.results, err, ErrNoResults)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("report: results folder %s: not a folder (%w)", c.results, ErrNoResults)
	}
	all, err := records.Runs(c.results)
	if err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", c.results, err, ErrNoResults)
	}
	if records.HoldsRecords(c.results) {
		// A run's folder, not a tree: its records are one run.
		all = append([]records.Run{{Machine: filepath.Base(absPath(c.results)), Scale: scaleOf(c.results), Dir: c.results}}, all...)
	}
	read, ignored, err := chooseRuns(c, all)
	if err != nil {
		return nil, err
	}
	r := &rep{ignored: ignored, only: c.only}
	empty, _ := records.EmptyRuns(c.results)
	for _, run := range empty {
		r.problems = append(r.problems, noRecords(run)...)
	}
	pubDir := records.PublishedPath(c.results)
	pubFiles := csvFiles(pubDir)
	if len(pubFiles) == 0 {
		r.noPublish = "no published numbers: " + filepath.ToSlash(pubDir) + " holds no CSV"
	}
	for _, p := range pubFiles {
		rows, err := records.ReadPublishedFile(p)
		if err != nil {
			r.problems = append(r.problems, err.Error())
			continue
		}
		r.published = append(r.published, rows...)
	}
	if r.bench, err = records.Benches(c.results); err != nil {
		r.problems = append(r.problems, err.Error())
	}
	note := c.note
	if note == nil {
		note = func(s string) string { return s }
	}
	for _, run := range read {
		ix := loadRun(run, note)
		ix.where = shownDir(c.results, run.Dir)
		ix.keptSpecs(run.Dir)
		r.runs = append(r.runs, ix)
	}
	if len(c.only) > 0 {
		if err := r.keepOwn(c.results, c.only); err != nil {
			return nil, err
		}
	}
	for _, ix := range r.runs {
		ix.aggregate()
	}
	r.nameRuns()
	return r, nil
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
func (r *rep) keepOwn(root string, only []string) error {
	var have []string
	for _, ix := range r.runs {
		for e := range ix.tally.own {
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
		if len(r.runs) == 0 {
			return fmt.Errorf("report: --only %s: %w: %s holds no run to read: %s", name, ErrNoRun, root, lookedIn(root))
		}
		var read []string
		for _, ix := range r.runs {
			read = append(read, ix.where)
		}
		there := strings.Join(have, ", ")
		if there == "" {
			there = "none"
		}
		return fmt.Errorf("report: --only %s: %w: no records of an experiment of one's own by that name in the runs read from %s (%s); there are: %s",
			name, ErrNoRun, root, strings.Join(read, ", "), there)
	}
	r.runs = slices.DeleteFunc(r.runs, func(ix *index) bool {
		return !slices.ContainsFunc(only, func(name string) bool { return ix.tally.own[name] })
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

// chooseRuns picks the runs of all to read as c asks — c.measured first,
// then each other machine's preferred run, or those of c.machines at
// c.scale — and says why each other run is left out. A machine or scale
// that has no run is an error naming those there are.
func chooseRuns(c choice, all []records.Run) (read []records.Run, ignored []string, err error) {
	var have []string
	for _, r := range all {
		have = append(have, r.String())
	}
	haveList := strings.Join(have, ", ")
	if haveList == "" {
		haveList = "none"
	}
	var measured *records.Run
	if c.measured != "" {
		measured = &records.Run{Machine: filepath.Base(filepath.Dir(c.measured)), Scale: filepath.Base(c.measured), Dir: c.measured}
		read = append(read, *measured)
	}
	for _, m := range c.machines {
		if (measured == nil || m != measured.Machine) && !slices.ContainsFunc(all, func(r records.Run) bool { return r.Machine == m }) {
			return nil, nil, fmt.Errorf("report: machine %q: %w under %s; runs there: %s", m, ErrNoRun, c.results, haveList)
		}
	}
	if c.scale != "" && !slices.ContainsFunc(all, func(r records.Run) bool {
		return r.Scale == c.scale && (len(c.machines) == 0 || slices.Contains(c.machines, r.Machine))
	}) {
		return nil, nil, fmt.Errorf("report: scale %q: %w under %s; runs there: %s", c.scale, ErrNoRun, c.results, haveList)
	}
	var candidates []records.Run
	for _, r := range all {
		switch {
		case measured != nil && sameDir(r.Dir, measured.Dir):
			continue
		case len(c.machines) > 0 && !slices.Contains(c.machines, r.Machine):
			ignored = append(ignored, r.String()+" (not among --machine "+strings.Join(c.machines, ",")+")")
		case c.scale != "" && r.Scale != c.scale:
			ignored = append(ignored, r.String()+" (not at --scale "+c.scale+")")
		case measured != nil && r.Machine == measured.Machine && c.scale == "" && scaleRank(r.Scale) >= scaleRank(measured.Scale):
			// A run of the measured machine at a larger scale (the
			// committed paper run beside a quick one) is read too.
			ignored = append(ignored, r.String()+" (the same machine as "+measured.String()+", which is read)")
		default:
			candidates = append(candidates, r)
		}
	}
	if len(c.only) > 0 && c.scale == "" {
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
