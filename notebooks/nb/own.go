package nb

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
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
// prints, as HTML: how many agree, and the ten smallest failures with the
// distance wanted. ok is whether every case agreed.
func VerifyHTML(what string, distance Distance, n int) (h string, ok bool) {
	cases := levtest.Cases(rand.New(rand.NewPCG(1, 0x1e71ab)), levtest.CaseOptions{N: n, MaxLen: 3000})
	ran, fails := levtest.Check(context.Background(), cases, levtest.Answer(distance), 100)
	head := fmt.Sprintf("%s: %d of %d cases agree", what, ran-len(fails), ran)
	if len(fails) == 0 {
		return NoteHTML("%s.", head), true
	}
	var rows [][]string
	for _, f := range fails[:min(len(fails), 10)] {
		rows = append(rows, []string{f.Case.Name, strconv.Itoa(len(f.Case.A)), strconv.Itoa(len(f.Case.B)), f.Why})
	}
	return NoteHTML("%s; %d fail, the smallest first:", head, len(fails)) +
		TableHTML("The smallest failures", []string{"case", "len a", "len b", "why"}, rows), false
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
