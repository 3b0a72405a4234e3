package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/records"
)

// smallExperiment is the experiment the tests run for real: a dozen CPU
// points of at most 4000x4000 at the quick scale.
const smallExperiment = "s000-fig3"

func TestRunList(t *testing.T) {
	all := experiments.All()
	if len(all) == 0 {
		t.Skip("the catalog is empty")
	}
	stdout, stderr, code := levlab(t, "run", "--list")
	if code != exitOK || stderr != "" {
		t.Fatalf("levlab run --list: exit status %d, stderr %q", code, stderr)
	}
	// An experiment's first line begins with its name, then its source;
	// the lines after it, which begin with spaces, the rest of the source
	// and its title; none past listWidth columns.
	var names, texts []string
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if len(l) > listWidth {
			t.Errorf("a line of %d columns, more than %d: %q", len(l), listWidth, l)
		}
		if !strings.HasPrefix(l, " ") {
			name, rest, _ := strings.Cut(l, " ")
			names, texts = append(names, name), append(texts, rest)
			continue
		}
		if len(texts) > 0 {
			texts[len(texts)-1] += " " + l
		}
	}
	if len(names) != len(all) {
		t.Errorf("levlab run --list listed %d experiments for %d:\n%s", len(names), len(all), stdout)
	}
	for i, e := range all {
		if i >= len(names) {
			break
		}
		want := strings.Join(strings.Fields(e.Source+" "+e.Title), " ")
		if got := strings.Join(strings.Fields(texts[i]), " "); names[i] != e.Name || got != want {
			t.Errorf("experiment %d: %s %q; want %s %q", i+1, names[i], got, e.Name, want)
		}
	}

	stdout, _, code = levlab(t, "run", "--list", "--only", smallExperiment)
	if code != exitOK || !strings.HasPrefix(stdout, smallExperiment+" ") || strings.Count(stdout, "\n"+smallExperiment) != 0 {
		t.Errorf("levlab run --list --only %s: exit status %d, %q; want its line alone", smallExperiment, code, stdout)
	}
}

func TestRunUsageErrors(t *testing.T) {
	names := make([]string, 0)
	for _, e := range experiments.All() {
		names = append(names, e.Name)
	}
	checkFailure(t, []string{"run", "--scale", "huge"}, exitUsage, `"huge"`, "quick", "paper")
	checkFailure(t, []string{"run", "--only", "s999-nope"}, exitUsage, append([]string{`"s999-nope"`}, names...)...)
	checkFailure(t, []string{"run", "--only", ","}, exitUsage, `","`)
	if len(names) > 0 {
		checkFailure(t, []string{"run", "--only", names[0] + "," + names[0]}, exitUsage, "twice")
	}
	checkFailure(t, []string{"run", "--reps", "0"}, exitUsage, "--reps 0", "want 1 to 1000")
	checkFailure(t, []string{"run", "--reps", "-3"}, exitUsage, "--reps -3")
	checkFailure(t, []string{"run", "--reps", "many"}, exitUsage, "many")
	checkFailure(t, []string{"run", "--list", "--scale", "huge"}, exitUsage, `"huge"`)
	checkFailure(t, []string{"run", "extra"}, exitUsage, `"extra"`)
	checkFailure(t, []string{"run", "--nope"}, exitUsage, "-nope")
	checkFailure(t, []string{"reproduce", "extra"}, exitUsage, `"extra"`)
	checkFailure(t, []string{"reproduce", "--scale", "paper"}, exitUsage, "-scale")
}

func TestRunHelp(t *testing.T) {
	for _, cmd := range []string{"run", "reproduce"} {
		stdout, stderr, code := levlab(t, cmd, "-h")
		if code != exitOK || stderr != "" || !strings.Contains(stdout, "levlab "+cmd) || !strings.Contains(stdout, "-out") {
			t.Errorf("levlab %s -h: exit status %d, stderr %q, stdout:\n%s", cmd, code, stderr, stdout)
		}
	}
}

func TestRunUnwritableOut(t *testing.T) {
	// A folder under a regular file cannot be made, even by root.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(file, "results")
	checkFailure(t, []string{"run", "--only", smallExperiment, "--reps", "1", "--out", out}, exitFailure, out)
	checkFailure(t, []string{"reproduce", "--out", out}, exitFailure, out)
}

// runSmall runs the small experiment once into dir and returns what it
// printed.
func runSmall(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	args := append([]string{"run", "--only", smallExperiment, "--reps", "1", "--out", dir}, extra...)
	stdout, stderr, code := levlab(t, args...)
	if code != exitOK {
		t.Fatalf("levlab %q: exit status %d, stderr:\n%s", args, code, stderr)
	}
	return stdout
}

func TestRunRecordsResumesAndStartsFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("times an experiment; not in -short")
	}
	exps, err := experiments.Lookup([]string{smallExperiment})
	if err != nil {
		t.Skipf("the catalog has no %s: %v", smallExperiment, err)
	}
	points := exps[0].Points(experiments.Quick)
	dir := t.TempDir()
	path := filepath.Join(dir, smallExperiment+".csv")

	stdout := runSmall(t, dir)
	for _, want := range []string{dir, path, "records written", "resumed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("levlab run: stdout does not mention %q:\n%s", want, stdout)
		}
	}
	recs, err := records.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(points) {
		t.Errorf("%s holds %d records for %d points at one repetition", path, len(recs), len(points))
	}
	for _, r := range recs {
		if r.Experiment != smallExperiment || r.Scale != string(experiments.Quick) ||
			(r.Status == records.StatusOK) != (r.Rep == 1 && r.Seconds > 0) {
			t.Errorf("record %+v: want %s at quick scale, rep 1 with a time where ok", r, smallExperiment)
		}
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// The same command again finds every point done and records nothing.
	stdout = runSmall(t, dir)
	if !strings.Contains(stdout, "\n0 records written") {
		t.Errorf("second levlab run: stdout does not say that nothing was recorded:\n%s", stdout)
	}
	if again, err := os.ReadFile(path); err != nil || !bytes.Equal(again, first) {
		t.Errorf("second levlab run changed %s (%v)", path, err)
	}

	// --fresh keeps the old file aside and records every point anew.
	runSmall(t, dir, "--fresh")
	baks, _ := filepath.Glob(path + ".*.bak")
	if len(baks) != 1 {
		t.Fatalf("after --fresh: backups %q, want one", baks)
	}
	if old, err := os.ReadFile(baks[0]); err != nil || !bytes.Equal(old, first) {
		t.Errorf("the backup %s does not hold the first run's file (%v)", baks[0], err)
	}
	if recs, err := records.ReadRecords(path); err != nil || len(recs) != len(points) {
		t.Errorf("after --fresh, %s: %d records, %v; want %d", path, len(recs), err, len(points))
	}
}

func TestReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("times an experiment; not in -short")
	}
	exps, err := experiments.Lookup([]string{smallExperiment})
	if err != nil {
		t.Skipf("the catalog has no %s: %v", smallExperiment, err)
	}
	defer func(e func() []experiments.Experiment, n int, w func(string) (string, error)) {
		reproduceExperiments, reproduceReps, writeReport = e, n, w
	}(reproduceExperiments, reproduceReps, writeReport)
	reproduceExperiments = func() []experiments.Experiment { return exps }
	reproduceReps = 1

	dir := t.TempDir()
	var gotDir string
	writeReport = func(resultsDir string) (string, error) {
		gotDir = resultsDir
		return filepath.Join(resultsDir, "report.html"), nil
	}
	stdout, stderr, code := levlab(t, "reproduce", "--out", dir)
	if code != exitOK || gotDir != dir || !strings.Contains(stdout, filepath.Join(dir, smallExperiment+".csv")) ||
		!strings.Contains(stdout, "report: "+filepath.Join(dir, "report.html")) {
		t.Fatalf("levlab reproduce: exit status %d, report of %q, stdout:\n%s\nstderr:\n%s", code, gotDir, stdout, stderr)
	}
	// Again: every point is recorded, nothing is timed, the report is
	// written anew.
	gotDir = ""
	stdout, _, code = levlab(t, "reproduce", "--out", dir)
	if code != exitOK || gotDir != dir || !strings.Contains(stdout, "report: "+filepath.Join(dir, "report.html")) ||
		!strings.Contains(stdout, "\n0 records written") {
		t.Errorf("levlab reproduce again: exit status %d, report of %q, stdout:\n%s", code, gotDir, stdout)
	}
}
