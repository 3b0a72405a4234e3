package records

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A results tree is one folder holding the reports' numbers and our runs:
//
//	<root>/published/*.csv            the numbers the reports printed
//	<root>/<machine>/<scale>/*.csv    one run: a machine's records at a scale
//	<root>/<machine>/bench/*.txt      its benchmark output (bench.go)
//
// <machine> is the machine's slug (experiments.Machine.Slug, for example
// "intel-xeon-2.80ghz-2c") and <scale> "quick" or "paper". The functions
// below are the one place that knows this layout; the CLI, the report and
// the notebooks all go through them.

// PublishedDir is the folder of the reports' numbers under a results tree.
const PublishedDir = "published"

// Scales of a run, as its folder is named.
const (
	ScaleQuick = "quick"
	ScalePaper = "paper"
)

// A Run is one <machine>/<scale> folder of a results tree.
type Run struct {
	Machine string // the machine's folder name
	Scale   string // the scale's folder name
	Dir     string // root/Machine/Scale
}

// String returns the run as its folder is named under the root:
// "machine/scale".
func (r Run) String() string { return r.Machine + "/" + r.Scale }

// PublishedPath returns the folder of the reports' numbers under root.
func PublishedPath(root string) string { return filepath.Join(root, PublishedDir) }

// RunDir returns the folder of a machine's run at a scale under root.
func RunDir(root, machine, scale string) string { return filepath.Join(root, machine, scale) }

// Runs returns every run under root: each <machine>/<scale> folder that
// holds records (a *.csv that CSVFiles lists; folders whose names start
// with "." and published/ are not machines, bench/ is not a scale), by
// machine name, and for one machine paper first, then quick, then other
// scales by name. A folder reached through a link to another run's folder
// is that run, read once under its own name, not a second machine. A root
// that cannot be read is an error; a machine folder that cannot be read
// holds no runs.
func Runs(root string) ([]Run, error) {
	machines, err := os.ReadDir(root) // sorted by name
	if err != nil {
		return nil, fmt.Errorf("records: results folder: %w", err)
	}
	var runs []Run
	for _, m := range machines {
		if !isDir(root, m) || m.Name() == PublishedDir || strings.HasPrefix(m.Name(), ".") {
			continue
		}
		scales, _ := os.ReadDir(filepath.Join(root, m.Name()))
		var mine []Run
		for _, s := range scales {
			if !isDir(filepath.Join(root, m.Name()), s) || strings.HasPrefix(s.Name(), ".") || s.Name() == BenchFolder {
				continue
			}
			dir := RunDir(root, m.Name(), s.Name())
			if files, _ := CSVFiles(dir); len(files) > 0 {
				mine = append(mine, Run{Machine: m.Name(), Scale: s.Name(), Dir: dir})
			}
		}
		slices.SortStableFunc(mine, func(a, b Run) int {
			if d := ScaleRank(a.Scale) - ScaleRank(b.Scale); d != 0 {
				return d
			}
			return strings.Compare(a.Scale, b.Scale)
		})
		runs = append(runs, mine...)
	}
	return readOnce(runs), nil
}

// readOnce drops from runs each one whose folder is another's, reached
// through a link, keeping the order.
func readOnce(runs []Run) []Run {
	dirs := make([]string, len(runs))
	for i, r := range runs {
		dirs[i] = r.Dir
	}
	keep := distinct(dirs, func(i int) bool { return viaLink(runs[i]) })
	var out []Run
	for i, r := range runs {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}

// distinct returns which of dirs to read so that each folder is read
// once: of the paths to one folder, the first reached without a link
// (linked(i) false) where there is one, else the first. A path that
// cannot be read is not kept.
func distinct(dirs []string, linked func(i int) bool) []bool {
	var seen []os.FileInfo
	keep := make([]bool, len(dirs))
	for _, viaLink := range []bool{false, true} {
		for i, d := range dirs {
			if linked(i) != viaLink {
				continue
			}
			fi, err := os.Stat(d)
			if err != nil || slices.ContainsFunc(seen, func(s os.FileInfo) bool { return os.SameFile(s, fi) }) {
				continue
			}
			seen, keep[i] = append(seen, fi), true
		}
	}
	return keep
}

// viaLink reports whether the run's machine or scale folder is a link.
func viaLink(r Run) bool {
	for _, p := range []string{filepath.Dir(r.Dir), r.Dir} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// isDir reports whether the entry e of dir is a folder, following a link.
func isDir(dir string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && fi.IsDir()
}

// ScaleRank orders the scales of one machine by preference: paper (the
// reports' sizes) before quick, then any other.
func ScaleRank(scale string) int {
	switch scale {
	case ScalePaper:
		return 0
	case ScaleQuick:
		return 1
	}
	return 2
}

// Preferred returns, of runs, the first of each machine in the order given
// (Runs puts each machine's preferred scale first), in machine order.
func Preferred(runs []Run) []Run {
	var out []Run
	for _, r := range runs {
		if !slices.ContainsFunc(out, func(o Run) bool { return o.Machine == r.Machine }) {
			out = append(out, r)
		}
	}
	return out
}

// Key returns the point r measured without its scale: what makes two
// records repetitions of one measurement within a run, and the same
// measurement in runs at different scales.
func Key(r Record) Point {
	p := r.Point()
	p.Scale = ""
	return p
}
