// Package progrun runs another program that computes an edit distance — a
// student's, a peer's, anything with a command line — and reads back what
// it printed: the distance, and where it prints one its own kernel time.
// levlab verify and the runner of a spec's commands share it, so that both
// call the same things a failure.
//
// Placeholders in braces stand for a pair's files and lengths: {a} and
// {b}, the files holding the two strings; {n} and {m}, their lengths;
// {workers} and {tile}, the point's parameters.
package progrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// MaxOutput is how much of a program's stdout is read: past it the program
// is stopped, for it may print for ever.
const MaxOutput = 1 << 20

// Placeholders are the words a command may hold in braces.
var Placeholders = []string{"{a}", "{b}", "{n}", "{m}", "{workers}", "{tile}"}

var placeholderRE = regexp.MustCompile(`\{[A-Za-z_]+\}`)

// CheckPlaceholders returns an error naming the first word in braces of
// args that is not among allowed (a typo would reach the program as it
// is), or nil.
func CheckPlaceholders(allowed []string, args ...string) error {
	for _, arg := range args {
		for _, w := range placeholderRE.FindAllString(arg, -1) {
			if !slices.Contains(allowed, w) {
				return fmt.Errorf("%s in %q is no placeholder; valid: %s", w, arg, strings.Join(allowed, " "))
			}
		}
	}
	return nil
}

// Values are what the placeholders stand for in one run.
type Values struct {
	A, B          string // the files
	N, M          int    // their lengths
	Workers, Tile int
}

// Expand returns s with every placeholder replaced by its value.
func (v Values) Expand(s string) string {
	return strings.NewReplacer("{a}", v.A, "{b}", v.B, "{n}", strconv.Itoa(v.N), "{m}", strconv.Itoa(v.M),
		"{workers}", strconv.Itoa(v.Workers), "{tile}", strconv.Itoa(v.Tile)).Replace(s)
}

// Options say how to run a program and read its answer.
type Options struct {
	// Timeout is the longest the program may run; it is killed past it.
	Timeout time.Duration
	// Env is added to the environment levlab runs in, KEY=VALUE each.
	Env []string
	// Dir is the program's working folder; "" is levlab's.
	Dir string
	// Distance, when set, finds the distance: the first group of its last
	// match on stdout. Unset, the distance is the last integer there.
	Distance *regexp.Regexp
	// Time, when set, finds the program's own time of its kernel in
	// seconds: the first group of its last match on stdout.
	Time *regexp.Regexp
}

// Result is what one run of a program gave.
type Result struct {
	// Failure says why the run gave no answer — a time-out, a non-zero
	// exit, a signal, no number, stdout past MaxOutput — or is "".
	Failure string
	// Distance is the distance it printed.
	Distance int
	// Wall is the time from starting the program to its exit; Kernel the
	// time it printed itself (Options.Time), else 0.
	Wall, Kernel float64
	// PeakRSS is the most memory the program held resident, in bytes (its
	// rusage), 0 where the system does not say.
	PeakRSS int64
}

// Run runs args[0] with args[1:] and reads its answer. Setting up and
// reading back are outside Wall, which is the child's life alone.
func Run(ctx context.Context, args []string, o Options) Result {
	if len(args) == 0 {
		return Result{Failure: "no program"}
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = o.Dir
	if len(o.Env) > 0 {
		cmd.Env = append(os.Environ(), o.Env...)
	}
	out := &cappedBuffer{max: MaxOutput, full: cancel}
	errOut := &cappedBuffer{max: 4 << 10, discard: true}
	cmd.Stdout, cmd.Stderr = out, errOut
	// A child that leaves a grandchild holding the pipes must not hold
	// levlab too.
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Start()
	if err != nil {
		return Result{Failure: "cannot start it: " + err.Error()}
	}
	err = cmd.Wait()
	r := Result{Wall: time.Since(start).Seconds()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		r.PeakRSS = int64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	var exit *exec.ExitError
	switch {
	case out.over:
		r.Failure = "printed more than 1.0 MiB on stdout, and was stopped" // MaxOutput
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.Failure = fmt.Sprintf("ran past its time-out of %v and was killed", o.Timeout)
	case errors.As(err, &exit):
		if st, ok := exit.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			r.Failure = fmt.Sprintf("killed by signal %v%s", st.Signal(), FirstLine(errOut.Bytes()))
		} else {
			r.Failure = fmt.Sprintf("exited with status %d%s", exit.ExitCode(), FirstLine(errOut.Bytes()))
		}
	case err != nil:
		r.Failure = err.Error()
	}
	if r.Failure != "" {
		return r
	}
	d, ok := number(out.Bytes(), o.Distance)
	if !ok {
		what := "the last integer"
		if o.Distance != nil {
			what = fmt.Sprintf("a match of %q", o.Distance)
		}
		r.Failure = fmt.Sprintf("exited 0 but printed no distance (%s on stdout)%s", what, FirstLine(out.Bytes()))
		return r
	}
	r.Distance = d
	if o.Time != nil {
		t, ok := seconds(out.Bytes(), o.Time)
		if !ok {
			r.Failure = fmt.Sprintf("printed no time (a match of %q on stdout whose group is a number of seconds)%s", o.Time, FirstLine(out.Bytes()))
			return r
		}
		r.Kernel = t
	}
	return r
}

var integerRE = regexp.MustCompile(`-?[0-9]+`)

// lastGroup returns the first group of re's last match in out, or with re
// nil the last integer.
func lastGroup(out []byte, re *regexp.Regexp) ([]byte, bool) {
	if re == nil {
		all := integerRE.FindAll(out, -1)
		if len(all) == 0 {
			return nil, false
		}
		return all[len(all)-1], true
	}
	all := re.FindAllSubmatch(out, -1)
	if len(all) == 0 || len(all[len(all)-1]) < 2 {
		return nil, false
	}
	return bytes.TrimSpace(all[len(all)-1][1]), true
}

// number returns the distance out holds (lastGroup) as an int.
func number(out []byte, re *regexp.Regexp) (int, bool) {
	s, ok := lastGroup(out, re)
	if !ok {
		return 0, false
	}
	d, err := strconv.Atoi(string(s))
	return d, err == nil
}

// seconds returns the time out holds as a finite, non-negative number.
func seconds(out []byte, re *regexp.Regexp) (float64, bool) {
	s, ok := lastGroup(out, re)
	if !ok {
		return 0, false
	}
	t, err := strconv.ParseFloat(string(s), 64)
	return t, err == nil && t >= 0 && t < 1e300
}

// CompileRegexp compiles what the flag or key named what holds: a regular
// expression with at least one group.
func CompileRegexp(what, expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %v", what, expr, err)
	}
	if re.NumSubexp() < 1 {
		return nil, fmt.Errorf("%s %q has no group: put the number's digits in one, e.g. %q", what, expr, `distance: (\d+)`)
	}
	return re, nil
}

// FirstLine is ": LINE", the first non-empty line of b, short, for a
// message; "" when there is none.
func FirstLine(b []byte) string {
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

// Executable returns an error saying why prog cannot be run — not found on
// PATH or at its path, a folder, not executable — or nil. A prog with a
// slash is taken from dir when relative.
func Executable(prog, dir string) error {
	path := prog
	if strings.ContainsRune(prog, '/') {
		if !strings.HasPrefix(prog, "/") && dir != "" {
			path = dir + "/" + prog
		}
		fi, err := os.Stat(path)
		switch {
		case err != nil:
			return fmt.Errorf("program %s: %w", prog, err)
		case fi.IsDir():
			return fmt.Errorf("program %s is a folder", prog)
		case fi.Mode()&0o111 == 0:
			return fmt.Errorf("program %s is not executable (chmod +x it, or build it: make examples)", prog)
		}
		return nil
	}
	if _, err := exec.LookPath(prog); err != nil {
		return fmt.Errorf("program %s: not found on PATH", prog)
	}
	return nil
}
