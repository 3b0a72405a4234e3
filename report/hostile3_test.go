//go:build unix

package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/levlab/levlab/records"
)

// ownPoint is one point of an experiment of one's own, timed reps times at
// sec seconds each (the repetitions a little apart).
type ownPoint struct {
	impl, cse string
	n         int
	sec       float64
}

// ownRecords returns the records of the points of experiment exp.
func ownRecords(exp string, pts ...ownPoint) []records.Record {
	var recs []records.Record
	for _, p := range pts {
		for rep := 1; rep <= 3; rep++ {
			recs = append(recs, records.Record{
				Experiment: exp, Source: records.SourceOwn, Scale: records.ScaleQuick, Algorithm: p.impl, Ran: p.impl,
				Workers: 1, RanWorkers: 1, Case: p.cse, LenA: p.n, LenB: p.n, Rep: rep, Status: records.StatusOK,
				Seconds: p.sec * (1 + float64(rep-2)/1000), Cells: int64(p.n * p.n), CPU: "Test CPU", Cores: 2,
				GPU: "none", GoVersion: "go1.26", Commit: "abc", Timestamp: "2026-01-02T03:04:05Z",
			})
		}
	}
	return recs
}

// ownRun writes a run folder, dir, of the records of exp and the files
// given (a kept spec's name and its text).
func ownRun(t *testing.T, dir, exp string, recs []records.Record, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(dir, exp+".csv"), recs)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// specText is a kept spec of experiment name with title, case and the
// implementations named (each a lev algorithm) at n = 100.
func specText(name, title, cse string, impls ...string) string {
	s := "name = \"" + name + "\"\ntitle = \"" + title + "\"\n[inputs]\ncase = \"" + cse + "\"\nn = [100]\n"
	for _, im := range impls {
		s += "[[impl]]\nname = \"" + im + "\"\nalgo = \"myers\"\n"
	}
	return s
}

// inTime runs fn and fails the test if it has not returned in 10 s: a
// report must not wait on a FIFO.
func inTime(t *testing.T, what string, fn func() (string, error)) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() { out, err := fn(); done <- result{out, err} }()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not return in 10 s (blocked on a FIFO?)", what)
		return "", nil
	}
}

// mdOf renders the Markdown report of o, figures as tables.
func mdOf(o Options) (string, error) {
	o.Format = FormatMarkdown
	var buf bytes.Buffer
	err := Write(&buf, o)
	return buf.String(), err
}

// TestKeptSpecInGlobFolder: the spec kept beside the records of a run in
// a tree and a machine folder named with a pattern's characters is read:
// its title names the report.
func TestKeptSpecInGlobFolder(t *testing.T) {
	root := filepath.Join(t.TempDir(), "results[old]")
	ownRun(t, filepath.Join(root, "g[1]", "quick"), "mine", ownRecords("mine", ownPoint{"a", "random", 100, 0.5}),
		map[string]string{"mine.toml": specText("mine", "The kept title", "random", "a")})
	md, err := mdOf(Options{Results: root, Only: []string{"mine"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "The kept title") {
		t.Errorf("the report of a run in %s does not read its kept spec (no title):\n%s", root, head(md))
	}
}

// head is the first lines of a report, for a failure's message.
func head(s string) string {
	lines := strings.SplitN(s, "\n", 12)
	return strings.Join(lines[:min(len(lines), 11)], "\n")
}

// TestKeptSpecNotRegular: a kept spec that is a FIFO, or larger than a
// spec can be, is named as what it is; the report does not wait on it,
// and draws the records as if no spec were kept.
func TestKeptSpecNotRegular(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "box", "quick")
	ownRun(t, run, "mine", ownRecords("mine", ownPoint{"a", "random", 100, 0.5}), nil)
	fifo := filepath.Join(run, "mine.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	md, err := inTime(t, "the report of a run whose kept spec is a FIFO", func() (string, error) {
		return mdOf(Options{Results: root, Only: []string{"mine"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "mine.toml") || !strings.Contains(md, "a FIFO") {
		t.Errorf("the report does not name the FIFO kept as mine.toml:\n%s", md)
	}

	os.Remove(fifo)
	big, err := os.Create(fifo)
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(64 << 20); err != nil { // sparse: no disk taken
		t.Fatal(err)
	}
	big.Close()
	md, err = mdOf(Options{Results: root, Only: []string{"mine"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "mine.toml") || !strings.Contains(md, "larger than") {
		t.Errorf("the report does not say the 64 MiB mine.toml is too large to be a spec:\n%s", md)
	}
}

// TestKeptSpecDevZero: a kept spec that is a link to /dev/zero is
// refused as a device, not read until memory runs out. The report runs in
// a child process whose address space is limited, so that a report that
// reads it fails there alone.
func TestKeptSpecDevZero(t *testing.T) {
	if dir := os.Getenv("LEVLAB_TEST_DEVZERO_RESULTS"); dir != "" {
		md, err := mdOf(Options{Results: dir, Only: []string{"mine"}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(md, "mine.toml") || !strings.Contains(md, "a device") {
			t.Errorf("the report does not name mine.toml, a link to /dev/zero, as a device:\n%s", md)
		}
		return
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to limit the child's memory with ulimit")
	}
	root := t.TempDir()
	run := filepath.Join(root, "box", "quick")
	ownRun(t, run, "mine", ownRecords("mine", ownPoint{"a", "random", 100, 0.5}), nil)
	if err := os.Symlink("/dev/zero", filepath.Join(run, "mine.toml")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", `ulimit -v 4000000 && exec "$0" -test.run='^TestKeptSpecDevZero$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "LEVLAB_TEST_DEVZERO_RESULTS="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		first := regexp.MustCompile(`(?m)^.*(fatal error|out of memory|panic).*$`).FindAll(out, 3)
		t.Errorf("the report of a run whose kept spec links to /dev/zero failed (%v); it said:\n%s\n…\n%s", err, bytes.Join(first, []byte("\n")), tail(out, 600))
	}
}

// TestKeptSpecTwice: two specs naming one experiment — a.toml and b.toml,
// or NAME.toml and a copy — are both named, and the report says which is
// used: NAME.toml, which levlab run keeps, where it is one of them, else
// the first by name.
func TestKeptSpecTwice(t *testing.T) {
	for _, c := range []struct {
		name         string
		files        map[string]string
		used, unused string // the files
		title        string // the used one's
	}{
		{"a and b", map[string]string{"a.toml": specText("x", "Title of a", "random", "i"), "b.toml": specText("x", "Title of b", "random", "i")},
			"a.toml", "b.toml", "Title of a"},
		{"a copy", map[string]string{"x.toml": specText("x", "Title of x", "random", "i"), "a copy of x.toml": specText("x", "Title of the copy", "random", "i")},
			"x.toml", "a copy of x.toml", "Title of x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			ownRun(t, filepath.Join(root, "box", "quick"), "x", ownRecords("x", ownPoint{"i", "random", 100, 0.5}), c.files)
			md, err := mdOf(Options{Results: root, Only: []string{"x"}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md, c.title) {
				t.Errorf("the report does not use %s (title %q)", c.used, c.title)
			}
			if !regexp.MustCompile(regexp.QuoteMeta(c.used)+`.*is used`).MatchString(md) || !strings.Contains(md, c.unused) {
				t.Errorf("the report does not say that %s is used and %s is not:\n%s", c.used, c.unused, md)
			}
		})
	}
}

// TestHeaderOnlyNoRun: a run folder whose records file holds its header
// alone (a run killed before its first record) is no machine of the
// report; the file is named with what it holds.
func TestHeaderOnlyNoRun(t *testing.T) {
	root := t.TempDir()
	ownRun(t, filepath.Join(root, "box", "quick"), "mine", nil, nil)
	header := strings.Join(records.RecordColumns(), ",") + "\n"
	if err := os.WriteFile(filepath.Join(root, "box", "quick", "mine.csv"), []byte(header), 0o644); err != nil {
		t.Fatal(err)
	}
	md, err := mdOf(Options{Results: root})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md, "unknown CPU") || strings.Contains(md, "| cores | 0 |") {
		t.Errorf("a header-only records file is drawn as a machine:\n%s", mdTables(md))
	}
	if !strings.Contains(md, "mine.csv: its header alone") {
		t.Errorf("the header-only mine.csv is not named:\n%s", head(md))
	}
}

// mdTables returns the lines of md's tables.
func mdTables(md string) string {
	var out []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
