package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/lev/levtest"
	"golang.org/x/term"
)

func verifyUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab verify [--cases N] [--runes] [--text] [--equal-lengths] [--max-len N]
                [--timeout D] [--workers N,...] [--jobs N|auto] [--seed S]
                [--stdin TEMPLATE] [--input TEMPLATE] [--input-name NAME]
                [--distance-regexp RE] [--] PROG [ARGS...]

Runs the conformance cases through another program — yours, written in C,
C++, CUDA, Go, anything — and checks every answer against the exact
distance: known answers, every edit at the word boundaries (63–65,
127–129, 999–1001 …), long pairs around the sizes where parallel code
splits its work (powers of two and multiples of tile sides 100 … 1024, each
±1, up to --max-len), and random pairs over alphabets of 2, 4, 26 and 256
symbols. With --runes the cases are UTF-8 text and the distance counts
runes. Flags come before PROG; everything from PROG on is the command.

In PROG and ARGS these placeholders are replaced, case by case:
  {a} {b}            files holding the two strings (raw bytes, no newline added)
  {a:text} {b:text}  the strings themselves, as arguments (then no case holds a NUL byte)
  {n} {m}            their lengths (bytes, or runes with --runes)
  {workers}          each count of --workers, for a parallel program's threads or ranks
  {input}            a file written from --input for each case
--stdin and --input are templates of what the program reads, with the same
placeholders ({input} aside) and the escapes \n \t \r \\: for a program that
reads a menu, or one file such as --input '{n} {m}\n{a:text}\n{b:text}\n'.
A program that opens a file of a name of its own in its working folder
(input.txt) takes --input-name input.txt: each case then runs in a folder
of its own, where that file is written, so that cases run at once do not
share it (PROG's own path is still taken from here).

The program prints the distance: the number on the last line that names
the distance ("distance", any case), else the last line holding only an
integer, else the last integer that is no part of a decimal number or
of a path (3.0 reads as 3); or the first group of the last match of
--distance-regexp ((?m) makes ^ and $ match at each line). A string of
the case that the program prints back, 4 bytes or more with a digit, a
line end or the word distance in it, is read as "…".
A case fails when the program answers another number (its line is quoted),
prints none, exits non-zero, is killed by a signal or runs past --timeout
(it is then run once more, alone, before it fails, until 3 such have run
past it again with none agreeing); stdout past 1 MiB is not read. The
cases start smallest first, each at every count of --workers.

--jobs auto, the default, runs one case at a time where the command takes
{workers} (a parallel program has the machine to itself: two OpenMP
programs sharing the cores spin at their barriers and crawl). Otherwise it
first runs the longest case alone, and where that kept no more than one
core busy (or ran under 50 ms), as many cases at once as there are cores,
each held to a core of its own (Linux); a run of 50 ms or more that keeps
more busy brings it back to one.

Progress goes to stderr every second (every 10 s where stderr is a file
or a pipe), after 10 s with how long the rest will take: each run's time
fitted to a start and a cost a cell of its matrix, over the cells left. A
run past --timeout is run again, alone, once the others are done, and
said on stderr; where every case agrees in the end, verify still says how
many agreed only when run again.

At the end verify prints how many agree; where every run printed one
number whatever the strings, that the program reads none of them (given {a}
{b}, the names of files, where it wants the strings, {a:text} {b:text});
the failures by family of case (known answers, length boundaries, long,
random over each alphabet) with the smallest of each; what the failures
share where they share a trait (a NUL byte, a trailing line end, white
space, an empty string, unequal lengths: --text and --equal-lengths
leave such cases out; under --runes a symbol past U+FFFF, which UTF-16
counts twice; a length past which the program prints no distance:
--max-len keeps to it); the smallest failures; and keeps the
smallest failure's inputs in a folder it names. A family stops after 10
failures; a trait whose 10 runs failed, none agreeing, is left out from
then on (its failures stop no family where others agree), and so are the
runs longer than every string of a run that agreed, once 10 of those
printed no distance; verify stops after 100 failures, or after 20 runs
that printed no distance where none printed one.

Example:
  levlab verify -- ./ed_omp {a} {b}
  levlab verify --runes --workers 1,2,4 -- env OMP_NUM_THREADS={workers} ./ed_omp {a} {b}
  levlab verify --text -- ./ed_args {a:text} {b:text}
  levlab verify --text --stdin '1\n{a:text}\n{b:text}\n3\n' -- ./ed_menu
  levlab verify --input '{n} {m}\n{a:text}\n{b:text}\n' -- ./ed_file {input}
  levlab verify --text --input '{a:text}\n{b:text}\n' --input-name input.txt -- ./ed_fixed
  levlab verify --workers 1,2,4 -- mpirun -np {workers} ./ed_mpi {a} {b}

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

const (
	// verifyMaxFailures is how many failures end a verify early.
	verifyMaxFailures = 100
	// verifyFamilyFailures is how many failures end a family of cases (at
	// one count of workers):
	// a program that fails one family throughout (every string with a
	// NUL byte, say) leaves the others room to show theirs.
	verifyFamilyFailures = 10
	// verifyListed is how many of the smallest failures are listed.
	verifyListed = 10
	// verifyUnread is how many runs, none of them with a distance levlab
	// could read, end a verify early: a program that prints only its time
	// would otherwise spend every family's long cases saying so.
	verifyUnread = 20
	// verifyConstantRuns is how many runs, each printing the same
	// distance where the cases want at least three, tell a program that
	// reads none of the strings.
	verifyConstantRuns = 5
	// verifyTraitFailures is how many runs of a trait (verifyTraits) at
	// a count of workers fail, none agreeing, before the rest are left
	// out: an honest limit, or one bug, said ten times is said.
	verifyTraitFailures = 10
	// verifyRetryHangs is how many runs past the time-out, run again
	// alone, run past it again, none agreeing, before the rest are not
	// run again: the program hangs there, not the machine, and each retry
	// costs a whole --timeout.
	verifyRetryHangs = 3
)

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

// verifyPlaceholders are the words a command may hold in braces, and
// templatePlaceholders those of --stdin and --input.
var (
	verifyPlaceholders   = slices.Concat(progrun.NoTilePlaceholders, progrun.TextPlaceholders, []string{progrun.InputPlaceholder})
	templatePlaceholders = slices.Concat(progrun.NoTilePlaceholders, progrun.TextPlaceholders)
)

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", stdout, verifyUsage)
	n := fs.Int("cases", 1000, "`N` cases to run, 1 to "+strconv.Itoa(verifyMaxCases))
	runes := fs.Bool("runes", false, "UTF-8 text cases, the distance counted in runes")
	text := fs.Bool("text", false, "cases of printable symbols, no white space, NUL or line end (runes with --runes): for a program that reads words or lines")
	equal := fs.Bool("equal-lengths", false, "pairs of strings of equal length only")
	maxLen := fs.Int("max-len", 20000, "the longest string of any case (the long cases reach it), `N` from 2 to "+strconv.Itoa(verifyMaxLen))
	timeout := fs.Duration("timeout", 10*time.Second, "the longest a case may run, `D` (e.g. 500ms, 1m)")
	workersList := fs.String("workers", "2", "`N[,N...]`: the values of {workers}, each at least 1; every case runs at each (e.g. 1,2,4)")
	jobsFlag := fs.String("jobs", "auto", "`N` cases run at once, at least 1, or auto (see above): more for a sequential program, never for a parallel one")
	seed := fs.Uint64("seed", 0, "seed `S` of the random cases; unset: a new one, printed")
	distRE := fs.String("distance-regexp", "", "`RE` whose first group, in its last match on stdout, is the distance; unset: see above")
	stdinT := fs.String("stdin", "", "`TEMPLATE` of what the program reads on stdin, placeholders expanded, escapes \\n \\t \\r \\\\")
	inputT := fs.String("input", "", "`TEMPLATE` of a file written for each case, named by {input} in the command; escapes as --stdin's")
	inputName := fs.String("input-name", "", "`NAME` of the --input file, such as input.txt: each case then runs in a folder of its own, where the file is, for a program that opens that name")
	// Flags end at PROG: what follows is the program's.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			verifyUsage(stdout, fs.FlagSet)
			return err
		}
		return fs.badValue(err)
	}
	prog := fs.Args()
	given := fs.given()
	switch {
	case len(prog) == 0:
		return usageErrorf("no program: levlab verify [flags] -- PROG [ARGS...], with {a} and {b} for the files of the strings")
	case *n < 1 || *n > verifyMaxCases:
		return usageErrorf("--cases %d: want 1 to %d", *n, verifyMaxCases)
	case *maxLen < 2 || *maxLen > verifyMaxLen:
		return usageErrorf("--max-len %d: want 2 to %d (past it, the long cases' exact distances alone take minutes each)", *maxLen, verifyMaxLen)
	case *timeout <= 0:
		return usageErrorf("--timeout %v: want a positive duration", *timeout)
	}
	workers, err := parseWorkersList(*workersList)
	if err != nil {
		return err
	}
	jobs, err := parseJobs(*jobsFlag)
	if err != nil {
		return err
	}
	if err := checkPlaceholders(prog); err != nil {
		return err
	}
	v := &verifier{cmd: progrun.Command{Args: prog, Reading: progrun.Reading{Timeout: *timeout}}}
	for _, t := range []struct {
		flag  string
		in    string
		given bool
		out   **string
	}{{"--stdin", *stdinT, given["stdin"], &v.cmd.Stdin}, {"--input", *inputT, given["input"], &v.cmd.Input}} {
		s, err := progrun.Unescape(t.in)
		if err != nil {
			return usageErrorf("%s: %v", t.flag, err)
		}
		if err := progrun.CheckPlaceholders(templatePlaceholders, s); err != nil {
			return usageErrorf("%s: %v", t.flag, err)
		}
		if t.given {
			*t.out = &s
		}
	}
	if given["input-name"] {
		if v.cmd.Input == nil {
			return usageErrorf("--input-name %q names the file written from --input TEMPLATE, and there is no --input", *inputName)
		}
		if err := progrun.CheckInputName(*inputName); err != nil {
			return usageErrorf("--input-name %v", err)
		}
		v.cmd.InputName = *inputName
	}
	usesInput := progrun.Uses(progrun.InputPlaceholder, prog...)
	switch {
	case v.cmd.Input != nil && !usesInput && v.cmd.InputName == "":
		return usageErrorf("--input %q is written to a file the command names as {input}, and the command has no {input}; for a program that opens a name of its own, give it as --input-name (such as input.txt)", *inputT)
	case v.cmd.Input == nil && usesInput:
		return usageErrorf("the command names {input}, the file written from --input TEMPLATE, and there is no --input")
	case len(workers) > 1 && !v.cmd.Uses("{workers}"):
		return usageErrorf("--workers %s runs every case at each count, and the command holds no {workers} to give it: put {workers} where your program takes its threads or ranks (env OMP_NUM_THREADS={workers} ./prog, mpirun -np {workers} ./prog)", *workersList)
	}
	textAnywhere := v.cmd.Uses(progrun.TextPlaceholders...)
	if progrun.UsesText(prog...) && *maxLen > progrun.MaxArg {
		return usageErrorf("--max-len %d with {a:text} or {b:text} in an argument: an argument holds at most %d bytes; want --max-len up to that, or give the strings on --stdin or in an --input file", *maxLen, progrun.MaxArg)
	}
	v.workers = workers
	v.multi = len(workers) > 1
	if *distRE != "" {
		re, err := progrun.CompileRegexp("--distance-regexp", *distRE)
		if err != nil {
			return usageErrorf("%v", err)
		}
		v.cmd.Distance = re
	}
	if _, err := exec.LookPath(prog[0]); err != nil && !strings.Contains(prog[0], "{") {
		return fmt.Errorf("cannot run %s: %w", prog[0], err)
	}
	if !given["seed"] {
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
	fmt.Fprintf(stderr, "levlab verify: preparing %d cases and their exact distances (strings up to --max-len %d %s)…\n", *n, *maxLen, unit(*runes))
	opts := levtest.CaseOptions{N: *n, MaxLen: *maxLen, Runes: *runes, Text: *text, NoNUL: textAnywhere, EqualLengths: *equal}
	cases, err := levtest.CasesContext(ctx, rand.New(rand.NewPCG(*seed, 0x1e71ab)), opts)
	if err != nil {
		return fmt.Errorf("%w while preparing the cases", errInterrupted)
	}
	// Smallest first, each case at every count of workers.
	if missing := missingFamilies(cases); missing != "" {
		fmt.Fprintf(stderr, "levlab verify: %d cases hold %s: more --cases (1000 by default) reach them\n", len(cases), missing)
	}
	order := make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(cases[x].Size(), cases[y].Size()) })
	runs := make([]verifyRun, 0, len(cases)*len(workers))
	for _, i := range order {
		traits := traitsOf(&cases[i])
		for _, w := range workers {
			long := max(v.length(cases[i].A, cases[i].Runes), v.length(cases[i].B, cases[i].Runes))
			runs = append(runs, verifyRun{c: &cases[i], workers: w, traits: traits, long: long})
		}
	}

	s := &verifySession{v: v, runs: runs, jobs: jobs, stderr: stderr, start: time.Now()}
	s.autoJobs = jobs == 0
	if s.autoJobs && v.cmd.Uses("{workers}") {
		s.jobs, s.why = 1, "the command takes {workers}: a parallel program has the cores to itself"
	}
	if err := s.run(ctx); err != nil {
		return err
	}

	cmdline := shellQuote(prog)
	ran, failed := s.count()
	if v.multi {
		fmt.Fprintf(stdout, "%d of %d runs (%d cases at --workers %s) through %s: %d agree, %d fail (--seed %d)\n",
			ran, len(runs), len(cases), joinInts(workers), cmdline, ran-failed, failed, *seed)
	} else {
		fmt.Fprintf(stdout, "%d of %d cases through %s: %d agree, %d fail (--seed %d)\n", ran, len(cases), cmdline, ran-failed, failed, *seed)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w after %d cases", errInterrupted, ran)
	}
	if failed == 0 {
		s.reportRetries(stdout)
		return nil
	}
	s.report(stdout)
	return exitStatus(exitFailure)
}

// parseWorkersList reads --workers: counts of at least 1, comma-separated,
// each once.
func parseWorkersList(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || w < 1 || w > 1<<20 {
			return nil, usageErrorf("--workers %s: want counts from 1 to %d, comma-separated (e.g. 1,2,4)", s, 1<<20)
		}
		if slices.Contains(out, w) {
			return nil, usageErrorf("--workers %s names %d twice", s, w)
		}
		out = append(out, w)
	}
	return out, nil
}

// parseJobs reads --jobs: auto (0), or a count of at least 1.
func parseJobs(s string) (int, error) {
	if s == "auto" {
		return 0, nil
	}
	j, err := strconv.Atoi(s)
	if err != nil || j < 1 || j > 1024 {
		return 0, usageErrorf("--jobs %s: want auto or 1 to 1024", s)
	}
	return j, nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
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
	cmd     progrun.Command // its Stdin and Input set where --stdin and --input are given
	workers []int
	multi   bool // more than one count of --workers
	dir     string
}

func (v *verifier) length(s []byte, runes bool) int {
	if runes {
		return utf8.RuneCount(s)
	}
	return len(s)
}

// verifyRun is one case at one count of workers, and what came of it.
type verifyRun struct {
	c       *levtest.Case
	workers int

	done     bool
	why      string // "": it agreed
	timedOut bool
	retried  bool   // run again, alone, after a time-out
	hung     bool   // not run again: verifyRetryHangs retries had run past the time-out again
	skipped  string // why it did not run: its family had failed enough
	leftOut  int    // 1 + the trait (verifyTraits) for which it did not run; 0: none
	printed  *int   // the distance it printed, right or wrong; nil: none
	counted  bool   // its failure counts toward its family's stop
	traits   uint16 // its case's traits, a bit each (verifyTraits' order)
	long     int    // its case's longer string's length (bytes, or runes with --runes)
}

// hasTrait reports whether the run's case has trait t (verifyTraits'
// index), as traitsOf found once for it.
func (r *verifyRun) hasTrait(t int) bool { return r.traits&(1<<t) != 0 }

// traitKey is trait t at a count of workers, for verifySession.traitRuns.
type traitKey struct{ trait, workers int }

// traitRecord is how the runs of a trait went at a count of workers:
// how many ran (a time-out aside), how many of those failed, and how
// many of those had each trait (verifyTraits' order) as well.
type traitRecord struct {
	ran, failed int
	with        [16]int
}

// throughout reports whether every run of the trait so far failed.
func (t traitRecord) throughout() bool { return t.ran > 0 && t.failed == t.ran }

// familyAt is the run's family at its count of workers: a family that
// fails throughout at one count stops there alone.
func (r *verifyRun) familyAt() string { return r.c.Family + "\x00" + strconv.Itoa(r.workers) }

// caseOf is the case of a run, for the program.
func (v *verifier) caseOf(r *verifyRun) progrun.Case {
	c := r.c
	return progrun.Case{A: c.A, B: c.B, N: v.length(c.A, c.Runes), M: v.length(c.B, c.Runes), Workers: r.workers, Want: &c.Want}
}

// check runs the program on one case at one count of workers, its files
// written into files, and returns its result and why it failed (nil: it
// agreed).
func (v *verifier) check(ctx context.Context, files *progrun.Files, r *verifyRun, cores []int) (progrun.Result, error) {
	return v.cmd.RunOn(ctx, files, v.caseOf(r), cores)
}

// why is a failure as verify says it, "" for none: a time-out names
// --timeout.
func (v *verifier) why(err error) string {
	switch {
	case err == nil:
		return ""
	case progrun.KindOf(err) == progrun.Timeout:
		return fmt.Sprintf("ran past --timeout %v and was killed", v.cmd.Timeout)
	}
	return err.Error()
}

// verifyPaceAfter is how long a verify runs before its progress says
// how long the rest will take: a program that takes half a second to
// start (a JVM, python3 on a small machine) takes minutes for 1,000
// cases.
var verifyPaceAfter = 10 * time.Second

// verifyLogEvery is how often progress is said where stderr is no
// terminal (a file, a Slurm job's output, a pipe): a line a second, as on
// a terminal, would fill a log with thousands.
var verifyLogEvery = 10 * time.Second

// verifySession runs a verify's runs: smallest first, up to jobs at
// once, a family stopped after verifyFamilyFailures failures and the
// whole after verifyMaxFailures, a time-out run again alone.
type verifySession struct {
	v        *verifier
	runs     []verifyRun
	jobs     int   // 0: auto, not yet decided
	autoJobs bool  // --jobs auto
	cores    []int // job j's program is held to cores[j]; nil: anywhere
	why      string
	stderr   io.Writer // written through say
	sayMu    sync.Mutex
	start    time.Time

	mu       sync.Mutex
	next     int
	finished int
	failures int
	pace     pace                // how each run's time grew with its cells
	flying   map[*verifyRun]bool // runs taken and not finished
	famFails map[string]int
	famAgree map[string]int
	// traitRuns is how each trait's runs went at each count: once
	// verifyTraitFailures of them failed and none agreed, the rest are
	// left out, and failures a trait failing throughout explains do not
	// stop a family (a program that takes no empty string still runs
	// the length boundaries at 63 … 1001).
	traitRuns map[traitKey]traitRecord
	read      int // runs that printed a distance, right or wrong
	agreed    int // runs that agreed
	agreeLong int // the longest string of a run that agreed (verifyRun.long)
	// refused is the longer string's length of each run that failed
	// printing no distance, a time-out aside: a failure each, so at most
	// verifyMaxFailures and a few, where the runs may be 100,000s.
	refused []int
	unread  int // runs that exited 0 and printed none
}

// unreadStop says whether the runs so far tell that levlab cannot read
// the program's distance: verifyUnread of them printed none, and none
// printed one. s.mu is held, or no run is going.
func (s *verifySession) unreadStop() bool {
	return s.read == 0 && s.unread >= verifyUnread
}

// run runs every run it can, then the timed-out ones again, alone. Its
// error is one of the files the runs read.
func (s *verifySession) run(ctx context.Context) error {
	s.famFails, s.famAgree = map[string]int{}, map[string]int{}
	s.traitRuns = map[traitKey]traitRecord{}
	s.flying = map[*verifyRun]bool{}
	stopProgress := sync.OnceFunc(s.progress())
	defer stopProgress()
	first, err := progrun.OpenFiles(filepath.Join(s.v.dir, "0"))
	if err != nil {
		return err
	}
	defer first.Close()
	if s.jobs == 0 {
		s.decideJobs(ctx, first)
	}
	jobs := []*progrun.Files{first}
	for j := 1; j < s.jobs; j++ {
		f, err := progrun.OpenFiles(filepath.Join(s.v.dir, strconv.Itoa(j)))
		if err != nil {
			return err
		}
		defer f.Close()
		jobs = append(jobs, f)
	}
	var wg sync.WaitGroup
	for j, files := range jobs {
		wg.Go(func() {
			for {
				r := s.take(j)
				if r == nil {
					return
				}
				res, err := s.v.check(ctx, files, r, s.coreOf(j))
				if ctx.Err() != nil {
					return
				}
				s.finish(r, err, res)
			}
		})
	}
	wg.Wait()
	// A run past the time-out may have been slowed by the runs beside it,
	// or by anything else the machine ran meanwhile: it fails only if it
	// runs past it again, alone. Where no distance could be read, its
	// answer could not be either. Once verifyRetryHangs have run past it
	// again, none agreeing, the program hangs there: the rest are not run
	// again, which would take a whole --timeout each.
	//
	// From here each run again says so itself, not the progress line.
	stopProgress()
	var retries []*verifyRun
	for i := range s.runs {
		if r := &s.runs[i]; r.done && r.timedOut {
			retries = append(retries, r)
		}
	}
	hungAgain, agreedAgain := 0, 0
	for i, r := range retries {
		if ctx.Err() != nil || s.unreadStop() {
			break
		}
		if hungAgain >= verifyRetryHangs && agreedAgain == 0 {
			r.hung = true
			continue
		}
		s.say("levlab verify: running again, alone, %d of the %d runs past --timeout %v: %s\n", i+1, len(retries), s.v.cmd.Timeout, s.v.describeCase(r))
		_, err := s.v.check(ctx, first, r, nil)
		if ctx.Err() != nil {
			return nil
		}
		why := s.v.why(err)
		s.mu.Lock()
		r.retried = true
		if progrun.KindOf(err) != progrun.Timeout {
			r.timedOut = false
		} else {
			hungAgain++
		}
		if why == "" {
			agreedAgain++
			s.agreed++
			s.agreeLong = max(s.agreeLong, r.long)
			s.failures--
			if r.counted {
				s.famFails[r.familyAt()]--
			}
		}
		r.why = why
		s.mu.Unlock()
	}
	return nil
}

// tellsCores is the shortest run, in seconds, whose cores busy tell
// --jobs auto that a program is parallel: in a shorter one its start and
// end weigh as much as its threads.
const tellsCores = 0.05

// decideJobs settles --jobs auto: the longest case, run alone, tells
// whether the program keeps more than one core busy.
func (s *verifySession) decideJobs(ctx context.Context, files *progrun.Files) {
	// Set under s.mu: the progress goroutine reads them meanwhile.
	set := func(jobs int, why string, cores []int) {
		s.mu.Lock()
		s.jobs, s.why, s.cores = jobs, why, cores
		s.mu.Unlock()
	}
	cores := runtime.NumCPU()
	if cores == 1 || len(s.runs) < 2 {
		set(1, "one core here", nil)
		return
	}
	r := &s.runs[len(s.runs)-1]
	// Said before it runs: a slow program's longest case can take the
	// whole --timeout before the first small one.
	s.say("levlab verify: the longest case first, alone (%d and %d %s), for how many cores the program keeps busy…\n",
		s.v.length(r.c.A, r.c.Runes), s.v.length(r.c.B, r.c.Runes), unit(r.c.Runes))
	res, err := s.v.check(ctx, files, r, nil)
	if ctx.Err() != nil {
		set(1, "", nil)
		return
	}
	s.finish(r, err, res)
	busy := 0.0
	if res.Wall > 0 {
		busy = res.CPU / res.Wall
	}
	why := fmt.Sprintf("the longest case kept %.1f cores busy", busy)
	switch {
	case busy > 1.25 && res.Wall >= tellsCores:
		set(1, why, nil)
		return
	case busy > 1.25:
		// Its threads work a few milliseconds of a life that is mostly
		// starting and ending: sharing the cores costs it little.
		why = fmt.Sprintf("the longest case ran %s, too short for its %.1f cores busy to matter", time.Duration(res.Wall*float64(time.Second)).Round(time.Millisecond), busy)
	}
	// A sequential program's cases, one a core, each held to its own: a
	// process whose threads move between cores costs the kernel more to
	// start and end than its own start costs (three quarters more for a
	// Go program in a 2-vCPU VM), and the retry of a time-out runs free.
	var held []int
	if c := progrun.Cores(); len(c) >= cores {
		held = c[:cores]
	}
	set(cores, why, held)
}

// coreOf returns the cores job j's program is held to: its own core
// while the cases of a sequential program run one a core, else none.
func (s *verifySession) coreOf(j int) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs < 2 || j >= len(s.cores) {
		return nil
	}
	return s.cores[j : j+1]
}

// take returns the next run for job j, or nil when there is none, the
// session has failed enough, or auto has brought the jobs down below j+1.
func (s *verifySession) take(j int) *verifyRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.next >= len(s.runs) || s.failures >= verifyMaxFailures || s.unreadStop() || j >= s.jobs {
			return nil
		}
		r := &s.runs[s.next]
		s.next++
		if r.done {
			continue
		}
		if stopped, leftOut := s.passOver(r); stopped || leftOut > 0 {
			if stopped {
				r.skipped = fmt.Sprintf("%d of its cases had failed", verifyFamilyFailures)
			}
			r.leftOut = leftOut
			continue
		}
		s.flying[r] = true
		return r
	}
}

// passOver says why take passes r over, if it does: its family at its
// count of workers had failed enough (stopped), or a trait it has failed
// throughout (leftOut, as verifyRun.leftOut). s.mu is held.
func (s *verifySession) passOver(r *verifyRun) (stopped bool, leftOut int) {
	if s.famFails[r.familyAt()] >= verifyFamilyFailures {
		return true, 0
	}
	if t := s.failingTrait(r, verifyTraitFailures); t >= 0 {
		return false, t + 1
	}
	if s.pastLength(r, verifyTraitFailures) {
		return false, lengthLeftOut
	}
	return false, 0
}

// finish records a run's outcome: its result, and why it failed (nil: it
// agreed).
func (s *verifySession) finish(r *verifyRun, err error, res progrun.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kind := progrun.KindOf(err)
	r.done, r.why = true, s.v.why(err)
	r.timedOut = kind == progrun.Timeout
	r.printed = nil
	if kind == 0 || kind == progrun.WrongDistance {
		r.printed = &res.Distance
	}
	switch kind {
	case 0, progrun.WrongDistance, progrun.BadDistance:
		s.read++
	case progrun.NoDistance:
		s.unread++
	}
	s.finished++
	delete(s.flying, r)
	if !r.timedOut && res.Wall > 0 {
		s.pace.add(float64(r.cells()), res.Wall)
	}
	if r.refusedPast(-1) {
		s.refused = append(s.refused, r.long)
	}
	if !r.timedOut {
		for t := range verifyTraits {
			if !r.hasTrait(t) {
				continue
			}
			rec := s.traitRuns[traitKey{t, r.workers}]
			rec.ran++
			if r.why != "" {
				rec.failed++
				for u := range verifyTraits {
					if r.hasTrait(u) {
						rec.with[u]++
					}
				}
			}
			s.traitRuns[traitKey{t, r.workers}] = rec
		}
	}
	if r.why == "" {
		s.famAgree[r.familyAt()]++
		s.agreed++
		s.agreeLong = max(s.agreeLong, r.long)
	} else {
		s.failures++
		// A failure that a trait failing throughout explains is that
		// trait's, left out once it has failed enough: it stops no family
		// where others of the family agree.
		if r.counted = s.failingTrait(r, 1) < 0 && !s.pastLength(r, 1) || s.famAgree[r.familyAt()] == 0; r.counted {
			s.famFails[r.familyAt()]++
		}
	}
	// A program that keeps several cores busy wants them to itself.
	if s.autoJobs && s.jobs > 1 && res.Wall >= tellsCores && res.CPU > 1.5*res.Wall {
		s.jobs, s.why = 1, fmt.Sprintf("a run of %s kept %.1f cores busy", r.c.Name, res.CPU/res.Wall)
	}
}

// failingTrait returns the first trait of r's case whose runs at r's
// count of workers failed throughout, at least min of them, and not
// only where another trait that failed throughout was there too (the
// first strings of unequal lengths are those beside an empty one); -1
// where there is none. s.mu is held.
func (s *verifySession) failingTrait(r *verifyRun, min int) int {
	for t := range verifyTraits {
		if !r.hasTrait(t) {
			continue
		}
		rec := s.traitRuns[traitKey{t, r.workers}]
		if rec.failed < min || !rec.throughout() {
			continue
		}
		shadowed := false
		for u := range verifyTraits {
			if u != t && rec.with[u] == rec.failed && s.traitRuns[traitKey{u, r.workers}].throughout() {
				shadowed = true
				break
			}
		}
		if !shadowed {
			return t
		}
	}
	return -1
}

// lengthLeftOut is verifyRun.leftOut for a run left out by pastLength.
var lengthLeftOut = len(verifyTraits) + 1

// pastLength reports whether r's longer string is longer than that of
// every run that agreed, where at least min runs past that length failed
// printing no distance (they exited non-zero, crashed or printed none; a
// time-out aside) and verifyTraitFailures runs agreed: a program that
// takes strings up to a length of its own (a fixed buffer, a check of its
// own) refuses them past it, and those failures tell nothing more. A
// wrong distance past it is a bug's, never left out. The runs come by the
// sum of their lengths, so that by the time min such have failed, the
// lengths below theirs have run. s.mu is held.
func (s *verifySession) pastLength(r *verifyRun, min int) bool {
	if s.agreed < verifyTraitFailures || r.long <= s.agreeLong {
		return false
	}
	return s.failedPast(s.agreeLong) >= min
}

// failedPast counts the runs that failed printing no distance, a
// time-out aside, whose longer string is longer than n.
func (s *verifySession) failedPast(n int) int {
	k := 0
	for _, long := range s.refused {
		if long > n {
			k++
		}
	}
	return k
}

// refusedPast reports whether r failed printing no distance, a time-out
// aside, with a string longer than n.
func (r *verifyRun) refusedPast(n int) bool {
	return r.done && r.why != "" && r.printed == nil && !r.timedOut && r.long > n
}

// say writes a line of progress to stderr, one writer at a time: the
// progress goroutine and the session's own steps both say theirs.
func (s *verifySession) say(format string, args ...any) {
	s.sayMu.Lock()
	defer s.sayMu.Unlock()
	fmt.Fprintf(s.stderr, format, args...)
}

// progress prints how far the runs are, every second on a terminal and
// every verifyLogEvery elsewhere; the returned function stops it.
func (s *verifySession) progress() func() {
	every := verifyLogEvery
	if f, ok := s.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		every = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		last := -1
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			s.mu.Lock()
			n, f, jobs := s.finished, s.failures, s.jobs
			s.mu.Unlock()
			if n == last {
				continue
			}
			last = n
			what := "cases"
			if s.v.multi {
				what = "runs"
			}
			at := ""
			if jobs > 1 {
				at = fmt.Sprintf(", %d at a time", jobs)
			}
			took := time.Since(s.start)
			if took >= verifyPaceAfter && n > 0 && n < len(s.runs) {
				at += s.toGo(took, n, jobs)
			}
			s.say("levlab verify: %d of %d %s, %d failed, %s%s\n", n, len(s.runs), what, f, took.Round(time.Second), at)
		}
	})
	return func() { close(done); wg.Wait() }
}

// toGo says how long the runs not yet finished will take, after n
// finished in took with jobs at a time, where the runs so far tell a
// start and a cost a cell apart and reach within paceReach of the
// largest run left: each run left at its fitted time, as verify's rules
// would run them as things stand. A run take would pass over (its family
// stopped, a trait or length left out) takes none; one fitted past
// --timeout takes the time-out and fails, so that its family stops after
// verifyFamilyFailures of those, and verify after verifyMaxFailures; and
// the time-outs are run again, alone, up to verifyRetryHangs of them.
// Else it says the pace of the runs so far, which the longer runs left
// can only exceed ("or more").
func (s *verifySession) toGo(took time.Duration, n, jobs int) string {
	s.mu.Lock()
	start, perCell, ok := s.pace.fit()
	limit := s.v.cmd.Timeout.Seconds()
	at := func(r *verifyRun) float64 {
		t := start + perCell*float64(r.cells())
		if limit > 0 {
			t = min(t, limit)
		}
		return t
	}
	var largest int64
	for i := s.next; i < len(s.runs); i++ {
		largest = max(largest, s.runs[i].cells())
	}
	ok = ok && s.pace.maxX*paceReach >= float64(largest)
	left, alone := 0.0, 0.0
	if ok && !s.unreadStop() {
		fails := map[string]int{} // time-outs foreseen, by family at a count of workers
		foreseen := 0
		// Those in flight are counted whole: a tick sees no run's start.
		// One fitted past --timeout will be run again, alone, as well.
		for r := range s.flying {
			t := at(r)
			left += t
			if limit > 0 && t >= limit && !r.timedOut {
				fails[r.familyAt()]++
				foreseen++
			}
		}
		timeOuts := 0
		for i := range s.runs {
			if r := &s.runs[i]; r.timedOut && !r.retried {
				timeOuts++
			}
		}
		for i := s.next; i < len(s.runs) && s.failures+foreseen < verifyMaxFailures; i++ {
			r := &s.runs[i]
			key := r.familyAt()
			if stopped, leftOut := s.passOver(r); r.done || stopped || leftOut > 0 || s.famFails[key]+fails[key] >= verifyFamilyFailures {
				continue
			}
			t := at(r)
			if limit > 0 && t >= limit {
				fails[key]++
				foreseen++
			}
			left += t
		}
		alone = float64(min(timeOuts+foreseen, verifyRetryHangs)) * limit
	}
	s.mu.Unlock()
	if ok {
		left = left/float64(max(jobs, 1)) + alone
		return fmt.Sprintf(", about %s to go", time.Duration(left*float64(time.Second)).Round(time.Second))
	}
	pace := took * time.Duration(len(s.runs)-n) / time.Duration(n)
	return fmt.Sprintf(", %s or more to go at this pace", pace.Round(time.Second))
}

// paceReach is how far past the largest finished run, in cells, toGo
// carries its fit: a slope taken from runs of a hundred cells alone, all
// start-up and its jitter, would put a run of millions past the time-out.
const paceReach = 1000

// pace fits the seconds runs took to their cells, seconds = start +
// perCell·cells, by least squares.
type pace struct{ n, x, y, xx, xy, maxX float64 }

func (p *pace) add(cells, seconds float64) {
	p.n++
	p.maxX = max(p.maxX, cells)
	p.x += cells
	p.y += seconds
	p.xx += cells * cells
	p.xy += cells * seconds
}

// fit returns the start and the cost a cell, both at least 0; ok is
// false until at least paceRuns runs finished, of more than one size.
func (p *pace) fit() (start, perCell float64, ok bool) {
	if p.n < paceRuns {
		return 0, 0, false
	}
	mx, my := p.x/p.n, p.y/p.n
	vx := p.xx/p.n - mx*mx
	if vx <= 0 || vx < 1e-9*mx*mx {
		return 0, 0, false
	}
	perCell = (p.xy/p.n - mx*my) / vx
	start = my - perCell*mx
	switch {
	case perCell < 0:
		return my, 0, true
	case start < 0:
		return 0, p.xy / p.xx, true
	}
	return start, perCell, true
}

// paceRuns is how many runs toGo fits its estimate to, at the least.
const paceRuns = 8

// cells is the run's case's matrix, its two lengths multiplied.
func (r *verifyRun) cells() int64 { return int64(len(r.c.A)) * int64(len(r.c.B)) }

// countRuns is how many runs keep says yes to.
func (s *verifySession) countRuns(keep func(*verifyRun) bool) int {
	n := 0
	for i := range s.runs {
		if keep(&s.runs[i]) {
			n++
		}
	}
	return n
}

// ranCount is how many runs ran.
func (s *verifySession) ranCount() int {
	ran, _ := s.count()
	return ran
}

// count returns how many runs ran and how many failed.
func (s *verifySession) count() (ran, failed int) {
	for _, r := range s.runs {
		if r.done {
			ran++
			if r.why != "" {
				failed++
			}
		}
	}
	return ran, failed
}

// report prints the failures: by worker count, by family with the
// smallest of each, what they share, the smallest of all, and keeps the
// smallest one's inputs.
func (s *verifySession) report(w io.Writer) {
	var fails []*verifyRun
	for i := range s.runs {
		if r := &s.runs[i]; r.done && r.why != "" {
			fails = append(fails, r)
		}
	}
	s.reportRuns(w, len(fails))
	s.reportFamilies(w)
	explained := s.reportTraits(w, fails)
	s.reportSmallest(w, fails, explained)
}

// reportRuns says how the runs went as a whole: a stop after too many
// failures (failed of them), cases run at once, runs past the time-out
// run again, and with several --workers the failures at each.
func (s *verifySession) reportRuns(w io.Writer, failed int) {
	v := s.v
	if failed >= verifyMaxFailures {
		fmt.Fprintf(w, "stopped after %d failures\n", failed)
	}
	if s.unreadStop() {
		fmt.Fprintf(w, "stopped after %d runs printed no distance and none printed one: print it on stdout "+
			"(a line such as \"distance: 3\", or the number alone on the last line), or give --distance-regexp\n", s.unread)
	}
	s.reportConstant(w)
	left := make([]int, lengthLeftOut)
	for _, r := range s.runs {
		if r.leftOut > 0 {
			left[r.leftOut-1]++
		}
	}
	for t, left := range left {
		switch {
		case left == 0:
		case t+1 == lengthLeftOut:
			fmt.Fprintf(w, "left out: %s with a string longer than %d %s, the longest of any run that agreed, once %d such had failed printing no distance\n",
				plural(left, "run", "runs"), s.agreeLong, unit(s.runs[0].c.Runes), verifyTraitFailures)
		default:
			at := ""
			if v.multi {
				at = " at a count of workers"
			}
			fmt.Fprintf(w, "left out: %s that %s, once %d such%s had failed and none agreed\n",
				plural(left, "run", "runs"), verifyTraits[t].what, verifyTraitFailures, at)
		}
	}
	if s.jobs > 1 {
		fmt.Fprintf(w, "%d cases ran at a time (--jobs auto: %s; --jobs 1 runs one at a time)\n", s.jobs, s.why)
	}
	s.reportRetries(w)
	if v.multi {
		fmt.Fprintln(w, "by --workers:")
		for _, n := range v.workers {
			ran, failed := 0, 0
			for _, r := range s.runs {
				if r.workers == n && r.done {
					ran++
					if r.why != "" {
						failed++
					}
				}
			}
			fmt.Fprintf(w, "  %d: %d of %d fail\n", n, failed, ran)
		}
	}
}

// reportConstant says where every run that printed a distance printed
// the same one, whatever the strings: a program that reads none of the
// strings levlab gives it. Most often it was given {a} and {b}, the
// names of files, and took its arguments for the strings; then the
// number is the distance between the two names, and it says so.
func (s *verifySession) reportConstant(w io.Writer) {
	var printed *int
	runs := 0
	wants := map[int]bool{}
	for _, r := range s.runs {
		if !r.done || r.printed == nil {
			continue
		}
		if printed != nil && *r.printed != *printed {
			return
		}
		printed = r.printed
		runs++
		wants[r.c.Want] = true
	}
	if runs < verifyConstantRuns || len(wants) < 3 {
		return
	}
	lo, hi := math.MaxInt, 0
	for want := range wants {
		lo, hi = min(lo, want), max(hi, want)
	}
	d := *printed
	fmt.Fprintf(w, "every run that printed a distance printed %d, whatever the strings (%d runs, which want %d to %d): ", d, runs, lo, hi)
	if took := s.v.cmd.TookFileNames(d, s.v.dir, progrun.Case{}); took != "" {
		fmt.Fprintln(w, took)
		return
	}
	fmt.Fprintln(w, "it reads none of the strings levlab gives it; {a} and {b} name files that hold them, "+
		"{a:text} and {b:text} are the strings themselves, --stdin and --input write them where it reads them (verify -h)")
}

// reportRetries says how many runs past the time-out were run again,
// alone, and how many agreed then, and how many were not run again.
func (s *verifySession) reportRetries(w io.Writer) {
	v := s.v
	retried, agreed := 0, 0
	for _, r := range s.runs {
		if r.retried {
			retried++
			if r.why == "" {
				agreed++
			}
		}
	}
	if retried > 0 {
		were := "were"
		if retried == 1 {
			were = "was"
		}
		fmt.Fprintf(w, "%s past --timeout %v %s run again, alone: %d agreed then\n", plural(retried, "run", "runs"), v.cmd.Timeout, were, agreed)
	}
	if hung := s.countRuns(func(r *verifyRun) bool { return r.hung }); hung > 0 {
		were := "were"
		if hung == 1 {
			were = "was"
		}
		fmt.Fprintf(w, "the other %s past it %s not run again: %d had run past it again, alone, none agreeing, "+
			"so the program, not the machine, is slow there\n", plural(hung, "run", "runs"), were, verifyRetryHangs)
	}
}

// reportFamilies counts the failures by family of case, in the order the
// families come, with the smallest failure of each.
func (s *verifySession) reportFamilies(w io.Writer) {
	v := s.v
	fmt.Fprintln(w, "failures by family of case, with the smallest of each:")
	var order []string
	seen := map[string]bool{}
	for _, r := range s.runs {
		if !seen[r.c.Family] {
			seen[r.c.Family] = true
			order = append(order, r.c.Family)
		}
	}
	slices.SortStableFunc(order, func(x, y string) int { return cmp.Compare(levtest.FamilyRank(x), levtest.FamilyRank(y)) })
	for _, f := range order {
		total, ran, failed, skipped, left := 0, 0, 0, 0, 0
		var first *verifyRun
		for i := range s.runs {
			r := &s.runs[i]
			if r.c.Family != f {
				continue
			}
			total++
			if r.skipped != "" {
				skipped++
			}
			if r.leftOut > 0 {
				left++
			}
			if r.done {
				ran++
				if r.why != "" {
					failed++
					if first == nil {
						first = r
					}
				}
			}
		}
		line := fmt.Sprintf("  %s: %d of %d fail", f, failed, ran)
		if failed == 0 {
			line = fmt.Sprintf("  %s: %d agree", f, ran)
		}
		if left > 0 {
			line += fmt.Sprintf(", %d left out (above)", left)
		}
		if skipped > 0 {
			line += fmt.Sprintf(", %d not run (a family stops after %d failures)", skipped, verifyFamilyFailures)
		} else if ran+left < total {
			line += fmt.Sprintf(", %d not run", total-ran-left)
		}
		fmt.Fprintln(w, line)
		if first != nil {
			fmt.Fprintf(w, "      %s\n", v.describe(first))
		}
	}
}

// reportTraits says what the failures share: the trait that explains
// the most of them (of those that fail at least half the runs that have
// it, the one that fails the most of them), then among the failures left
// the next. Beside verifyTraits, a length past the longest string of any
// run that agreed is one. It returns the failures a trait said explains.
func (s *verifySession) reportTraits(w io.Writer, fails []*verifyRun) map[*verifyRun]bool {
	type candidate struct {
		verifyTrait
		runHas func(r *verifyRun) bool
	}
	var cands []candidate
	for i := range verifyTraits {
		cands = append(cands, candidate{verifyTraits[i], func(r *verifyRun) bool { return r.hasTrait(i) }})
	}
	if s.agreed >= verifyTraitFailures {
		cands = append(cands, candidate{s.lengthTrait(), func(r *verifyRun) bool { return r.refusedPast(s.agreeLong) }})
	}
	explained := map[*verifyRun]bool{}
	said := map[string]bool{}
	all := s.ranCount()
	for {
		var (
			best                       *candidate
			bestK, bestHas, bestFailed int
			bestRate                   float64
		)
		left := len(fails) - len(explained)
		for i := range cands {
			t := &cands[i]
			if said[t.name] {
				continue
			}
			has, failedHas, k := 0, 0, 0
			for j := range s.runs {
				r := &s.runs[j]
				if r.done && t.runHas(r) {
					has++
					if r.why != "" {
						failedHas++
						if !explained[r] {
							k++
						}
					}
				}
			}
			rate := float64(failedHas) / float64(max(has, 1))
			// Worth saying where most failures left share the trait, or
			// at least verifyTraitFailures do (a program may fail for two
			// or three reasons at once: an empty string, bytes that are
			// not UTF-8, a time-out on the long cases), and chance would
			// seldom give them it, were failures drawn from the runs at
			// random: a trait most cases have (unequal lengths) takes many
			// failures, and one all have none.
			p := float64(has) / float64(max(all, 1))
			if k == 0 || 2*k < left && k < verifyTraitFailures || rate < 0.5 || binomialTail(left, k, p) > 0.01 {
				continue
			}
			if k > bestK || k == bestK && rate > bestRate {
				best, bestK, bestHas, bestFailed, bestRate = t, k, has, failedHas, rate
			}
		}
		if best == nil {
			break
		}
		said[best.name] = true
		// All the failures that have it, those an earlier trait
		// explained too.
		what := fmt.Sprintf("all %d failures", bestFailed)
		switch {
		case len(fails) == 1:
			what = "the one failure"
		case bestFailed < len(fails):
			what = fmt.Sprintf("%d of the %d failures", bestFailed, len(fails))
		}
		fmt.Fprintf(w, "%s %s (as do %d of the %d runs): %s\n", what, best.what, bestHas, all, best.hint)
		for _, r := range fails {
			if best.runHas(r) {
				explained[r] = true
			}
		}
	}
	return explained
}

// lengthTrait is the trait of the runs whose longer string is longer
// than that of every run that agreed: past a length of the program's own.
func (s *verifySession) lengthTrait() verifyTrait {
	u := unit(len(s.runs) > 0 && s.runs[0].c.Runes)
	return verifyTrait{
		name: "length",
		what: fmt.Sprintf("printed no distance for a string longer than %d %s, the longest of any run that agreed", s.agreeLong, u),
		hint: fmt.Sprintf("a program that takes strings up to a length of its own (a fixed buffer, a check, a matrix on the stack: "+
			"8 MiB, the usual limit, holds about 1,400 × 1,400 ints) fails past it, "+
			"and --max-len %d keeps every case to it; in one meant to take longer strings, a bug starts there", s.agreeLong),
	}
}

// reportSmallest lists the smallest failures, those no trait explains
// first (a real bug hides among a program's honest limits), and keeps the
// smallest one's inputs.
func (s *verifySession) reportSmallest(w io.Writer, fails []*verifyRun, explained map[*verifyRun]bool) {
	v := s.v
	listed := slices.Clone(fails)
	slices.SortStableFunc(listed, func(x, y *verifyRun) int {
		return cmp.Compare(b2i(explained[x]), b2i(explained[y]))
	})
	listed = listed[:min(len(listed), verifyListed)]
	head := "the smallest failures"
	if len(explained) > 0 && len(explained) < len(fails) {
		head += ", those no trait above explains first"
	}
	// One reason for them all (a program that prints no distance, or
	// crashes on everything) is said once, not on every line.
	same := len(listed) > 1
	for _, r := range listed {
		same = same && r.why == listed[0].why
	}
	describe := v.describe
	if same {
		head += ", each " + listed[0].why
		describe = v.describeCase
	}
	fmt.Fprintf(w, "%s:\n", head)
	for i, r := range listed {
		fmt.Fprintf(w, "  %d. %s\n", i+1, describe(r))
	}
	if keep, err := v.keepInputs(listed[0]); err == nil {
		fmt.Fprintf(w, "the smallest failure's inputs: %s (want %d)\n", keep, listed[0].c.Want)
	}
}

// binomialTail is the chance of k or more successes in n draws of
// chance p each.
func binomialTail(n, k int, p float64) float64 {
	if p >= 1 {
		return 1
	}
	if p <= 0 {
		return b2f(k == 0)
	}
	sum := 0.0
	for i := k; i <= n; i++ {
		lg, _ := math.Lgamma(float64(n + 1))
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lg - li - lr + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return sum
}

func b2f(b bool) float64 { return float64(b2i(b)) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// missingFamilies says which of the long cases and the random pairs
// cases lacks ("no long case and no random pair"), "" where it has both:
// a small --cases is all known answers and length boundaries.
func missingFamilies(cases []levtest.Case) string {
	long := slices.ContainsFunc(cases, func(c levtest.Case) bool { return c.Family == levtest.FamilyLong })
	random := slices.ContainsFunc(cases, func(c levtest.Case) bool { return strings.HasPrefix(c.Family, levtest.FamilyRandom) })
	switch {
	case !long && !random:
		return "no long case and no random pair"
	case !long:
		return "no long case"
	case !random:
		return "no random pair"
	}
	return ""
}

// describe is a failed run in one line: the case, its lengths, the
// workers where there are several counts, and why.
func (v *verifier) describe(r *verifyRun) string {
	return v.describeCase(r) + ": " + r.why
}

// describeCase names a run's case, its lengths and its count of workers.
func (v *verifier) describeCase(r *verifyRun) string {
	at := ""
	if v.multi {
		at = fmt.Sprintf(" at --workers %d", r.workers)
	}
	return fmt.Sprintf("%s (%d and %d %s)%s", r.c.Name, v.length(r.c.A, r.c.Runes), v.length(r.c.B, r.c.Runes), unit(r.c.Runes), at)
}

// A verifyTrait is what failures may share that a program's honest limit
// explains, and the flag that leaves such cases out.
type verifyTrait struct {
	name string
	what string
	has  func(c *levtest.Case) bool
	hint string
}

// verifyTraits are at most 16: a run holds its case's as bits of a uint16.
var verifyTraits = []verifyTrait{
	{
		name: "line end",
		what: "have a string that ends in a line end (\\n or \\r)",
		has: func(c *levtest.Case) bool {
			return bytes.HasSuffix(c.A, []byte("\n")) || bytes.HasSuffix(c.B, []byte("\n")) || bytes.HasSuffix(c.A, []byte("\r")) || bytes.HasSuffix(c.B, []byte("\r"))
		},
		hint: "a program that strips a trailing line end changes the string; if yours is meant to, --text leaves out every case with a line end",
	},
	{
		name: "line",
		what: "hold a line end (\\n or \\r)",
		has: func(c *levtest.Case) bool {
			return bytes.ContainsAny(c.A, "\n\r") || bytes.ContainsAny(c.B, "\n\r")
		},
		hint: "a program that reads its strings as lines (fgets, getline) ends them there; if yours need not take them, --text keeps to printable symbols",
	},
	{
		name: "NUL",
		what: "hold a NUL byte",
		has:  func(c *levtest.Case) bool { return bytes.IndexByte(c.A, 0) >= 0 || bytes.IndexByte(c.B, 0) >= 0 },
		hint: "a program that keeps its strings as C strings (strlen, %s, fgets) stops at the first; if yours need not take them, --text keeps to printable symbols",
	},
	{
		name: "not UTF-8",
		what: "hold bytes that are not valid UTF-8",
		has: func(c *levtest.Case) bool {
			return !utf8.Valid(c.A) || !utf8.Valid(c.B)
		},
		hint: "a program that decodes its input as UTF-8 text (Python's open().read(), a Java Reader) fails on them; if yours need not take raw bytes, --text keeps to printable symbols, and --runes to UTF-8 text",
	},
	{
		name: "past U+FFFF",
		what: "hold a symbol past U+FFFF (an emoji, say)",
		has:  func(c *levtest.Case) bool { return c.Runes && (pastBMP(c.A) || pastBMP(c.B)) },
		hint: "a program that counts UTF-16 code units (a JavaScript string's length and indices, Java's String.length() and charAt) takes each such symbol as two; count code points (Array.from(s) in JavaScript, s.codePoints() in Java)",
	},
	{
		name: "white space",
		what: "hold white space (a blank, tab or line end)",
		has: func(c *levtest.Case) bool {
			return bytes.ContainsAny(c.A, " \t\n\r\v\f") || bytes.ContainsAny(c.B, " \t\n\r\v\f")
		},
		hint: "a program that reads words (scanf %s, cin >>) or lines splits there; if yours need not take them, --text keeps to printable symbols without white space",
	},
	{
		name: "empty",
		what: "have an empty string",
		has:  func(c *levtest.Case) bool { return len(c.A) == 0 || len(c.B) == 0 },
		hint: "a program that takes no empty string (no line, no argument, a matrix of no row) fails on each; that is a bug unless it is never to be given one",
	},
	{
		name: "unequal lengths",
		what: "pair strings of unequal lengths",
		has: func(c *levtest.Case) bool {
			if c.Runes {
				return utf8.RuneCount(c.A) != utf8.RuneCount(c.B)
			}
			return len(c.A) != len(c.B)
		},
		hint: "if yours takes strings of one length only, --equal-lengths keeps to them",
	},
}

// pastBMP reports whether UTF-8 text b holds a symbol past U+FFFF, one
// that UTF-16 writes as two code units.
func pastBMP(b []byte) bool {
	for _, r := range string(b) {
		if r > 0xFFFF {
			return true
		}
	}
	return false
}

// traitsOf returns c's traits, a bit each in verifyTraits' order.
func traitsOf(c *levtest.Case) uint16 {
	var bits uint16
	for t := range verifyTraits {
		if verifyTraits[t].has(c) {
			bits |= 1 << t
		}
	}
	return bits
}

// keepInputs writes what a failed run read — the strings, and its stdin
// and input file where it had them — into a new folder, and returns what
// it kept for a message.
func (v *verifier) keepInputs(r *verifyRun) (string, error) {
	dir, err := progrun.MkdirTemp("levlab-verify-failure-")
	if err != nil {
		return "", err
	}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, r.c.A, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(b, r.c.B, 0o644); err != nil {
		return "", err
	}
	kept := a + " and " + b
	_, _, stdin, input := v.cmd.Expand(v.cmd.Values(dir, v.caseOf(r)))
	if v.cmd.Stdin != nil {
		p := filepath.Join(dir, "stdin")
		if err := os.WriteFile(p, stdin, 0o644); err != nil {
			return "", err
		}
		kept += ", its stdin " + p
	}
	if v.cmd.Input != nil {
		p := filepath.Join(dir, cmp.Or(v.cmd.InputName, "input"))
		if err := os.WriteFile(p, input, 0o644); err != nil {
			return "", err
		}
		kept += ", its input file " + p
	}
	return kept, nil
}
