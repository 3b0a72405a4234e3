package records

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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

// HostFile is the name of what levlab info --json said of the machine as
// its records were made: in a machine's folder of the results tree
// (scripts/paper-results.sh and bench-results.sh keep it there, and
// levlab run puts one where none is), or in a run's folder of its own
// (levlab run --out DIR), which it describes alone.
const HostFile = "machine.json"

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
// holds records (a *.csv that CSVFiles lists with a row below its header:
// a file a run left with its header alone, or empty, is no record;
// folders whose names start with "." and published/ are not machines,
// bench/ is not a scale), by machine name, and for one machine paper
// first, then quick, then other scales by name. A folder reached through
// a link to another run's folder is that run, read once under its own
// name, not a second machine; one whose link leads to the tree itself, a
// folder above it, or published/ is no machine or run. A root that cannot
// be read is an error; a machine folder that cannot be read holds no
// runs.
func Runs(root string) ([]Run, error) {
	runs, _, err := walkRuns(root)
	return runs, err
}

// EmptyRuns returns the <machine>/<scale> folders under root that Runs
// leaves out for holding no record: each of their records files is
// empty, or holds its header alone (a run stopped before its first
// record), in Runs' order. A reader names them rather than drawing a run
// of nothing.
func EmptyRuns(root string) ([]Run, error) {
	_, empty, err := walkRuns(root)
	return empty, err
}

// walkRuns finds Runs' runs, and the folders that would be runs but that
// their records files hold no record.
func walkRuns(root string) (runs, empty []Run, err error) {
	tr, machines, err := readTree(root)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range machines {
		scales, _ := os.ReadDir(m.path)
		var mine, none []Run
		for _, s := range scales {
			if strings.HasPrefix(s.Name(), ".") || s.Name() == BenchFolder {
				continue
			}
			dir := RunDir(root, m.name, s.Name())
			if !tr.inside(dir) {
				continue
			}
			files, _ := CSVFiles(dir)
			switch {
			case slices.ContainsFunc(files, hasRow):
				mine = append(mine, Run{Machine: m.name, Scale: s.Name(), Dir: dir})
			case len(files) > 0:
				none = append(none, Run{Machine: m.name, Scale: s.Name(), Dir: dir})
			}
		}
		sortScales(mine)
		sortScales(none)
		runs, empty = append(runs, mine...), append(empty, none...)
	}
	return readOnce(runs), readOnce(empty), nil
}

// HoldsRecords reports whether dir holds records as a run's folder does:
// a records file (CSVFiles) with a row below its header, or one that
// cannot be read, for its reader to name. It is how a reader tells the
// folder levlab run --out DIR wrote from a results tree given in its
// place.
func HoldsRecords(dir string) bool {
	files, _ := CSVFiles(dir)
	return slices.ContainsFunc(files, hasRow)
}

// sortScales puts the runs of one machine paper first, then quick, then
// other scales by name.
func sortScales(runs []Run) {
	slices.SortStableFunc(runs, func(a, b Run) int {
		if d := ScaleRank(a.Scale) - ScaleRank(b.Scale); d != 0 {
			return d
		}
		return strings.Compare(a.Scale, b.Scale)
	})
}

// Benches returns the benchmark files of every machine under root that has
// any, by machine name, each machine's files by name. A bench folder is
// read once: a machine folder that is a link to another, or a bench/
// linked to another machine's, is not a second machine; the files go to
// the machine whose path to them holds no link, where one does. The
// machines are those Runs reads, a link to a hidden folder among them.
func Benches(root string) (map[string][]BenchFile, error) {
	_, machines, err := readTree(root)
	if err != nil {
		return nil, err
	}
	var dirs []string
	var linked []bool
	for _, m := range machines {
		d := BenchPath(root, m.name)
		dirs = append(dirs, d)
		linked = append(linked, m.link || isLink(d))
	}
	keep := distinct(dirs, func(i int) bool { return linked[i] })
	out := map[string][]BenchFile{}
	for i, m := range machines {
		if !keep[i] {
			continue
		}
		paths, _ := filesNamed(dirs[i], ".txt")
		for _, p := range paths {
			f, err := ReadBench(p)
			if err != nil {
				return nil, err
			}
			out[m.name] = append(out[m.name], f)
		}
	}
	return out, nil
}

// A tree is a results folder as its links resolve: the real paths of the
// folder and of its published numbers.
type tree struct{ root, published string }

// A machineDir is a machine folder of a tree.
type machineDir struct {
	name, path string
	link       bool // the folder is a link
}

// readTree lists root's machine folders, by name: each entry that is a
// folder, following a link, but not hidden, not published/, and not a
// link to the tree, a folder above it or published/ (tree.inside).
func readTree(root string) (tree, []machineDir, error) {
	entries, err := os.ReadDir(root) // sorted by name
	if err != nil {
		return tree{}, nil, fmt.Errorf("records: results folder: %w", err)
	}
	tr := tree{root: realPath(root), published: realPath(PublishedPath(root))}
	var out []machineDir
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		if !isDir(root, e) || e.Name() == PublishedDir || strings.HasPrefix(e.Name(), ".") || !tr.inside(p) {
			continue
		}
		out = append(out, machineDir{name: e.Name(), path: p, link: e.Type()&os.ModeSymlink != 0})
	}
	return tr, out, nil
}

// inside reports whether dir, its links resolved, is a folder that may be
// a machine's or a run's: neither the tree itself nor a folder above it
// (results/all -> .), nor published/ or a folder in it (a scale linked to
// ../published). A folder outside the tree (a run shared by a link) is.
func (t tree) inside(dir string) bool {
	real := realPath(dir)
	if real == "" {
		return false
	}
	return !under(t.root, real) && (t.published == "" || !under(real, t.published))
}

// realPath returns path absolute, its links resolved, or "" where it
// cannot be resolved (it does not exist, a link leads nowhere).
func realPath(path string) string {
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	if p, err = filepath.Abs(p); err != nil {
		return ""
	}
	return p
}

// under reports whether path is dir or lies under it; both are absolute
// and clean.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// hasRow reports whether the records file at path holds anything past its
// first line, the header, but blank lines: a run stopped before its first
// record leaves the header alone. It reads the file no further than the
// first byte of the second line, a buffer at a time.
func hasRow(path string) bool {
	f, err := openRegular(path)
	if err != nil {
		return true
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		_, err := br.ReadSlice('\n')
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			return false // the header alone, without its newline
		}
	}
	for {
		c, err := br.ReadByte()
		if err != nil {
			return !errors.Is(err, io.EOF)
		}
		if c != '\n' && c != '\r' {
			return true
		}
	}
}

// filesNamed returns the files directly in dir whose names end in ext, in
// name order: regular files and links to them, as CSVFiles lists its. dir
// is listed, never made a Glob pattern, so that a folder named with a
// pattern's characters ("results[old]", "g[1]") is read.
func filesNamed(dir, ext string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ext) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if e.Type().IsRegular() {
			out = append(out, p)
		} else if fi, err := os.Stat(p); e.Type()&os.ModeSymlink != 0 && (err != nil || fi.Mode().IsRegular()) {
			out = append(out, p) // a dangling link too: reading it names it
		}
	}
	return out, nil
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
