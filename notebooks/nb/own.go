package nb

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/report"
)

// Distance is an implementation to verify: a Go function, or Command's.
type Distance func(ctx context.Context, a, b []byte) (int, error)

// Command returns the Distance of a program, run as levlab verify runs it:
// args[0] with args[1:], where {a} and {b} are files holding the strings,
// {a:text} and {b:text} the strings themselves, {n} and {m} their lengths
// and {workers} workers; the distance is read from its stdout as verify
// reads it. A run past timeout, a non-zero exit or no number is an error
// saying so, and so is a wrong distance that is the distance between the
// files' names (a program that takes the strings as arguments, given {a}
// {b}). An unknown placeholder is an error at the first call.
func Command(workers int, timeout time.Duration, args ...string) Distance {
	cmd := progrun.Command{Args: args, Reading: progrun.Reading{Timeout: timeout}}
	return func(ctx context.Context, a, b []byte) (int, error) {
		if len(args) == 0 {
			return 0, errors.New("nb: Command: no program")
		}
		if err := progrun.CheckPlaceholders(progrun.NoTilePlaceholders, args...); err != nil {
			return 0, fmt.Errorf("nb: Command: %w", err)
		}
		dir, err := os.MkdirTemp("", "levlab-nb-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(dir)
		cs := progrun.Case{A: a, B: b, N: len(a), M: len(b), Workers: workers}
		res, err := cmd.Run(ctx, &progrun.Files{Dir: dir}, cs)
		if err != nil {
			return 0, err
		}
		if took := cmd.TookFileNames(res.Distance, dir, cs); took != "" {
			if want, err := lev.Distance(a, b); err == nil && want != res.Distance {
				return 0, fmt.Errorf("answered %d, want %d: %s", res.Distance, want, took)
			}
		}
		return res.Distance, nil
	}
}

// VerifyHTML runs n of the conformance cases (levtest.Cases: known
// answers, every edit at the word boundaries, long pairs around powers of
// two and tile multiples up to 3,000 symbols, random pairs; seed fixed)
// through distance, smallest first, and returns what levlab verify
// prints, as HTML: how many agree; where some fail, a reason every
// failure gives said once, the failures by family of case with the
// smallest of each, and the ten smallest failures with the distance
// wanted. It stops after 100 failures, saying how many cases were left.
// ok is whether every case agreed.
func VerifyHTML(what string, distance Distance, n int) (h string, ok bool) {
	cases := levtest.Cases(rand.New(rand.NewPCG(1, 0x1e71ab)), levtest.CaseOptions{N: n, MaxLen: 3000})
	ran, fails := levtest.Check(context.Background(), cases, levtest.Answer(distance), verifyMaxFail)
	head := fmt.Sprintf("%s: %d of %d cases agree", what, ran-len(fails), ran)
	if len(fails) == 0 {
		return NoteHTML("%s.", head), true
	}
	head += fmt.Sprintf("; %d fail", len(fails))
	if left := len(cases) - ran; left > 0 {
		head += fmt.Sprintf(" (it stops at %d failures: the %d longest of the %d cases did not run)", verifyMaxFail, left, len(cases))
	}
	whys, shared := sharedReason(fails)
	if shared != "" {
		head += ". Every failure says why the same way: " + shared
	}
	cols := []string{"case", "len a", "len b", "why"}
	if whys[0] == "" { // the reason said whole above
		cols = cols[:3]
	}
	var rows [][]string
	for i, f := range fails[:min(len(fails), 10)] {
		rows = append(rows, []string{f.Case.Name, strconv.Itoa(len(f.Case.A)), strconv.Itoa(len(f.Case.B)), whys[i]}[:len(cols)])
	}
	return NoteHTML("%s.", head) +
		TableHTML("Failures by family of case, with the smallest of each", []string{"family", "cases", "the smallest failure"}, familyRows(cases, ran, fails, whys)) +
		TableHTML("The smallest failures", cols, rows), false
}

// verifyMaxFail is how many failures end VerifyHTML's run.
const verifyMaxFail = 100

// sharedReason returns each failure's why, and the reason after the
// first ": " where every failure gives the same one ("answered 1, want 3:
// 1 is the distance between its arguments …"); the whys are then what
// comes before it. Where every why is the same, it is the reason whole,
// and the whys are empty.
func sharedReason(fails []levtest.Failure) (whys []string, shared string) {
	whys = make([]string, len(fails))
	heads := make([]string, len(fails))
	same, whole := len(fails) > 1, len(fails) > 1
	for i, f := range fails {
		whys[i] = f.Why
		whole = whole && f.Why == fails[0].Why
		head, tail, found := strings.Cut(f.Why, ": ")
		same = same && found && (i == 0 || tail == shared)
		heads[i], shared = head, tail
	}
	switch {
	case whole: // "nb: Command: no program" each time: said once, whole
		return make([]string, len(fails)), fails[0].Why
	case !same:
		return whys, ""
	}
	return heads, shared
}

// familyRows is a row a family of cases: how many of those that ran
// failed (and how many did not run), and the smallest failure. The cases
// ran as levtest.Check runs them, smallest first, the first ran of them.
func familyRows(cases []levtest.Case, ran int, fails []levtest.Failure, whys []string) [][]string {
	bySize := slices.Clone(cases)
	slices.SortStableFunc(bySize, func(x, y levtest.Case) int { return cmp.Compare(x.Size(), y.Size()) })
	type tally struct{ ran, failed, left int }
	count := map[string]*tally{}
	var order []string
	for i, c := range bySize {
		t := count[c.Family]
		if t == nil {
			t = &tally{}
			count[c.Family] = t
			order = append(order, c.Family)
		}
		if i < ran {
			t.ran++
		} else {
			t.left++
		}
	}
	smallest := map[string]string{}
	for i, f := range fails {
		count[f.Case.Family].failed++
		if _, ok := smallest[f.Case.Family]; !ok {
			smallest[f.Case.Family] = fmt.Sprintf("%s (%d and %d bytes)", f.Case.Name, len(f.Case.A), len(f.Case.B))
			if whys[i] != "" {
				smallest[f.Case.Family] += ": " + whys[i]
			}
		}
	}
	slices.SortStableFunc(order, func(x, y string) int { return cmp.Compare(levtest.FamilyRank(x), levtest.FamilyRank(y)) })
	var rows [][]string
	for _, f := range order {
		t := count[f]
		var what []string
		switch {
		case t.failed > 0:
			what = append(what, fmt.Sprintf("%d of %d fail", t.failed, t.ran))
		case t.ran > 0:
			what = append(what, fmt.Sprintf("%d agree", t.ran))
		}
		if t.left > 0 {
			what = append(what, fmt.Sprintf("%d not run", t.left))
		}
		rows = append(rows, []string{f, strings.Join(what, ", "), smallest[f]})
	}
	return rows
}

// Verify shows VerifyHTML's answer in the cell and returns whether every
// case agreed.
func Verify(what string, distance Distance, n int) bool {
	h, ok := VerifyHTML(what, distance, n)
	display(h)
	return ok
}

// BuildExamples compiles examples/ed_omp.c as make examples does — ed_omp
// and its off-by-one twin, with cc -O2 -fopenmp — into a folder of the
// system's temporary folder, never the repository, and returns it.
func (e Env) BuildExamples() (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", fmt.Errorf("nb: no C compiler (Debian: apt-get install gcc): %w", err)
	}
	dir := filepath.Join(os.TempDir(), "levlab-examples")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src := filepath.Join(e.Root, "examples", "ed_omp.c")
	for _, b := range []struct{ out, flag string }{{"ed_omp", ""}, {"ed_omp_offbyone", "-DOFF_BY_ONE"}} {
		args := []string{"-O2", "-fopenmp", "-o", filepath.Join(dir, b.out), src}
		if b.flag != "" {
			args = append(args, b.flag)
		}
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("nb: cc %s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir, nil
}

// RunOwn times an experiment of one's own with the runner into
// e.Measured, as levlab run --spec does — resuming what an earlier run
// recorded, each finished point a line in the cell, failed points recorded
// with why — keeps its spec beside the records, and returns its section of
// the report (report --only): findings, figures, tables. Failed points
// are no error: the section shows them.
func (e Env) RunOwn(own *experiments.Own) (report.Section, error) {
	r := experiments.Runner{Scale: e.Scale, Reps: own.Spec.RepsOr(), Dir: e.Measured, Out: os.Stdout}
	if _, err := r.Run(context.Background(), []experiments.Experiment{own.Experiment}); err != nil {
		return report.Section{}, err
	}
	if err := own.WriteSpec(e.Measured); err != nil {
		return report.Section{}, err
	}
	return e.OwnSection(own.Name)
}

// OwnSection returns the section of the report of an experiment of one's
// own that e.Measured holds (report --only name).
func (e Env) OwnSection(name string) (report.Section, error) {
	secs, err := report.Sections(report.Options{Results: e.Results, Measured: e.Measured, Only: []string{name}})
	if err != nil {
		return report.Section{}, err
	}
	return secs[0], nil
}
