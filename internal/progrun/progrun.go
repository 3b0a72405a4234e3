// Package progrun runs another program that computes an edit distance — a
// student's, a peer's, anything with a command line — and reads back what
// it printed: the distance, and where it prints one its own kernel time.
// levlab verify, the runner of a spec's commands and a notebook's Command
// share it (Command: a case's files written, its placeholders filled, the
// program run and its answer read), so that all call the same things a
// failure, an *Error of a Kind.
//
// Placeholders in braces stand for a pair's files and lengths: {a} and
// {b}, the files holding the two strings; {a:text} and {b:text}, the
// strings themselves; {n} and {m}, their lengths; {workers} and {tile},
// the point's parameters; {input}, a file written from a template (the
// shape of input a program reads, such as "n m\ns\nr").
package progrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxOutput is how much of a program's stdout is read: past it the program
// is stopped, for it may print for ever.
const MaxOutput = 1 << 20

// Placeholders are the words a command may hold in braces for a pair's
// files and lengths and a point's parameters.
var Placeholders = []string{"{a}", "{b}", "{n}", "{m}", "{workers}", "{tile}"}

// NoTilePlaceholders are Placeholders but {tile}: those of a runner that
// gives a program no tile side (levlab verify, a notebook's Command).
var NoTilePlaceholders = slices.DeleteFunc(slices.Clone(Placeholders), func(p string) bool { return p == "{tile}" })

// TextPlaceholders stand for the two strings themselves, where a program
// takes them as arguments or reads them from a template (Options.Stdin,
// an input file). An argument is a C string: where they are used, no
// string may hold a NUL byte, and one in an argument no more than MaxArg
// bytes.
var TextPlaceholders = []string{"{a:text}", "{b:text}"}

// InputPlaceholder is the file written from an input template, for a
// program that reads one file of its own shape.
const InputPlaceholder = "{input}"

// MaxArg is the most bytes one argument may hold (Linux's MAX_ARG_STRLEN,
// 32 pages, less the NUL that ends it).
const MaxArg = 32*4096 - 1

var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[A-Za-z_]+(?::[A-Za-z_]+)?\}`) })

// UsesText reports whether any of args holds {a:text} or {b:text}.
func UsesText(args ...string) bool {
	for _, a := range args {
		if strings.Contains(a, TextPlaceholders[0]) || strings.Contains(a, TextPlaceholders[1]) {
			return true
		}
	}
	return false
}

// Uses reports whether any of args holds the placeholder p.
func Uses(p string, args ...string) bool {
	for _, a := range args {
		if strings.Contains(a, p) {
			return true
		}
	}
	return false
}

// CheckPlaceholders returns an error naming the first word in braces of
// args that is not among allowed (a typo would reach the program as it
// is), or nil.
func CheckPlaceholders(allowed []string, args ...string) error {
	for _, arg := range args {
		for _, w := range placeholderRE().FindAllString(arg, -1) {
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
	TextA, TextB  string // the strings themselves
	Input         string // the file written from an input template
	N, M          int    // their lengths
	Workers, Tile int
}

// Expand returns s with every placeholder replaced by its value, in one
// pass: a string that holds "{b}" is not expanded again.
func (v Values) Expand(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return strings.NewReplacer("{a}", v.A, "{b}", v.B, "{a:text}", v.TextA, "{b:text}", v.TextB, InputPlaceholder, v.Input,
		"{n}", strconv.Itoa(v.N), "{m}", strconv.Itoa(v.M),
		"{workers}", strconv.Itoa(v.Workers), "{tile}", strconv.Itoa(v.Tile)).Replace(s)
}

// Unescape returns a template given on a command line with its escapes
// \n, \t, \r and \\ replaced by what they stand for, or an error naming
// any other backslash.
func Unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("%q ends in a lone backslash; escapes: \\n \\t \\r \\\\", s)
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf("%q holds \\%c, which is no escape; escapes: \\n \\t \\r \\\\", s, s[i])
		}
	}
	return b.String(), nil
}

// TimeUnits are the units a program may print its own time in, and
// their seconds.
var TimeUnits = []string{"s", "ms", "us", "ns"}

// unitSeconds returns a time unit's length in seconds; "" is seconds.
func unitSeconds(unit string) (float64, bool) {
	switch unit {
	case "", "s":
		return 1, true
	case "ms":
		return 1e-3, true
	case "us":
		return 1e-6, true
	case "ns":
		return 1e-9, true
	}
	return 0, false
}

// Options say how to run a program and read its answer.
type Options struct {
	Reading
	// Env is added to the environment levlab runs in, KEY=VALUE each.
	Env []string
	// Stdin, when not nil, is what the program reads on its standard
	// input; nil, it reads nothing (/dev/null).
	Stdin []byte
	// Cores, when set, are the cores the program (and what it starts) is
	// held to, on Linux; empty, it runs anywhere levlab may.
	Cores []int
	// Echo are the strings the program was given, which it may print
	// back ("distance from A to B: 3"): where one could be misread, the
	// answer is read with it blanked (blankEchoes).
	Echo [][]byte
	// Also are more readings of the same run's output, of which only
	// Distance, Time and TimeUnit count: a program that prints the
	// answers of several implementations runs once for all of them.
	// Result.Also holds what each read, in order.
	Also []Reading
}

// Reading is how a run is bounded and its output read, the same for a
// Command and for the Options of one run: a spec key of this kind (as
// time_unit) is one field here.
type Reading struct {
	// Timeout is the longest the program may run; it is killed past it.
	Timeout time.Duration
	// Dir is the program's working folder; "" is levlab's.
	Dir string
	// Distance, when set, finds the distance: the first group of its last
	// match on stdout. Unset, it is the number on the last line that names
	// the distance, else the last line holding an integer alone, else the
	// last integer not part of a decimal number (defaultDistance).
	Distance *regexp.Regexp
	// Time, when set, finds the program's own time of its kernel, in
	// TimeUnit: the first group of its last match on stdout.
	Time *regexp.Regexp
	// TimeUnit is what Time's number counts: "s" (or ""), "ms", "us" or
	// "ns" (TimeUnits).
	TimeUnit string
}

// Result is what one run of a program gave.
type Result struct {
	// Note says what else happened, failure or not: the program exited
	// leaving a process it started running, or holding its output open,
	// and Run ended it. A failing run's *Error says it too.
	Note string
	// Distance is the distance it printed, and Line the line of stdout it
	// was read from (also set where that number is the wrong one, or out
	// of range).
	Distance int
	Line     string
	// Wall is the time from starting the program to its exit; Kernel the
	// time it printed itself (Options.Time), else 0.
	Wall, Kernel float64
	// PeakRSS is the most memory the program held resident, in bytes (its
	// rusage), 0 where the system does not say.
	PeakRSS int64
	// CPU is the processor time the program and the processes it waited
	// for took, user and system, in seconds: CPU/Wall is about how many
	// cores it kept busy.
	CPU float64
	// Also is what each of Options.Also read from this run, in order:
	// the same run, so the same Wall, CPU, PeakRSS and Note. It is empty
	// where the program did not start (an *Error of Kind Start, or from
	// Command, Inputs).
	Also []Reread
}

// Reread is one more reading of a run's output (Options.Also): what it
// read, and nil or why it read no answer, as Run returns them.
type Reread struct {
	Result
	Err error
}

const (
	// killGrace is how long a process group has between SIGTERM and
	// SIGKILL.
	killGrace = 500 * time.Millisecond
	// drainGrace is how long the pipes have, once the program has exited,
	// to reach their end before Run takes them to be held by a process the
	// program left behind.
	drainGrace = 100 * time.Millisecond
	// readGrace is how long the pipes have, once the group is gone, to
	// reach their end before Run stops reading them.
	readGrace = time.Second
)

// Run runs args[0] with args[1:] and reads its answer. Setting up and
// reading back are outside Wall, which is the program's life alone. Where
// the run gave no answer — it could not start, ran past its time-out, a
// non-zero exit, a signal, no number or one out of range, a kernel time
// outside (0, Wall], stdout past MaxOutput — the error is an *Error
// saying why, of the Kind that says what; the Result then holds no
// Distance nor Kernel, but what else was measured.
//
// The program runs in a process group of its own (on Unix), and Run ends
// the whole group — SIGTERM, then SIGKILL what is left after a grace of
// half a second — at the time-out, when ctx is done, and when the program
// exits leaving processes it started behind: left running they would
// share the cores with the runs timed after. On Linux the kernel kills the
// program should levlab itself die (SIGKILL included); what the program
// started then lives on, for that signal reaches the program alone.
func Run(ctx context.Context, args []string, o Options) (Result, error) {
	if len(args) == 0 {
		return Result{}, &Error{Kind: Start, Msg: "no program"}
	}
	for _, rd := range append([]Reading{o.Reading}, o.Also...) {
		if _, ok := unitSeconds(rd.TimeUnit); !ok {
			return Result{}, &Error{Kind: Start, Msg: fmt.Sprintf("time unit %q: want one of %s", rd.TimeUnit, strings.Join(TimeUnits, ", "))}
		}
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = o.Dir
	if len(o.Env) > 0 {
		cmd.Env = append(os.Environ(), o.Env...)
	}
	setGroup(cmd)
	if o.Stdin != nil {
		// A file, not a pipe: a pipe needs a writer, which a program that
		// reads less than it is given (or leaves a process holding its
		// stdin) would block.
		in, err := stdinFile(o.Stdin)
		if err != nil {
			return Result{}, &Error{Kind: Start, Msg: "cannot write its standard input: " + err.Error(), Err: err}
		}
		defer in.Close()
		cmd.Stdin = in
	}
	out := &cappedBuffer{max: MaxOutput, full: cancel}
	errOut := &cappedBuffer{max: 4 << 10, discard: true}
	// Pipes of Run's own rather than exec's: exec's Wait waits for every
	// holder of the pipes to let go, so a process the program left behind
	// would hold Run until WaitDelay and then read as exec's error. Here
	// the program's exit is seen at once, and what holds the pipes after
	// it is ended.
	outR, outW, err := os.Pipe()
	if err != nil {
		return Result{}, &Error{Kind: Start, Msg: "cannot start it: " + err.Error(), Err: err}
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return Result{}, &Error{Kind: Start, Msg: "cannot start it: " + err.Error(), Err: err}
	}
	defer errR.Close()
	cmd.Stdout, cmd.Stderr = outW, errW
	exitW := watchExit(cmd)
	defer exitW.close()
	start := time.Now()
	err = startOn(cmd, o.Cores)
	// The program has its own copies; ours would keep the pipes open.
	outW.Close()
	errW.Close()
	if err != nil {
		return Result{}, &Error{Kind: Start, Msg: "cannot start it: " + err.Error(), Err: err}
	}
	exitW.started(cmd)
	g := group{cmd.Process}

	read := make(chan struct{}) // closed when both pipes are read to their end
	go func() {
		done := make(chan struct{})
		go func() {
			io.Copy(errOut, errR)
			close(done)
		}()
		io.Copy(out, outR)
		<-done
		close(read)
	}()
	type exit struct {
		err  error
		wall float64
	}
	exited := make(chan exit, 1)
	go func() {
		exitW.wait()
		err := cmd.Wait()
		exited <- exit{err, time.Since(start).Seconds()}
	}()

	var (
		ex      exit
		stopped bool
		note    string
	)
	select {
	case ex = <-exited:
		if g.alive() {
			// The pipe's last bytes reach the reader at once when nothing
			// else holds it; a process still writing, or only holding it,
			// would keep the reader waiting for ever.
			held := !wait(read, drainGrace)
			g.end(killGrace)
			note = "a process it started was still running after it exited, and was ended"
			if held {
				note = "a process it started still held its output open after it exited, and was ended"
			}
		}
	case <-ctx.Done():
		g.end(killGrace)
		ex, stopped = <-exited, true
	}
	if !wait(read, readGrace) {
		// Only a process that left the group (setsid, a daemon) can hold
		// the pipes now, and Run cannot end it.
		note = join(note, "a process it started left its process group and still holds its output open: it could not be ended, and its output was read no further")
		outR.Close()
		errR.Close()
		<-read
	}

	r := Result{Wall: ex.wall, Note: note, PeakRSS: peakRSS(cmd.ProcessState)}
	if ps := cmd.ProcessState; ps != nil {
		r.CPU = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	var (
		exitErr *exec.ExitError
		fail    *Error
	)
	switch {
	case out.over:
		fail = &Error{Kind: Output, Msg: "printed more than 1.0 MiB on stdout, and was stopped"} // MaxOutput
	case stopped && parent.Err() != nil:
		fail = &Error{Kind: Canceled, Msg: fmt.Sprintf("was stopped with its process group, as the run was (%v)", parent.Err()), Err: parent.Err()}
	case stopped:
		fail = &Error{Kind: Timeout, Msg: fmt.Sprintf("ran past its time-out of %v and was killed", o.Timeout)}
	case errors.As(ex.err, &exitErr):
		said := said(errOut.Bytes(), out.Bytes())
		if st, ok := exitErr.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			fail = &Error{Kind: Signal, Msg: fmt.Sprintf("killed by signal %d (%v)%s", int(st.Signal()), st.Signal(), said), Err: ex.err}
		} else {
			fail = &Error{Kind: Exit, Msg: fmt.Sprintf("exited with status %d%s%s", exitErr.ExitCode(), viaLauncher(exitErr.ExitCode()), said), Err: ex.err}
		}
	case ex.err != nil:
		fail = &Error{Kind: Exit, Msg: ex.err.Error(), Err: ex.err}
	}
	res, err := r.read(out.Bytes(), errOut.Bytes(), fail, o)
	for _, rd := range o.Also {
		ao := o
		ao.Distance, ao.Time, ao.TimeUnit = rd.Distance, rd.Time, rd.TimeUnit
		ar, aerr := r.read(out.Bytes(), errOut.Bytes(), fail, ao)
		res.Also = append(res.Also, Reread{ar, aerr})
	}
	return res, err
}

// read returns the run r's answer read from its stdout out as o says,
// or why it has none: the run's own failure runFail where it failed (nil
// where it exited 0), else why out holds no answer.
func (r Result) read(out, errOut []byte, runFail *Error, o Options) (Result, error) {
	fail := runFail
	if fail == nil {
		fail = r.answer(out, o)
		if fail != nil && fail.Kind == NoDistance {
			fail.Msg += onStderr(errOut, o)
		}
	} else {
		f := *runFail // each reading says it on its own
		fail = &f
	}
	if fail == nil {
		return r, nil
	}
	r.Distance, r.Kernel = 0, 0
	fail.Msg = join(fail.Msg, r.Note)
	return r, fail
}

// answer reads the distance, and with o.Time the kernel time, from out
// into r, or returns why it cannot. Either way r.Line is the line of
// stdout the distance was read from, where there is one.
func (r *Result) answer(out []byte, o Options) *Error {
	var (
		s  string
		ok bool
	)
	seen := blankEchoes(out, o.Echo)
	s, r.Line, ok = readDistance(seen, o)
	if !ok && len(seen) != len(out) {
		// The strings were the only numbers: read them as printed.
		seen = out
		s, r.Line, ok = readDistance(out, o)
	}
	if !ok {
		if o.Distance != nil {
			return &Error{Kind: NoDistance, Msg: fmt.Sprintf("exited 0 but printed no distance (no match of %q on stdout)%s", o.Distance, LastLine(out))}
		}
		return &Error{Kind: NoDistance, Msg: fmt.Sprintf("exited 0 but printed no distance (no integer on a line naming the distance, on a line of its own, or apart from a decimal number on stdout)%s", LastLine(out))}
	}
	d, err := strconv.Atoi(s)
	if n := toNumber(s); err != nil && n.integral && n.value != s {
		d, err = strconv.Atoi(n.value) // 3.0 reads as 3
	}
	switch {
	case errors.Is(err, strconv.ErrRange):
		return &Error{Kind: BadDistance, Msg: fmt.Sprintf("exited 0 but printed a distance out of range, %s: an int holds %d to %d (the line %s)", quote([]byte(s)), math.MinInt, math.MaxInt, Quote(r.Line))}
	case err != nil:
		return &Error{Kind: BadDistance, Msg: fmt.Sprintf("exited 0 but printed a distance that is no integer, %s (the line %s)", quote([]byte(s)), Quote(r.Line))}
	}
	r.Distance = d
	if o.Time == nil {
		return nil
	}
	g, line, ok := lastGroup(seen, o.Time)
	if !ok {
		return &Error{Kind: NoTime, Msg: fmt.Sprintf("printed no time (a match of %q on stdout whose group is a number of %s)%s", o.Time, unitName(o.TimeUnit), LastLine(out))}
	}
	t, why := kernelTime(g, r.Wall, o.TimeUnit)
	if why != "" {
		return &Error{Kind: BadTime, Msg: why + " (the line " + Quote(line) + ")"}
	}
	r.Kernel = t
	return nil
}

// unitName is a time unit's name in words.
func unitName(unit string) string {
	switch unit {
	case "ms":
		return "milliseconds"
	case "us":
		return "microseconds"
	case "ns":
		return "nanoseconds"
	}
	return "seconds"
}

// kernelTime returns the time s, printed by a program in unit, in
// seconds, or why it is none: not a finite number, or outside (0, wall]
// — a kernel takes some time, at least the nanosecond clocks count in,
// and no longer than the process that ran it lived.
func kernelTime(s []byte, wall float64, unit string) (float64, string) {
	scale, _ := unitSeconds(unit)
	if unit == "" {
		unit = "s"
	}
	v, err := strconv.ParseFloat(string(s), 64)
	t := v * scale
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("printed a kernel time %s that is no number of %s", quote(s), unitName(unit))
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Sprintf("printed a kernel time of %s %s, which is no finite number of %s", short(s), unit, unitName(unit))
	case t <= 0:
		return 0, fmt.Sprintf("printed a kernel time of %s %s: want more than 0 and at most its wall time, %.4g s; if the kernel is that fast, print more digits (e.g. %%.9f or %%g)", short(s), unit, wall)
	case t < 1e-9:
		return 0, fmt.Sprintf("printed a kernel time of %s %s, less than a nanosecond, which no clock here measures: want 1e-9 s to its wall time, %.4g s", short(s), unit, wall)
	case t > wall:
		why := fmt.Sprintf("printed a kernel time of %s %s, longer than the process lived: its wall time was %.4g s", short(s), unit, wall)
		if unit != "s" {
			why = fmt.Sprintf("printed a kernel time of %s %s (%.4g s), longer than the process lived: its wall time was %.4g s", short(s), unit, t, wall)
		}
		// The likeliest cause: a program printing milliseconds read as
		// seconds. Name the unit its number would fit.
		for _, u := range TimeUnits {
			if k, _ := unitSeconds(u); k < scale && v*k <= wall && v*k >= 1e-9 {
				why += fmt.Sprintf("; if it prints %s, say time_unit = %q", unitName(u), u)
				break
			}
		}
		return 0, why
	}
	return t, ""
}

// short returns b as a string of at most 64 bytes, "..." ending one cut.
func short(b []byte) string { return string(clip(b, quoteMax)) }

// clip returns b, or where it is longer than n bytes its start and "...",
// n bytes or a few less: the cut falls between two UTF-8 symbols, not
// inside one, which a quote would show as escaped bytes ("\xe4\xb8").
func clip(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	cut := runeCut(b, 0, n-3)
	return append(cut[:len(cut):len(cut)], "..."...)
}

// runeCut returns b[start:end], each end moved inward by at most three
// bytes to the nearest start of a UTF-8 symbol where it falls inside one.
func runeCut(b []byte, start, end int) []byte {
	for i := 0; i < utf8.UTFMax-1 && start > 0 && start < end && !utf8.RuneStart(b[start]); i++ {
		start++
	}
	for i := 0; i < utf8.UTFMax-1 && end < len(b) && end > start && !utf8.RuneStart(b[end]); i++ {
		end--
	}
	return b[start:end]
}

// firstTwo returns the first two lines of b that hold a letter or a
// digit, trimmed (not a rule of "=" such as AddressSanitizer draws above
// its report); next is nil where there is one or none. Where no line
// holds one, first is the first line that is not blank: stderr said
// something, if nothing of use.
func firstTwo(b []byte) (first, next []byte) {
	var blankless []byte
	for line := range bytes.Lines(b) {
		if line = bytes.TrimSpace(line); len(line) > 0 && blankless == nil {
			blankless = line
		}
		if !bytes.ContainsFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		if first == nil {
			first = line
			continue
		}
		return first, line
	}
	if first == nil {
		return blankless, nil
	}
	return first, nil
}

// quoteMax is the most bytes of program output a message quotes.
const quoteMax = 64

// quote returns b short and quoted, for a message.
func quote(b []byte) string { return strconv.Quote(short(b)) }

// join returns a and b joined by "; ", either of them "".
func join(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// wait reports whether c is closed within d.
func wait(c <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c:
		return true
	case <-t.C:
		return false
	}
}

// end ends the group: SIGTERM, so a program may clean up, then SIGKILL to
// what is still there after grace.
func (g group) end(grace time.Duration) {
	g.terminate()
	for deadline := time.Now().Add(grace); g.alive() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if g.alive() {
		g.kill()
	}
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

// said returns what a failing program said, for its failure: the first
// line of its stderr, or where that is empty the last line of its stdout
// (a program's error message is often there).
func said(stderr, stdout []byte) string {
	// A Python traceback says what went wrong on its last line, the
	// exception; its first line says only that one follows.
	if bytes.HasPrefix(bytes.TrimSpace(stderr), []byte("Traceback (most recent call last):")) {
		if l := LastLine(stderr); l != "" {
			return l + " (a Python traceback's last line)"
		}
	}
	// A Rust panic ("thread 'main' panicked at src/main.rs:9:5:") and a
	// C++ exception no one caught ("terminate called after throwing an
	// instance of 'std::out_of_range'") say what on the line after.
	first, next := firstTwo(stderr)
	if next != nil && (bytes.HasSuffix(first, []byte(":")) || bytes.HasPrefix(first, []byte("terminate called after throwing"))) {
		return fmt.Sprintf(": %s (after %s)", quoteLine(next), quoteLine(first))
	}
	if first != nil {
		return ": " + quoteLine(first)
	}
	if l := LastLine(stdout); l != "" {
		return l + " (on stdout; stderr was empty)"
	}
	return ""
}

// viaLauncher explains an exit status of 128+N: what a launcher (mpirun,
// srun) or a shell reports when what it ran was killed by signal N.
func viaLauncher(status int) string {
	n := status - 128
	if n < 1 || n > 64 {
		return ""
	}
	return fmt.Sprintf(" = 128+%d, which a launcher (mpirun, srun) or a shell reports when what it ran was killed by signal %d (%v)", n, n, syscall.Signal(n))
}

// stdinFile returns a file holding b, at its start, its name already
// removed: the program's standard input.
func stdinFile(b []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "levlab-stdin-")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
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

// MkdirTemp makes a new folder in the temporary folder (os.TempDir: TMPDIR
// on Unix), for a program's inputs, and returns its path. Where it cannot,
// it says which folder and variable are wrong and what to do, where
// os.MkdirTemp says only "stat DIR".
func MkdirTemp(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		return dir, nil
	}
	tmp := os.TempDir()
	where, notExist, notDir := "the temporary folder "+tmp, "", ""
	if os.Getenv("TMPDIR") == tmp {
		where = "TMPDIR=" + tmp
		notExist, notDir = ", or point TMPDIR at a folder that exists, or unset it", ": point TMPDIR at a folder, or unset it"
	}
	switch fi, serr := os.Stat(tmp); {
	case errors.Is(serr, fs.ErrNotExist):
		return "", fmt.Errorf("%s names a folder that does not exist: make it (mkdir -p %s)%s", where, tmp, notExist)
	case serr == nil && !fi.IsDir():
		return "", fmt.Errorf("%s is not a folder%s", where, notDir)
	}
	return "", fmt.Errorf("cannot make a folder in %s: %w", where, err)
}
