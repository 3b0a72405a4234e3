package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/levlab/levlab/experiments"
)

// writeReport renders the records in resultsDir (beside the published
// numbers) into the HTML report and returns the report's path; tests put a
// stand-in here.
var writeReport func(resultsDir string) (path string, err error) = reproduceReport

// What reproduce runs: every experiment, DefaultReps times. Tests make it
// smaller.
var (
	reproduceExperiments = experiments.All
	reproduceReps        = experiments.DefaultReps
)

func reproduceUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage:
  levlab reproduce [--out DIR]

Runs every experiment at the quick scale (`+fmt.Sprint(experiments.DefaultReps)+` repetitions per point)
into DIR, by default results/<machine>/quick/ under the current directory,
then writes the report from those results (beside the published numbers
two folders up) into DIR's parent as levlab-report.html and prints its path.
Like run, it resumes: what an earlier run recorded in DIR is not timed again.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0  the experiments ran (and the report was written, where this build can)
  1  the run or the report failed, or was interrupted (Ctrl-C); run again to
     resume
  2  bad usage: an unknown flag, arguments
`)
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reproduce", stdout, reproduceUsage)
	out := fs.String("out", "", "`DIR` for the CSV files; unset: results/<machine>/quick, here "+defaultResultsDir(experiments.Quick))
	name := nameFlag(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErrorf("takes no arguments, got %s", quoteAll(pos))
	}
	dir, err := resultsDir(*out, *name, experiments.Quick)
	if err != nil {
		return err
	}
	r := experiments.Runner{Scale: experiments.Quick, Reps: reproduceReps, Dir: dir}
	resume := []string{"levlab", "reproduce", "--out", dir}
	if _, err := runExperiments(reproduceExperiments(), r, resume, stdout, stderr); err != nil {
		return err
	}

	path, err := writeReport(dir)
	if err != nil {
		return fmt.Errorf("the report from %s: %w", dir, err)
	}
	_, err = fmt.Fprintf(stdout, "report: %s\n", path)
	return err
}
