//go:build unix

package records

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// treeFiles makes the files of a results tree under root: each path with
// its content, every folder on the way made.
func treeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// treeLinks makes each link of links (its path under root) to its target,
// as given.
func treeLinks(t *testing.T, root string, links map[string]string) {
	t.Helper()
	for p, target := range links {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
}

func runNames(t *testing.T, root string) []string {
	t.Helper()
	runs, err := Runs(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.String())
	}
	return got
}

func benchMachines(t *testing.T, root string) []string {
	t.Helper()
	all, err := Benches(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for m, files := range all {
		for _, f := range files {
			got = append(got, m+": "+filepath.Base(f.Path))
		}
	}
	slices.Sort(got)
	return got
}

const (
	rowsCSV    = "h\nrow\n" // a header and a row: what Runs takes for records
	benchText  = "BenchmarkX-2 \t 3\t 1 ns/op\n"
	headerOnly = "experiment,algorithm\n" // what a run stopped before its first record leaves
)

// TestRunsNotThroughTreeLinks: a link inside the tree to the tree itself
// (results/all -> .) or a scale folder linked to the published numbers is
// no run: the published numbers are not shown as one.
func TestRunsNotThroughTreeLinks(t *testing.T) {
	root := t.TempDir()
	treeFiles(t, root, map[string]string{"published/p.csv": rowsCSV, "a-box/quick/e.csv": rowsCSV})
	treeLinks(t, root, map[string]string{"all": ".", "a-box/old": "../published", "up": ".."})
	if got, want := runNames(t, root), []string{"a-box/quick"}; !slices.Equal(got, want) {
		t.Errorf("Runs = %v, want %v (no run through a link to the tree or to published/)", got, want)
	}
}

// TestRunsNeedARow: a records file that holds its header alone (a run
// killed before its first record) or nothing makes no run.
func TestRunsNeedARow(t *testing.T) {
	root := t.TempDir()
	treeFiles(t, root, map[string]string{
		"a-box/quick/e.csv": headerOnly, "b-box/quick/e.csv": "", "c-box/quick/e.csv": headerOnly + "\n\n",
		"d-box/quick/e.csv": headerOnly, "d-box/quick/f.csv": rowsCSV,
	})
	if got, want := runNames(t, root), []string{"d-box/quick"}; !slices.Equal(got, want) {
		t.Errorf("Runs = %v, want %v (a run needs a record)", got, want)
	}
}

// TestEmptyRuns: the folders Runs leaves out for holding no record are
// named, for a reader to say so.
func TestEmptyRuns(t *testing.T) {
	root := t.TempDir()
	treeFiles(t, root, map[string]string{
		"a-box/quick/e.csv": headerOnly, "a-box/paper/e.csv": "", "b-box/quick/e.csv": rowsCSV, "c-box/quick/notes.txt": "",
	})
	empty, err := EmptyRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range empty {
		got = append(got, r.String())
	}
	if want := []string{"a-box/paper", "a-box/quick"}; !slices.Equal(got, want) {
		t.Errorf("EmptyRuns = %v, want %v", got, want)
	}
}

// TestBenchesReadOnce: a bench/ linked to another machine's is that
// machine's alone, and a machine folder that is a link to a hidden folder
// has its benchmarks.
func TestBenchesReadOnce(t *testing.T) {
	root := t.TempDir()
	treeFiles(t, root, map[string]string{"b-box/bench/p.txt": benchText, ".hidden-box/bench/q.txt": benchText})
	if err := os.MkdirAll(filepath.Join(root, "a-box"), 0o755); err != nil {
		t.Fatal(err)
	}
	treeLinks(t, root, map[string]string{"a-box/bench": "../b-box/bench", "box": ".hidden-box", "all": "."})
	if got, want := benchMachines(t, root), []string{"b-box: p.txt", "box: q.txt"}; !slices.Equal(got, want) {
		t.Errorf("Benches = %v, want %v", got, want)
	}
}

// TestTreeGlobNames: a tree and a machine named with a pattern's
// characters have their runs and benchmarks.
func TestTreeGlobNames(t *testing.T) {
	root := filepath.Join(t.TempDir(), "results[old]")
	treeFiles(t, root, map[string]string{"g[1]/bench/r.txt": benchText, "g[1]/quick/e.csv": rowsCSV, "*/bench/s.txt": benchText})
	if got, want := benchMachines(t, root), []string{"*: s.txt", "g[1]: r.txt"}; !slices.Equal(got, want) {
		t.Errorf("Benches = %v, want %v", got, want)
	}
	if got, want := runNames(t, root), []string{"g[1]/quick"}; !slices.Equal(got, want) {
		t.Errorf("Runs = %v, want %v", got, want)
	}
}

// TestHoldsRecords: a run's folder holds records; a results tree, a folder
// of a header-only file, and one of none do not.
func TestHoldsRecords(t *testing.T) {
	root := t.TempDir()
	treeFiles(t, root, map[string]string{"out/e.csv": rowsCSV, "out/e.toml": "", "tree/box/quick/e.csv": rowsCSV, "killed/e.csv": headerOnly})
	for _, c := range []struct {
		dir  string
		want bool
	}{{"out", true}, {"tree", false}, {"tree/box/quick", true}, {"killed", false}, {"none", false}} {
		if got := HoldsRecords(filepath.Join(root, c.dir)); got != c.want {
			t.Errorf("HoldsRecords(%s) = %v, want %v", c.dir, got, c.want)
		}
	}
}
