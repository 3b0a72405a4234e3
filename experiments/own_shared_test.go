package experiments

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// TestOwnSharedRuns: impls whose commands differ only in how their output
// is read (one program printing three implementations' answers) run the
// program once a repetition for all three, each reading its own distance
// and time from that run; an impl of another command runs on its own.
func TestOwnSharedRuns(t *testing.T) {
	dir := t.TempDir()
	shared, alone := filepath.Join(dir, "shared-runs"), filepath.Join(dir, "alone-runs")
	prog := fmt.Sprintf("echo run >> %s; echo 'one: 0 t=0.000001'; echo 'two: 0 t=0.000002'; echo 'bad: 7'", shared)
	text := fmt.Sprintf(`name = "shared"
reps = 3
[inputs]
case = "identical"
n = [50, 150]
[[impl]]
name = "one"
command = ["sh", "-c", %[1]q]
distance_regexp = 'one: (\d+)'
time_regexp = 'one: \d+ t=([0-9.]+)'
[[impl]]
name = "two"
command = ["sh", "-c", %[1]q]
distance_regexp = 'two: (\d+)'
time_regexp = 'two: \d+ t=([0-9.]+)'
time_unit = "s"
[[impl]]
name = "bad"
command = ["sh", "-c", %[1]q]
distance_regexp = 'bad: (\d+)'
[[impl]]
name = "alone"
command = ["sh", "-c", %[2]q]
`, prog, fmt.Sprintf("echo run >> %s; echo 0", alone))
	s, err := spec.Parse("shared.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	own, err := FromSpec(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	if got := own.Shared(); len(got) != 1 || !slices.Equal(got[0], []string{"one", "two", "bad"}) {
		t.Fatalf("Shared() = %q, want [[one two bad]]", got)
	}
	out := t.TempDir()
	readFrom := map[string][]string{}
	progress := func(pr Progress) {
		if pr.Rep == s.RepsOr() {
			readFrom[pr.Point.Algorithm] = append(readFrom[pr.Point.Algorithm], strings.Join(pr.ReadFrom, "+"))
		}
	}
	sum, err := (&Runner{Dir: out, Reps: s.RepsOr(), Progress: progress}).Run(context.Background(), []Experiment{own.Experiment})
	if err != nil {
		t.Fatal(err)
	}
	// A warm-up and 3 reps at each of 2 lengths: 8 runs, for the three
	// impls together, and 8 for alone.
	for _, f := range []string{shared, alone} {
		b, err := os.ReadFile(f)
		if n := strings.Count(string(b), "run\n"); err != nil || n != 8 {
			t.Errorf("%s: %d runs (%v), want 8", filepath.Base(f), n, err)
		}
	}
	for impl, want := range map[string][]string{"one": {"", ""}, "two": {"one", "one"}, "alone": {"", ""}} {
		if !slices.Equal(readFrom[impl], want) {
			t.Errorf("%s's finished points read from %q, want %q", impl, readFrom[impl], want)
		}
	}
	if len(sum.Failed) != 1 || !strings.Contains(sum.Failed[0], "bad") || !strings.Contains(sum.Failed[0], "answered 7") {
		t.Errorf("failed %q, want bad's answer of 7 at n = 50", sum.Failed)
	}
	recs, err := records.ReadRecords(filepath.Join(out, "shared.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]int{}
	for _, r := range recs {
		if r.Status != records.StatusOK {
			continue
		}
		ok[r.Algorithm]++
		want := map[string]float64{"one": 1e-6, "two": 2e-6}[r.Algorithm]
		if want != 0 && r.Seconds != want {
			t.Errorf("%s at n = %d rep %d: %g s, want its own clock's %g", r.Algorithm, r.LenA, r.Rep, r.Seconds, want)
		}
		if r.CPUSeconds <= 0 {
			t.Errorf("%s at n = %d rep %d: no CPU time from the shared run", r.Algorithm, r.LenA, r.Rep)
		}
		if wantNote := map[string]string{"two": records.ReadFromNote("one")}[r.Algorithm]; r.Note != wantNote {
			t.Errorf("%s at n = %d rep %d: note %q, want %q", r.Algorithm, r.LenA, r.Rep, r.Note, wantNote)
		}
	}
	if ok["one"] != 6 || ok["two"] != 6 || ok["alone"] != 6 || ok["bad"] != 0 {
		t.Errorf("ok rows %v, want 6 of one, two and alone, none of bad", ok)
	}
}

// TestOwnSharedRunsNotStarted: a program of a group gone after the spec
// was read fails the first impl's point, and each other's, saying so,
// with no panic for readings the run never made.
func TestOwnSharedRunsNotStarted(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "both")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho 'one: 0'; echo 'two: 0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, own := oneTwo(t, "gone", 2, []string{prog})
	if err := os.Remove(prog); err != nil {
		t.Fatal(err)
	}
	sum, err := (&Runner{Dir: t.TempDir(), Reps: s.RepsOr()}).Run(context.Background(), []Experiment{own.Experiment})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) != 2 || !strings.Contains(sum.Failed[0], "one") || !strings.Contains(sum.Failed[1], "two") {
		t.Fatalf("failed %q, want one and two", sum.Failed)
	}
	for _, f := range sum.Failed {
		if !strings.Contains(f, "cannot start it") {
			t.Errorf("failure %q does not say the program did not start", f)
		}
	}
}

// TestOwnSharedRunsAfterAFailure: where the impl that ran the program
// fails, the next reads the runs there are and runs the program itself
// for the rest, and says so in its records and its progress; a second run
// of the same Own reads nothing of the runs the first left unread.
func TestOwnSharedRunsAfterAFailure(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "runs")
	// one answers right on the first four runs, then 9; two answers 7 on
	// the first run, then right.
	prog := fmt.Sprintf("echo run >> %[1]s; n=$(wc -l < %[1]s); "+
		"if [ $n -le 4 ]; then echo 'one: 0'; else echo 'one: 9'; fi; "+
		"if [ $n -eq 1 ]; then echo 'two: 7'; else echo 'two: 0'; fi", count)
	s, own := oneTwo(t, "after", 3, []string{"sh", "-c", prog})
	runs := func() int {
		b, _ := os.ReadFile(count)
		return strings.Count(string(b), "run\n")
	}
	var said []string
	progress := func(pr Progress) {
		if pr.Point.Algorithm == "two" && pr.Rep == s.RepsOr() {
			said = append(said, strings.Join(pr.ReadFrom, "+"))
		}
	}
	run := func() (Summary, []records.Record) {
		t.Helper()
		out := t.TempDir()
		sum, err := (&Runner{Dir: out, Reps: s.RepsOr(), Progress: progress}).Run(context.Background(), []Experiment{own.Experiment})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := records.ReadRecords(filepath.Join(out, "after.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return sum, recs
	}
	// The first run: one runs the program 4 times (a warm-up and 3
	// reps); two fails on the first of them and reads no more.
	sum, _ := run()
	if n := runs(); n != 4 || len(sum.Failed) != 1 || !strings.Contains(sum.Failed[0], "two") {
		t.Fatalf("first run: %d runs, failed %q; want 4 runs and two failed", n, sum.Failed)
	}
	// The second, afresh: one fails on its warm-up (9); two reads that
	// run, then runs the program itself for its 3 reps, none of them
	// from the three runs the first run left unread.
	said = nil
	sum, recs := run()
	if n := runs(); n != 4+1+3 || len(sum.Failed) != 1 || !strings.Contains(sum.Failed[0], "one") {
		t.Errorf("second run: %d runs in all, failed %q; want 8 and one failed", n, sum.Failed)
	}
	if !slices.Equal(said, []string{""}) {
		t.Errorf("two's progress said it read from %q, want it ran the program itself", said)
	}
	for _, r := range recs {
		if r.Algorithm == "two" && r.Status == records.StatusOK && r.Note != "" {
			t.Errorf("two's rep %d noted %q, want none: it ran the program itself", r.Rep, r.Note)
		}
	}
}

// oneTwo is a spec of two impls, one and two, of one command that prints
// "one: N" and "two: M", each reading its own line; and the experiment it
// declares, closed at the end of t.
func oneTwo(t *testing.T, name string, reps int, command []string) (*spec.Spec, *Own) {
	t.Helper()
	quoted := make([]string, len(command))
	for i, w := range command {
		quoted[i] = fmt.Sprintf("%q", w)
	}
	cmd := "[" + strings.Join(quoted, ", ") + "]"
	s, err := spec.Parse(name+".toml", []byte(fmt.Sprintf(`name = %q
reps = %d
[inputs]
case = "identical"
n = [10]
[[impl]]
name = "one"
command = %s
distance_regexp = 'one: (\d+)'
[[impl]]
name = "two"
command = %s
distance_regexp = 'two: (\d+)'
`, name, reps, cmd, cmd)))
	if err != nil {
		t.Fatal(err)
	}
	own, err := FromSpec(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	return s, own
}
