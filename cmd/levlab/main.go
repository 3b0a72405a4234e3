// Command levlab computes exact Levenshtein distances with every algorithm
// of the lev package, times the course reports' experiments and describes
// the machine it runs on.
//
//	levlab distance [--algo NAME] [--workers N] [--tile N] [--block N] [--max-memory BYTES] [--json] A B
//	levlab distance --files [--runes] [--max-input BYTES] [flags] FILE_A FILE_B
//	levlab align [--files [--runes]] [--max K] [--workers N] [--format cigar|pretty|json] [--max-input BYTES] A B
//	levlab match [-p PATTERN]... [--patterns FILE]... [-k K] [--mode window|occurrence] [--algo NAME] [--workers N] [--gpu-ratio R] [--max-input BYTES] [--json] TEXTFILE
//	levlab verify [--cases N] [--runes] [--timeout D] [flags] -- PROG [ARGS...]
//	levlab run [--scale quick|paper] [--only NAME,...] [--reps N] [--out DIR] [--list] [--fresh]
//	levlab reproduce [--out DIR]
//	levlab report [--results DIR] [--out FILE] [--format html|md]
//	levlab info [--json]
//
// Results go to stdout, errors to stderr prefixed "levlab: ". The exit status
// is 0 on success, 1 when the work failed (a file cannot be read, no GPU,
// interrupted) and 2 for bad usage (an unknown command or flag, a wrong
// number of arguments, an option value out of range).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/levlab/levlab/lev"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// A command is one subcommand. Adding one means a file with its run
// function and a line in commands.
type command struct {
	name    string
	summary string // one line for the top-level usage
	// run executes the command on its arguments (after the command name).
	// An error wrapping errUsage or lev.ErrInvalidOption exits with status
	// 2, any other error with 1; flag.ErrHelp means the usage was printed
	// on request.
	run func(args []string, stdout, stderr io.Writer) error
}

var commands = []command{
	{"distance", "the edit distance between two strings or two files", runDistance},
	{"align", "an optimal alignment of two strings or two files: DISTANCE and CIGAR, drawn, or JSON", runAlign},
	{"matrix", "the distances of many strings: every pair, the nearest, or those within K", runMatrix},
	{"merge", "join the shards of levlab matrix --shard into what one process writes", runMerge},
	{"match", "count the approximate matches of patterns in a text file (report 003; MPI with -tags mpi)", runMatch},
	{"info", "the machine: CPU, cores, Go, levlab's commit, and the GPU or why not", runInfo},
	{"verify", "check another program (yours) against the exact distance on the conformance cases", runVerify},
	{"run", "time the reports' experiments into CSV files under results/", runRun},
	{"reproduce", "run every experiment at the quick scale, then write the report", runReproduce},
	{"report", "write the report from the CSV under results/: HTML, Markdown, LaTeX or PDF", runReport},
}

// errUsage is wrapped by every error about how levlab was called, as
// opposed to a failure of the work itself.
var errUsage = errors.New("usage")

// usageErrorf returns an error wrapping errUsage whose message is the
// formatted text alone.
func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

type usageError struct{ err error }

func (e usageError) Error() string        { return e.err.Error() }
func (e usageError) Is(target error) bool { return target == errUsage }
func (e usageError) Unwrap() error        { return e.err }

func main() {
	// A write to a pipe whose reader has gone then fails with EPIPE, which
	// run reports (exit 1), instead of killing levlab with SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is levlab with its arguments (without the program name) and output
// streams; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := runChecked(args, out, stderr)
	if out.err != nil && code == exitOK {
		// What was asked for did not reach its reader (a full disk, a
		// closed stdout): that is a failure, not a success.
		fmt.Fprintf(stderr, "levlab: writing the output: %v\n", out.err)
		return exitFailure
	}
	return code
}

// checkedWriter keeps the first error of its writes.
type checkedWriter struct {
	w   io.Writer
	err error
}

// Unwrap returns the writer c writes to.
func (c *checkedWriter) Unwrap() io.Writer { return c.w }

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

func runChecked(args []string, stdout io.Writer, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "levlab: no command given")
		printUsage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help", "help":
		if name == "help" && len(rest) > 0 {
			// "levlab help distance" is "levlab distance -h".
			return runChecked([]string{rest[0], "-h"}, stdout, stderr)
		}
		printUsage(stdout)
		return exitOK
	}
	cmd, ok := findCommand(name)
	if !ok {
		fmt.Fprintf(stderr, "levlab: unknown command %q; valid: %s\n", name, commandNames())
		fmt.Fprintln(stderr, "Run 'levlab -h' for usage.")
		return exitUsage
	}
	err := cmd.run(rest, stdout, stderr)
	var reported exitStatus
	if errors.As(err, &reported) {
		return int(reported)
	}
	return reportError(stderr, cmd.name, err)
}

// reportError prints command name's error, if any, to stderr as levlab does
// and returns the exit status it calls for.
func reportError(stderr io.Writer, name string, err error) int {
	code := exitCode(err)
	if code != exitOK {
		// The report command's package is named report too: its errors
		// already start "report: ", said once.
		msg := err.Error()
		if !strings.HasPrefix(msg, name+": ") {
			msg = name + ": " + msg
		}
		fmt.Fprintf(stderr, "levlab: %s\n", msg)
	}
	if code == exitUsage {
		fmt.Fprintf(stderr, "Run 'levlab %s -h' for usage.\n", name)
	}
	return code
}

// exitCode is the exit status a command's error calls for.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage), errors.Is(err, lev.ErrInvalidOption):
		return exitUsage
	}
	return exitFailure
}

// exitStatus is an error already reported, or reported by another
// process: levlab exits with it and prints nothing. The MPI ranks of
// levlab match other than 0 return it, so that a message shared by every
// rank is printed once.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func findCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `levlab computes exact Levenshtein distances every way the course reports did,
and faster.

Usage:
  levlab <command> [flags] [arguments]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nAlgorithms (levlab distance --algo NAME):\n")
	printAlgorithms(w)
	fmt.Fprint(w, `
Run 'levlab <command> -h' for a command's flags. Flags take one dash or two.

Exit status: 0 on success, 1 when the work failed, 2 for bad usage.
`)
}
