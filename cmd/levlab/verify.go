package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/lev/levtest"
)

func verifyUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab verify [--cases N] [--runes] [--max-len N] [--timeout D] [--workers N]
                [--jobs N] [--seed S] [--distance-regexp RE] [--] PROG [ARGS...]

Runs the conformance cases through another program — yours, written in C,
C++, CUDA, Go, anything — and checks every answer against the exact
distance: known answers, every edit at the word boundaries (63–65,
127–129, 999–1001 …), long pairs around the sizes where parallel code
splits its work (powers of two and multiples of tile sides 100 … 1024, each
±1, up to --max-len), and random pairs over alphabets of 2, 4, 26 and 256
symbols. With --runes the cases are UTF-8 text and the distance counts
runes. Flags come before PROG; everything from PROG on is the command.

In PROG and ARGS these placeholders are replaced, case by case:
  {a} {b}     files holding the two strings (raw bytes, no newline added)
  {n} {m}     their lengths (bytes, or runes with --runes)
  {workers}   --workers, for a parallel program's thread count

The program prints the distance: the last integer on its stdout, or the
first group of the last match of --distance-regexp. A case fails when the
program answers another number, prints none, exits non-zero, is killed by a
signal or runs past --timeout; stdout past 1 MiB is not read. The cases
start smallest first, one at a time: a parallel program has the machine to
itself (two OpenMP programs sharing the cores spin at their barriers and
crawl; where other work shares them, OMP_WAIT_POLICY=PASSIVE has the
threads sleep there instead). For a sequential one, --jobs N runs N at once. verify prints how
many agree and the smallest failures with what was wanted, keeps the smallest failure's
inputs in a folder it names, and stops after 100 failures.

Example:
  levlab verify -- ./ed_omp {a} {b}
  levlab verify --runes --workers 4 -- env OMP_NUM_THREADS={workers} ./ed_omp {a} {b}

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  every case agreed
  1  a case failed (the smallest are listed), or PROG cannot be run
  2  bad usage: an unknown flag or placeholder, no PROG, a value out of
     range, a --distance-regexp that does not compile or has no group
`)
}

// verifyMaxFailures is how many failures end a verify early.
const verifyMaxFailures = 100

// The bounds of --cases and --max-len: every case is made, with its
// exact distance, before the first runs, and a program under test may
// take O(n²) time on each.
const (
	verifyMaxCases = 100000
	verifyMaxLen   = 1000000
)

// verifyMemory is about what n cases, the longest of maxLen symbols (up to
// four bytes each), hold: the long cases (a few dozen lengths up to
// maxLen, two strings each) and the rest, of at most 300 symbols.
func verifyMemory(n, maxLen int) int64 {
	return 4 * (int64(2*maxLen)*8 + int64(n)*600)
}

// verifyPlaceholders are the words a command may hold in braces.
var verifyPlaceholders = progrun.Placeholders[:5]

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", stdout, verifyUsage)
	n := fs.Int("cases", 1000, "`N` cases to run, 1 to "+strconv.Itoa(verifyMaxCases))
	runes := fs.Bool("runes", false, "UTF-8 text cases, the distance counted in runes")
	maxLen := fs.Int("max-len", 20000, "the longest string of the long cases, `N` from 2 to "+strconv.Itoa(verifyMaxLen))
	timeout := fs.Duration("timeout", 10*time.Second, "the longest a case may run, `D` (e.g. 500ms, 1m)")
	workers := fs.Int("workers", 2, "`N` for the {workers} placeholder, at least 1")
	jobs := fs.Int("jobs", 1, "`N` cases run at once, at least 1: more for a sequential program, never for a parallel one")
	seed := fs.Uint64("seed", 0, "seed `S` of the random cases; unset: a new one, printed")
	distRE := fs.String("distance-regexp", "", "`RE` whose first group, in its last match on stdout, is the distance; unset: the last integer")
	// Flags end at PROG: what follows is the program's.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			verifyUsage(stdout, fs.FlagSet)
			return err
		}
		return usageErrorf("%v", err)
	}
	prog := fs.Args()
	switch {
	case len(prog) == 0:
		return usageErrorf("no program: levlab verify [flags] -- PROG [ARGS...], with {a} and {b} for the files of the strings")
	case *n < 1 || *n > verifyMaxCases:
		return usageErrorf("--cases %d: want 1 to %d", *n, verifyMaxCases)
	case *maxLen < 2 || *maxLen > verifyMaxLen:
		return usageErrorf("--max-len %d: want 2 to %d (past it, the long cases' exact distances alone take minutes each)", *maxLen, verifyMaxLen)
	case *timeout <= 0:
		return usageErrorf("--timeout %v: want a positive duration", *timeout)
	case *workers < 1:
		return usageErrorf("--workers %d: want at least 1", *workers)
	case *jobs < 1:
		return usageErrorf("--jobs %d: want at least 1", *jobs)
	}
	if err := checkPlaceholders(prog); err != nil {
		return err
	}
	v := &verifier{prog: prog, timeout: *timeout, workers: *workers}
	if *distRE != "" {
		re, err := progrun.CompileRegexp("--distance-regexp", *distRE)
		if err != nil {
			return usageErrorf("%v", err)
		}
		v.re = re
	}
	if _, err := exec.LookPath(prog[0]); err != nil && !strings.Contains(prog[0], "{") {
		return fmt.Errorf("cannot run %s: %w", prog[0], err)
	}
	if !fs.given()["seed"] {
		*seed = rand.Uint64()
	}

	ctx, stop := interruptContext()
	defer stop()
	dir, err := progrun.MkdirTemp("levlab-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	v.dir = dir

	if err := fitsMemory(fmt.Sprintf("%d cases, the longest of %d symbols", *n, *maxLen), verifyMemory(*n, *maxLen)); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "levlab verify: preparing %d cases (the longest of %d %s) and their exact distances…\n", *n, *maxLen, unit(*runes))
	cases, err := levtest.CasesContext(ctx, rand.New(rand.NewPCG(*seed, 0x1e71ab)), levtest.CaseOptions{N: *n, MaxLen: *maxLen, Runes: *runes})
	if err != nil {
		return fmt.Errorf("%w while preparing the cases", errInterrupted)
	}
	ran, fails := levtest.CheckJobs(ctx, cases, *jobs, func(j int) func(context.Context, levtest.Case) string {
		dir := filepath.Join(v.dir, strconv.Itoa(j))
		return func(ctx context.Context, c levtest.Case) string {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err.Error()
			}
			return v.check(ctx, dir, c)
		}
	}, verifyMaxFailures)
	cmdline := shellQuote(prog)
	fmt.Fprintf(stdout, "%d of %d cases through %s: %d agree, %d fail (--seed %d)\n", ran, len(cases), cmdline, ran-len(fails), len(fails), *seed)
	if ctx.Err() != nil {
		return fmt.Errorf("%w after %d cases", errInterrupted, ran)
	}
	if len(fails) == 0 {
		return nil
	}
	if len(fails) >= verifyMaxFailures {
		fmt.Fprintf(stdout, "stopped after %d failures\n", len(fails))
	}
	fmt.Fprintln(stdout, "the smallest failures:")
	for i, f := range fails[:min(len(fails), 10)] {
		fmt.Fprintf(stdout, "  %d. %s (%s and %s %s): %s\n", i+1, f.Case.Name, strconv.Itoa(v.length(f.Case.A, f.Case.Runes)), strconv.Itoa(v.length(f.Case.B, f.Case.Runes)), unit(f.Case.Runes), f.Why)
	}
	if keep, err := keepInputs(fails[0].Case); err == nil {
		fmt.Fprintf(stdout, "the smallest failure's inputs: %s and %s (want %d)\n", filepath.Join(keep, "a"), filepath.Join(keep, "b"), fails[0].Case.Want)
	}
	return exitStatus(exitFailure)
}

func unit(runes bool) string {
	if runes {
		return "runes"
	}
	return "bytes"
}

// checkPlaceholders refuses a word in braces that is no placeholder: a
// typo would otherwise reach the program as it is.
func checkPlaceholders(prog []string) error {
	if err := progrun.CheckPlaceholders(verifyPlaceholders, prog...); err != nil {
		return usageErrorf("%v", err)
	}
	return nil
}

type verifier struct {
	prog    []string
	timeout time.Duration
	workers int
	re      *regexp.Regexp
	dir     string
}

func (v *verifier) length(s []byte, runes bool) int {
	if runes {
		return len([]rune(string(s)))
	}
	return len(s)
}

// check runs the program on one case and returns why it failed, or "".
func (v *verifier) check(ctx context.Context, dir string, c levtest.Case) string {
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, c.A, 0o644); err != nil {
		return err.Error()
	}
	if err := os.WriteFile(b, c.B, 0o644); err != nil {
		return err.Error()
	}
	vals := progrun.Values{A: a, B: b, N: v.length(c.A, c.Runes), M: v.length(c.B, c.Runes), Workers: v.workers}
	args := make([]string, len(v.prog))
	for i, p := range v.prog {
		args[i] = vals.Expand(p)
	}
	res := progrun.Run(ctx, args, progrun.Options{Timeout: v.timeout, Distance: v.re})
	switch {
	case strings.HasPrefix(res.Failure, "ran past its time-out"):
		return fmt.Sprintf("ran past --timeout %v and was killed", v.timeout)
	case res.Failure != "":
		return res.Failure
	case res.Distance != c.Want:
		return fmt.Sprintf("printed %d, want %d", res.Distance, c.Want)
	}
	return ""
}

// keepInputs writes a case's inputs into a new folder, which it returns.
func keepInputs(c levtest.Case) (string, error) {
	dir, err := progrun.MkdirTemp("levlab-verify-failure-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), c.A, 0o644); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "b"), c.B, 0o644)
}
