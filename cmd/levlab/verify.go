package main

import (
	"bytes"
	"cmp"
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
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/levlab/levlab/internal/sysmem"
	"github.com/levlab/levlab/lev/levtest"
)

func verifyUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab verify [--cases N] [--runes] [--max-len N] [--timeout D] [--workers N]
                [--seed S] [--distance-regexp RE] [--] PROG [ARGS...]

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
signal or runs past --timeout; stdout past 1 MiB is not read. The cases run
one at a time, smallest first; verify prints how many agree and the
smallest failures with what was wanted, keeps the smallest failure's
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

// verifyMaxOutput is how much of a program's stdout verify reads.
const verifyMaxOutput = 1 << 20

// verifyMaxFailures is how many failures end a verify early.
const verifyMaxFailures = 100

// verifyPlaceholders are the words a command may hold in braces.
var verifyPlaceholders = []string{"{a}", "{b}", "{n}", "{m}", "{workers}"}

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", stdout, verifyUsage)
	n := fs.Int("cases", 1000, "`N` cases to run, at least 1")
	runes := fs.Bool("runes", false, "UTF-8 text cases, the distance counted in runes")
	maxLen := fs.Int("max-len", 20000, "the longest string of the long cases, `N` >= 2")
	timeout := fs.Duration("timeout", 10*time.Second, "the longest a case may run, `D` (e.g. 500ms, 1m)")
	workers := fs.Int("workers", 2, "`N` for the {workers} placeholder, at least 1")
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
	case *n < 1:
		return usageErrorf("--cases %d: want at least 1", *n)
	case *maxLen < 2:
		return usageErrorf("--max-len %d: want at least 2", *maxLen)
	case *timeout <= 0:
		return usageErrorf("--timeout %v: want a positive duration", *timeout)
	case *workers < 1:
		return usageErrorf("--workers %d: want at least 1", *workers)
	}
	if err := checkPlaceholders(prog); err != nil {
		return err
	}
	v := &verifier{prog: prog, timeout: *timeout, workers: *workers}
	if *distRE != "" {
		re, err := regexp.Compile(*distRE)
		if err != nil {
			return usageErrorf("--distance-regexp %q: %v", *distRE, err)
		}
		if re.NumSubexp() < 1 {
			return usageErrorf("--distance-regexp %q has no group: put the distance's digits in one, e.g. %q", *distRE, `distance: (\d+)`)
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
	dir, err := os.MkdirTemp("", "levlab-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	v.dir = dir

	cases := levtest.Cases(rand.New(rand.NewPCG(*seed, 0x1e71ab)), levtest.CaseOptions{N: *n, MaxLen: *maxLen, Runes: *runes})
	slices.SortStableFunc(cases, func(x, y levtest.Case) int { return cmp.Compare(x.Size(), y.Size()) })
	var fails []verifyFailure
	ran := 0
	for _, c := range cases {
		if ctx.Err() != nil {
			break
		}
		if why := v.check(ctx, c); why != "" && ctx.Err() == nil {
			fails = append(fails, verifyFailure{c, why})
		}
		ran++
		if len(fails) >= verifyMaxFailures {
			break
		}
	}
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
		fmt.Fprintf(stdout, "  %d. %s (%s and %s %s): %s\n", i+1, f.c.Name, strconv.Itoa(v.length(f.c.A, f.c.Runes)), strconv.Itoa(v.length(f.c.B, f.c.Runes)), unit(f.c.Runes), f.why)
	}
	if keep, err := keepInputs(fails[0].c); err == nil {
		fmt.Fprintf(stdout, "the smallest failure's inputs: %s and %s (want %d)\n", filepath.Join(keep, "a"), filepath.Join(keep, "b"), fails[0].c.Want)
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
	re := regexp.MustCompile(`\{[A-Za-z_]+\}`)
	for _, arg := range prog {
		for _, w := range re.FindAllString(arg, -1) {
			if !slices.Contains(verifyPlaceholders, w) {
				return usageErrorf("%s in %q is no placeholder; valid: %s", w, arg, strings.Join(verifyPlaceholders, " "))
			}
		}
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

type verifyFailure struct {
	c   levtest.Case
	why string
}

func (v *verifier) length(s []byte, runes bool) int {
	if runes {
		return len([]rune(string(s)))
	}
	return len(s)
}

// check runs the program on one case and returns why it failed, or "".
func (v *verifier) check(ctx context.Context, c levtest.Case) string {
	a, b := filepath.Join(v.dir, "a"), filepath.Join(v.dir, "b")
	if err := os.WriteFile(a, c.A, 0o644); err != nil {
		return err.Error()
	}
	if err := os.WriteFile(b, c.B, 0o644); err != nil {
		return err.Error()
	}
	r := strings.NewReplacer("{a}", a, "{b}", b,
		"{n}", strconv.Itoa(v.length(c.A, c.Runes)), "{m}", strconv.Itoa(v.length(c.B, c.Runes)),
		"{workers}", strconv.Itoa(v.workers))
	args := make([]string, len(v.prog))
	for i, p := range v.prog {
		args[i] = r.Replace(p)
	}
	got, why := runCommand(ctx, args, v.timeout, v.re)
	switch {
	case why != "":
		return why
	case got != c.Want:
		return fmt.Sprintf("printed %d, want %d", got, c.Want)
	}
	return ""
}

// runCommand runs args[0] with args[1:] and returns the distance it
// printed, or why there is none: a time-out, a non-zero exit, a signal,
// no number, stdout past verifyMaxOutput.
func runCommand(ctx context.Context, args []string, timeout time.Duration, re *regexp.Regexp) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	// Past the cap the program is stopped: it may print for ever.
	out := &cappedBuffer{max: verifyMaxOutput, full: cancel}
	errOut := &cappedBuffer{max: 4 << 10, discard: true}
	cmd.Stdout, cmd.Stderr = out, errOut
	// A child that leaves a grandchild holding the pipes must not hold
	// verify too.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case out.over:
		return 0, fmt.Sprintf("printed more than %s on stdout, and was stopped", sysmem.Size(verifyMaxOutput))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return 0, fmt.Sprintf("ran past --timeout %v and was killed", timeout)
	case errors.As(err, &exit):
		if st, ok := exit.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 0, fmt.Sprintf("killed by signal %v%s", st.Signal(), firstLine(errOut.Bytes()))
		}
		return 0, fmt.Sprintf("exited with status %d%s", exit.ExitCode(), firstLine(errOut.Bytes()))
	case err != nil:
		return 0, err.Error()
	}
	d, ok := lastNumber(out.Bytes(), re)
	if !ok {
		what := "the last integer"
		if re != nil {
			what = fmt.Sprintf("a match of %q", re)
		}
		return 0, fmt.Sprintf("exited 0 but printed no distance (%s on stdout)%s", what, firstLine(out.Bytes()))
	}
	return d, ""
}

// lastNumber returns the last integer of out, or the first group of re's
// last match.
func lastNumber(out []byte, re *regexp.Regexp) (int, bool) {
	var s []byte
	if re == nil {
		all := regexp.MustCompile(`-?[0-9]+`).FindAll(out, -1)
		if len(all) == 0 {
			return 0, false
		}
		s = all[len(all)-1]
	} else {
		all := re.FindAllSubmatch(out, -1)
		if len(all) == 0 || len(all[len(all)-1]) < 2 {
			return 0, false
		}
		s = all[len(all)-1][1]
	}
	d, err := strconv.Atoi(string(bytes.TrimSpace(s)))
	return d, err == nil
}

// firstLine is ": LINE", the first non-empty line of b, short, for a
// message; "" when there is none.
func firstLine(b []byte) string {
	for line := range bytes.Lines(b) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if len(line) > 120 {
				line = append(line[:117:117], "..."...)
			}
			return fmt.Sprintf(": %q", line)
		}
	}
	return ""
}

// cappedBuffer keeps what is written up to max bytes. Past it a write
// fails and full, if set, is called (to stop the writer); with discard,
// what is past it is dropped instead.
type cappedBuffer struct {
	// Not embedded: bytes.Buffer's ReadFrom would let io.Copy past Write.
	buf     bytes.Buffer
	max     int
	discard bool
	full    func()
	over    bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		if c.discard {
			c.buf.Write(p[:max(0, c.max-c.buf.Len())])
			return len(p), nil
		}
		if c.full != nil {
			c.full()
		}
		return 0, errors.New("output past the cap")
	}
	return c.buf.Write(p)
}

// Bytes returns what was kept.
func (c *cappedBuffer) Bytes() []byte { return c.buf.Bytes() }

// keepInputs writes a case's inputs into a new folder, which it returns.
func keepInputs(c levtest.Case) (string, error) {
	dir, err := os.MkdirTemp("", "levlab-verify-failure-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), c.A, 0o644); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "b"), c.B, 0o644)
}
