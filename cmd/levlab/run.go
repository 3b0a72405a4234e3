package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

func runUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab run [--scale quick|paper] [--only NAME,...] [--reps N] [--out DIR] [--fresh]
  levlab run --list [--only NAME,...]
  levlab run --spec FILE [--reps N] [--out DIR] [--fresh] [--keep-going]
  levlab run (--shard I/N | --shards N) [--scale …] [--only …] [--out DIR]

Times the reports' experiments and appends one CSV record per repetition to
DIR/<experiment>.csv, by default results/<machine>/<scale>/ under the
current directory. Progress goes to stderr (a bar on a terminal); at the
end stdout names the files and counts the records. What levlab info --json
says of the machine is kept for the report's machine table: in DIR itself
with --out (DIR/machine.json), else as results/<machine>/machine.json
where there is none yet.

A run that stops — Ctrl-C, SIGTERM (Slurm, systemd, timeout), a failure —
keeps every finished repetition on
disk; the same command run again times only what is missing (points already
done are "resumed"). --fresh moves the old files aside (<name>.csv.<time>.bak)
and starts anew. A record is appended whole or not at all. One run writes
to a folder at a time: a second run or reproduce on it exits 1 at once,
naming the first (DIR/.levlab.lock).

Over machines: --shard I/N (I from 0) times the I-th of N shares of the
points — counted in order over the experiments, every N-th from the I-th —
into files of its own, DIR/<experiment>.shard-I-of-N.csv (its lock,
DIR/.levlab.shard-I-of-N.lock, lets the shards share DIR on one machine or
a shared file system). --shards N takes I from SLURM_ARRAY_TASK_ID or
JOB_COMPLETION_INDEX. levlab report reads every shard's files of a folder
as one run; a point timed in two files is counted once, from the first
file by name, and the report names it.

--spec FILE times an experiment of your own instead: your program, a Go
function or levlab's algorithms over the grid the TOML file declares
(docs/your-own.md names every key). Every answer is checked against the
exact distance; a wrong answer, a crash, a non-zero exit or a time-out is
recorded as a failed point with the reason, never as a time; the larger
sizes of that implementation at those workers and tile are then skipped,
each saying why (--keep-going times them anyway). A copy of the spec is
kept beside the records (DIR/<name>.toml) for levlab report, and the run
ends by printing the levlab report command that writes it up.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Experiments (--only):
`)
	listExperiments(w, "  ", experiments.All())
	fmt.Fprint(w, `
Exit status:
  0  every point was timed or skipped (a point that cannot run here, e.g. no
     GPU, is recorded as skipped with the reason)
  1  the run failed or was interrupted: DIR cannot be written, an existing
     file is damaged, a measurement failed, Ctrl-C or SIGTERM (what was
     kept and how to resume go to stderr); with --spec, a point failed
     (each is named on stderr, and recorded)
  2  bad usage: an unknown flag or scale, an unknown experiment, an --only
     that names none (--only ""), --reps outside 1..1000, arguments; a spec that does
     not read (its file and line named), a program that cannot be run
`)
}

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stdout, runUsage)
	scaleName := fs.String("scale", string(experiments.Quick), "`SCALE` of the sizes: quick (minutes on 2 cores) or paper (the reports' sizes)")
	only := fs.String("only", "", "comma-separated experiment `NAMES` (listed below); unset: every experiment")
	reps := fs.Int("reps", experiments.DefaultReps, "timed repetitions per point, 1 to "+strconv.Itoa(experiments.MaxReps))
	out := fs.String("out", "", "`DIR` for the CSV files; unset: results/<machine>/<scale>, here "+defaultResultsDir("<scale>"))
	list := fs.Bool("list", false, "list the experiments (name, source, title) and exit")
	name := nameFlag(fs)
	fresh := fs.Bool("fresh", false, "move existing result files aside and start anew instead of resuming")
	specFile := fs.String("spec", "", "`FILE`: a TOML spec of an experiment of your own, timed instead of the reports'")
	shardSpec := fs.String("shard", "", "run shard `I/N` of the points (I from 0), into files of its own beside the others'")
	shards := fs.Int("shards", 0, "run one of `N` shards, the index from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")
	keepGoing := fs.Bool("keep-going", false, "with --spec: time an implementation's larger sizes after it failed at a smaller one (unset: they are skipped)")

	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErrorf("takes no arguments, got %s", quoteAll(pos))
	}
	sh, sharded, err := parseShard(*shardSpec, *shards, fs.given()["shards"])
	if err != nil {
		return err
	}
	if *specFile != "" || fs.given()["spec"] {
		if sharded {
			return usageErrorf("--shard and --spec: an experiment of one's own runs whole")
		}
		if fs.given()["only"] {
			return usageErrorf("--only and --spec: a spec is one experiment of its own; give one of them")
		}
		return runSpec(*specFile, *scaleName, *reps, fs.given()["reps"], *out, *name, *fresh, *list, *keepGoing, stdout, stderr)
	}
	if *keepGoing {
		return usageErrorf("--keep-going is for --spec: the reports' experiments time every point")
	}
	exps, err := selectExperiments(*only, fs.given()["only"])
	if err != nil {
		return err
	}
	scale, err := parseScale(*scaleName)
	if err != nil {
		return err
	}
	if err := checkReps(*reps); err != nil {
		return err
	}
	if *list {
		listExperiments(stdout, "", exps)
		return nil
	}
	dir, err := resultsDir(*out, *name, scale)
	if err != nil {
		return err
	}

	resume := []string{"levlab", "run", "--scale", string(scale), "--reps", strconv.Itoa(*reps), "--out", dir}
	if fs.given()["only"] {
		resume = append(resume, "--only", *only)
	}
	runner := experiments.Runner{Scale: scale, Reps: *reps, Dir: dir, Fresh: *fresh}
	if sharded {
		runner.Shard, runner.Shards = sh.Index, sh.Count
		resume = append(resume, "--shard", fmt.Sprintf("%d/%d", sh.Index, sh.Count))
	}
	sum, err := runExperiments(exps, runner, resume, stdout, stderr)
	if len(sum.Files) > 0 {
		keepHostInfo(dir, *out != "", stderr)
	}
	return err
}

// runSpec times the experiment of one's own that file declares.
func runSpec(file, scaleName string, reps int, repsGiven bool, out, name string, fresh, list, keepGoing bool, stdout, stderr io.Writer) error {
	if file == "" {
		return usageErrorf("--spec \"\": name the TOML file of your experiment (docs/your-own.md)")
	}
	s, err := spec.ReadFile(file)
	if err != nil {
		return usageErrorf("%v", err)
	}
	scale, err := parseScale(scaleName)
	if err != nil {
		return err
	}
	if repsGiven {
		if err := checkReps(reps); err != nil {
			return err
		}
	}
	if !repsGiven {
		reps = s.RepsOr()
	}
	own, err := experiments.FromSpec(s, nil)
	if err != nil {
		return usageErrorf("%s: %v", file, strings.TrimPrefix(err.Error(), "experiments: "))
	}
	defer own.Close()
	own.Log = stderr
	own.KeepGoing = keepGoing
	if list {
		listExperiments(stdout, "", []experiments.Experiment{own.Experiment})
		return nil
	}
	dir, err := resultsDir(out, name, scale)
	if err != nil {
		return err
	}
	resume := []string{"levlab", "run", "--spec", file, "--scale", string(scale), "--out", dir}
	if repsGiven {
		resume = append(resume, "--reps", strconv.Itoa(reps))
	}
	if keepGoing {
		resume = append(resume, "--keep-going")
	}
	for _, g := range own.Shared() {
		names, all := strings.Join(g[:len(g)-1], ", ")+" and "+g[len(g)-1], fmt.Sprintf("all %d", len(g))
		if len(g) == 2 {
			all = "both"
		}
		fmt.Fprintf(stderr, "levlab: %s run the same command and differ only in how they read its output: each run of the program serves %s\n", names, all)
	}
	runner := experiments.Runner{Scale: scale, Reps: reps, Dir: dir, Fresh: fresh}
	// A point that failed in an earlier run is not measured again; its
	// failure still skips the larger sizes after it.
	runner.Progress = func(pr experiments.Progress) {
		if pr.Failed {
			own.NoteFailed(pr.Point, strings.TrimSuffix(pr.Note, " (recorded earlier)"))
		}
	}
	sum, err := runExperiments([]experiments.Experiment{own.Experiment}, runner, resume, stdout, stderr)
	if len(sum.Files) > 0 {
		// Beside the records, for the report: the figures and names it
		// draws them by.
		if werr := own.WriteSpec(dir); werr != nil && err == nil {
			err = fmt.Errorf("keeping the spec beside the records: %w", werr)
		}
		keepHostInfo(dir, out != "", stderr)
	}
	if err != nil {
		return err
	}
	// What to type next: the report reads the folder the records went to.
	reportCmd := []string{"levlab", "report"}
	if out != "" {
		reportCmd = append(reportCmd, "--results", dir)
	}
	reportCmd = append(reportCmd, "--only", s.Name, "--out", s.Name+".html")
	fmt.Fprintf(stdout, "to write it up: %s\n", shellQuote(reportCmd))
	if len(sum.Failed) > 0 {
		fmt.Fprintf(stderr, "levlab: %s failed, recorded as failed with the reason:\n", plural(len(sum.Failed), "point", "points"))
		for _, f := range sum.Failed[:min(len(sum.Failed), 20)] {
			fmt.Fprintf(stderr, "  %s\n", f)
		}
		if len(sum.Failed) > 20 {
			fmt.Fprintf(stderr, "  … and %d more\n", len(sum.Failed)-20)
		}
		fmt.Fprintf(stderr, "levlab verify finds the smallest input that fails; once fixed, run again with --fresh.\n")
		return exitStatus(exitFailure)
	}
	return nil
}

// checkReps refuses a --reps outside 1..experiments.MaxReps.
func checkReps(reps int) error {
	if reps < 1 || reps > experiments.MaxReps {
		return usageErrorf("--reps %d: want 1 to %d", reps, experiments.MaxReps)
	}
	return nil
}

// selectExperiments returns the experiments named in a --only value, or
// every experiment when --only is not given. A --only that names none
// ("", ",") is bad usage: an empty shell variable must not start the whole
// suite.
func selectExperiments(only string, given bool) ([]experiments.Experiment, error) {
	var names []string
	for n := range strings.SplitSeq(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if given && len(names) == 0 {
		return nil, usageErrorf("--only %q names no experiment; valid: %s", only, experimentNames())
	}
	known := make(map[string]bool)
	for _, e := range experiments.All() {
		known[e.Name] = true
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		switch {
		case !known[n]:
			return nil, usageErrorf("--only: unknown experiment %q; valid: %s", n, experimentNames())
		case seen[n]:
			return nil, usageErrorf("--only names %q twice", n)
		}
		seen[n] = true
	}
	return experiments.Lookup(names)
}

func experimentNames() string {
	all := experiments.All()
	names := make([]string, len(all))
	for i, e := range all {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}

func parseScale(name string) (experiments.Scale, error) {
	scale, err := experiments.ParseScale(name)
	if err != nil {
		names := make([]string, 0, 2)
		for _, s := range experiments.Scales() {
			names = append(names, string(s))
		}
		return "", usageErrorf("--scale %q is unknown; valid: %s", name, strings.Join(names, ", "))
	}
	return scale, nil
}

// listWidth is the columns levlab run --list fits in.
const listWidth = 100

// listExperiments prints each experiment, after indent: its name, its
// source beside it, then its title on a line of its own, both wrapped to
// listWidth columns under the source on lines that begin with spaces (so
// a line that begins with a name is an experiment's first).
func listExperiments(w io.Writer, indent string, exps []experiments.Experiment) {
	nameW := 0
	for _, e := range exps {
		nameW = max(nameW, len(e.Name))
	}
	pad := indent + strings.Repeat(" ", nameW+2)
	for _, e := range exps {
		wrapWords(w, fmt.Sprintf("%s%-*s  ", indent, nameW, e.Name), pad, e.Source)
		wrapWords(w, pad, pad, e.Title)
	}
}

// wrapWords prints text's words after first, wrapped to listWidth columns
// on lines that begin with pad (a word longer than a line has one alone).
func wrapWords(w io.Writer, first, pad, text string) {
	line, empty := first, true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > listWidth {
			fmt.Fprintln(w, line)
			line, empty = pad, true
		}
		if !empty {
			line += " "
		}
		line, empty = line+word, false
	}
	fmt.Fprintln(w, line)
}

// defaultResultsDir is results/<machine>/<scale> under the current
// directory, for the usage text: the machine as LEVLAB_MACHINE or the CPU
// names it.
func defaultResultsDir(scale experiments.Scale) string {
	id, err := experiments.MachineID()
	if err != nil {
		id = experiments.CurrentMachine().Slug()
	}
	return records.RunDir("results", id, string(scale))
}

// nameFlag declares --name on fs: the name of this machine's folder under
// results/.
func nameFlag(fs *flagSet) *string {
	return fs.String("name", "", "`NAME` of this machine's folder under results/ (a-z, 0-9, '.', '-'), to tell apart two machines of one CPU model and core count, such as two VMs; unset: $"+experiments.MachineEnv+", else the CPU's, as levlab info shows it")
}

// resultsDir returns where a run at scale writes: out where given, else
// results/<machine>/<scale>, the machine named by --name (name), else as
// experiments.MachineID names it. A name out of range, or --name beside
// --out, is a usage error.
func resultsDir(out, name string, scale experiments.Scale) (string, error) {
	switch {
	case out != "" && name != "":
		return "", usageErrorf("--name %s with --out %s: --out names the folder itself; give one of them", name, out)
	case out != "":
		return out, nil
	case name != "":
		if err := experiments.CheckMachineName(name); err != nil {
			return "", usageErrorf("--name: %v", err)
		}
		return records.RunDir("results", name, string(scale)), nil
	}
	id, err := experiments.MachineID()
	if err != nil {
		return "", usageErrorf("%v", err)
	}
	return records.RunDir("results", id, string(scale)), nil
}

// runExperiments runs exps with r (its Out is set here: stderr) until
// done or Ctrl-C (or SIGTERM), then prints where the records went and how many there
// are. resume is the command that continues an interrupted run.
func runExperiments(exps []experiments.Experiment, r experiments.Runner, resume []string, stdout, stderr io.Writer) (experiments.Summary, error) {
	ctx, stop := interruptContext()
	defer stop()
	// The first Ctrl-C or SIGTERM stops the run between repetitions; a
	// second one, with the default handler back, ends the process at once
	// (whole lines only are ever written, so the files stay readable).
	go func() { <-ctx.Done(); stop() }()
	// A terminal on stderr shows a progress bar, anything else a line per
	// point; stdout keeps only the summary.
	r.Out = stderr
	sum, err := r.Run(ctx, exps)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			fmt.Fprintf(stderr, "levlab: interrupted: %d records written to %s this run, every finished repetition kept.\n", sum.Records, r.Dir)
			fmt.Fprintf(stderr, "To resume: %s\n", shellQuote(resume))
			return sum, errors.New("interrupted")
		}
		if sum.Records > 0 {
			fmt.Fprintf(stderr, "levlab: %d records were written to %s before the failure; run again to resume.\n", sum.Records, r.Dir)
		}
		return sum, err
	}
	fmt.Fprintf(stdout, "results in %s:\n", r.Dir)
	for _, f := range sum.Files {
		fmt.Fprintf(stdout, "  %s\n", f)
	}
	fmt.Fprintf(stdout, "%d records written; %d points skipped on this machine; %d points resumed from earlier runs\n",
		sum.Records, sum.Skipped, sum.Resumed)
	return sum, nil
}
