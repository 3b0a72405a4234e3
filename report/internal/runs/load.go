package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
)

// ErrNoResults is wrapped by the error of Load when the results folder
// does not exist.
var ErrNoResults = errors.New("no results folder")

// ErrNoRun is wrapped by the error of Load when the machine, scale or
// experiment of one's own asked for has no run in the results tree.
var ErrNoRun = errors.New("no such run")

// Choice says which runs of a results tree Load reads, as the report's
// Options do, and how a record's note reads.
type Choice struct {
	// Results is the results tree, or a run's folder read as one run.
	Results string
	// Measured, when set, is a run's folder read first, wherever it lies.
	Measured string
	// Machines and Scale, when set, are the only machine folders and the
	// only scale read; unset, each machine's preferred run is read.
	Machines []string
	Scale    string
	// Only, when set, names the experiments of one's own read: the runs
	// that hold none of them are left out.
	Only []string
	// Note, when set, rewrites each record's note as it is read: two
	// skips of a point whose notes read the same are one.
	Note func(string) string
}

// Load reads the runs c chooses, with the published numbers and the
// benchmark output beside them, and aggregates and names each run. Its
// errors begin "report:", as the report's own do.
func Load(c Choice) (*Set, error) {
	if c.Results == "" {
		return nil, fmt.Errorf("report: no results folder given")
	}
	fi, err := os.Stat(c.Results)
	if err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", c.Results, err, ErrNoResults)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("report: results folder %s: not a folder (%w)", c.Results, ErrNoResults)
	}
	all, err := records.Runs(c.Results)
	if err != nil {
		return nil, fmt.Errorf("report: results folder %s: %w (%w)", c.Results, err, ErrNoResults)
	}
	if records.HoldsRecords(c.Results) {
		// A run's folder, not a tree: its records are one run.
		all = append([]records.Run{{Machine: filepath.Base(AbsPath(c.Results)), Scale: scaleOf(c.Results), Dir: c.Results}}, all...)
	}
	read, ignored, err := chooseRuns(c, all)
	if err != nil {
		return nil, err
	}
	set := &Set{Ignored: ignored, Only: c.Only}
	empty, _ := records.EmptyRuns(c.Results)
	for _, run := range empty {
		set.Problems = append(set.Problems, noRecords(run)...)
	}
	pubDir := records.PublishedPath(c.Results)
	pubFiles := csvFiles(pubDir)
	if len(pubFiles) == 0 {
		set.NoPublish = "no published numbers: " + filepath.ToSlash(pubDir) + " holds no CSV"
	}
	for _, p := range pubFiles {
		rows, err := records.ReadPublishedFile(p)
		if err != nil {
			set.Problems = append(set.Problems, err.Error())
			continue
		}
		set.Published = append(set.Published, rows...)
	}
	if set.Bench, err = records.Benches(c.Results); err != nil {
		set.Problems = append(set.Problems, err.Error())
	}
	note := c.Note
	if note == nil {
		note = func(s string) string { return s }
	}
	for _, run := range read {
		ix := loadRun(run, note)
		ix.Where = shownDir(c.Results, run.Dir)
		ix.keptSpecs(run.Dir)
		if h, err := ix.readHost(); err != nil {
			ix.Problems = append(ix.Problems, err.Error())
		} else {
			ix.Host = h
		}
		set.Runs = append(set.Runs, ix)
	}
	if len(c.Only) > 0 {
		if err := set.keepOwn(c.Results, c.Only); err != nil {
			return nil, err
		}
	}
	for _, ix := range set.Runs {
		ix.aggregate()
	}
	set.nameRuns()
	return set, nil
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
func (s *Set) keepOwn(root string, only []string) error {
	have := s.OwnNames()
	for _, name := range only {
		if slices.Contains(have, name) {
			continue
		}
		if len(s.Runs) == 0 {
			return fmt.Errorf("report: --only %s: %w: %s holds no run to read: %s", name, ErrNoRun, root, lookedIn(root))
		}
		var read []string
		for _, ix := range s.Runs {
			read = append(read, ix.Where)
		}
		there := strings.Join(have, ", ")
		if there == "" {
			there = "none"
		}
		return fmt.Errorf("report: --only %s: %w: no records of an experiment of one's own by that name in the runs read from %s (%s); there are: %s",
			name, ErrNoRun, root, strings.Join(read, ", "), there)
	}
	s.Runs = slices.DeleteFunc(s.Runs, func(ix *Index) bool {
		return !slices.ContainsFunc(only, func(name string) bool { return ix.Tally.Own[name] })
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
