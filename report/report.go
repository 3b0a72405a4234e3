// Package report renders levlab's results — our measured records beside the
// numbers the course reports published — as one self-contained HTML file
// (charts drawn by ECharts, inlined, nothing fetched) or as Markdown tables.
//
// It reads only CSV through package records. The same CSV gives the same
// bytes: every list is sorted, chart ids are fixed, and nothing of the
// moment of generation (clock, map order, random ids) reaches the output.
package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/records"
)

// Options say what to read and how to write it.
type Options struct {
	// Results is the results folder: published/ and <machine>/<scale>/
	// below it.
	Results string
	// Measured, when set, is the one folder of our records to read (for
	// example what levlab reproduce just wrote); unset, the report takes
	// every <machine>/<scale>/ folder under Results, paper preferred over
	// quick for the same machine.
	Measured string
	// Format is "html" (the default when empty) or "md".
	Format string
}

// Formats the report can be written in.
const (
	FormatHTML     = "html"
	FormatMarkdown = "md"
)

// ErrNoResults is wrapped by the error of Write when the results folder
// does not exist.
var ErrNoResults = errors.New("no results folder")

// Write writes the report of o.Results to w.
func Write(w io.Writer, o Options) error {
	format := o.Format
	if format == "" {
		format = FormatHTML
	}
	if format != FormatHTML && format != FormatMarkdown {
		return fmt.Errorf("report: format %q: want %q or %q", o.Format, FormatHTML, FormatMarkdown)
	}
	d, err := load(o)
	if err != nil {
		return err
	}
	doc := build(d)
	var buf bytes.Buffer
	if format == FormatMarkdown {
		writeMarkdown(&buf, doc)
	} else if err := writeHTML(&buf, doc); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// WriteFile writes the report to path atomically: into a temporary file
// in the same folder, renamed over path once complete.
func WriteFile(path string, o Options) error {
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		return err
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// data is everything read, before any section is built.
type data struct {
	published []records.Published
	records   []records.Record
	folders   []string          // measured folders read, as given
	ignored   []string          // measured folders found and not read, with why
	problems  []string          // files that could not be read, with the error
	rows      int               // records read, records left out included
	leftOut   []records.Problem // records not used, by file:line
	noPublish string            // why there are no published numbers, or ""
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
	if _, err := os.ReadDir(o.Results); err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", o.Results, err, ErrNoResults)
	}
	d := &data{}
	pubDir := filepath.Join(o.Results, "published")
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

	var dirs []string
	if o.Measured != "" {
		dirs = []string{o.Measured}
	} else {
		dirs, d.ignored = measuredDirs(o.Results)
	}
	for _, dir := range dirs {
		d.folders = append(d.folders, filepath.ToSlash(dir))
		files := csvFiles(dir)
		if len(files) == 0 {
			d.problems = append(d.problems, filepath.ToSlash(dir)+": no CSV files")
		}
		var rows []records.Row
		for _, f := range files {
			rs, err := records.ReadRows(f)
			if err != nil {
				d.problems = append(d.problems, err.Error())
				continue
			}
			if len(rs) == 0 {
				d.problems = append(d.problems, filepath.ToSlash(f)+": empty (no header, no records)")
			}
			rows = append(rows, rs...)
		}
		// A time that is not a number, or a rep measured twice, would move
		// every median it joins without a word: such rows are named
		// instead, and left out of everything.
		use, problems := records.Validate(rows)
		for _, r := range use {
			d.records = append(d.records, r.Record)
		}
		for _, p := range problems {
			p.File = filepath.ToSlash(p.File)
			d.leftOut = append(d.leftOut, p)
		}
		d.rows += len(rows)
	}
	return d, nil
}

// csvFiles returns the *.csv files directly in dir, in name order
// (records.CSVFiles); a folder that cannot be read holds none.
func csvFiles(dir string) []string {
	paths, _ := records.CSVFiles(dir)
	return paths
}

// measuredDirs returns the <machine>/<scale> folders under root to read —
// one per machine, paper preferred over quick, the first machine in name
// order when several — and those left out, each with why.
func measuredDirs(root string) (read, ignored []string) {
	machines, _ := os.ReadDir(root) // sorted by name
	var found [][]string            // per machine: its scale folders
	for _, m := range machines {
		if !m.IsDir() || m.Name() == "published" || strings.HasPrefix(m.Name(), ".") {
			continue
		}
		scales, _ := os.ReadDir(filepath.Join(root, m.Name()))
		var dirs []string
		for _, s := range scales {
			if s.IsDir() {
				dirs = append(dirs, filepath.Join(root, m.Name(), s.Name()))
			}
		}
		if len(dirs) > 0 {
			sort.Slice(dirs, func(i, j int) bool {
				return scaleRank(dirs[i]) < scaleRank(dirs[j]) || scaleRank(dirs[i]) == scaleRank(dirs[j]) && dirs[i] < dirs[j]
			})
			found = append(found, dirs)
		}
	}
	for i, dirs := range found {
		for j, dir := range dirs {
			switch {
			case i == 0 && j == 0:
				read = append(read, dir)
			case i == 0:
				ignored = append(ignored, filepath.ToSlash(dir)+" (the same machine at another scale; "+filepath.Base(dirs[0])+" read instead)")
			default:
				ignored = append(ignored, filepath.ToSlash(dir)+" (another machine; one machine per report: pass its folder to read it)")
			}
		}
	}
	return read, ignored
}

// scaleRank orders scale folders: paper first, then quick, then the rest.
func scaleRank(dir string) int {
	switch filepath.Base(dir) {
	case "paper":
		return 0
	case "quick":
		return 1
	}
	return 2
}
