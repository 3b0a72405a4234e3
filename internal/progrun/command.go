package progrun

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Command is a program to run on pairs of strings, as its user gave it:
// its words, environment and input templates hold placeholders, which
// each run fills with its case's files, lengths and parameters. levlab
// verify, a spec's commands (experiments.Own) and a notebook's Command
// run their programs through it.
type Command struct {
	// Args is the command line, args[0] the program.
	Args []string
	// Env is added to the environment levlab runs in, KEY=VALUE each;
	// placeholders are filled in the VALUE alone.
	Env []string
	// Stdin, when not nil, is the template of what the program reads on
	// its standard input; nil, it reads nothing (/dev/null).
	Stdin *string
	// Input, when not nil, is the template of the file {input} names,
	// written afresh for each run.
	Input *string
	// InputName, when set, is the name the file written from Input has,
	// and the program runs in the run's folder, where that file is: for a
	// program that opens a name of its own, such as input.txt, in its
	// working folder. A program named by a relative path is still taken
	// from Dir (or levlab's folder). CheckInputName says what it may be.
	InputName string
	// Reading bounds each run and reads its output, as Options' does; a
	// program named by a relative path with a slash is taken from its Dir
	// where that is set.
	Reading
	// Also are more readings of each run's output, as Options' are.
	Also []Reading
}

// Case is one pair of strings to run a Command on, and the point's
// parameters.
type Case struct {
	A, B []byte
	// N and M are what {n} and {m} say: the lengths of A and B, in bytes
	// or in runes.
	N, M          int
	Workers, Tile int
	// FileA and FileB, where set, are files that already hold A and B,
	// for {a} and {b}; unset, A and B are written to the files a and b of
	// the run's Files where the command names {a} or {b}.
	FileA, FileB string
	// InputName is the name of the file written from Command.Input in the
	// run's Files; "" is "input".
	InputName string
	// Want, where set, is the distance the case wants: another is an
	// *Error of Kind WrongDistance.
	Want *int
}

// Uses reports whether any of the command's templates — its words, its
// variables' values, its stdin and input templates — holds any of ps.
func (c *Command) Uses(ps ...string) bool {
	words := slices.Concat(c.Args, c.envValues())
	if c.Stdin != nil {
		words = append(words, *c.Stdin)
	}
	if c.Input != nil {
		words = append(words, *c.Input)
	}
	for _, p := range ps {
		if Uses(p, words...) {
			return true
		}
	}
	return false
}

func (c *Command) envValues() []string {
	vals := make([]string, len(c.Env))
	for i, kv := range c.Env {
		_, vals[i], _ = strings.Cut(kv, "=")
	}
	return vals
}

// Values returns what the placeholders stand for when cs runs with its
// files in the folder dir: a, b and its input file there, unless cs
// names files of its own; the strings themselves where the command uses
// them.
func (c *Command) Values(dir string, cs Case) Values {
	v := Values{A: cs.FileA, B: cs.FileB, N: cs.N, M: cs.M, Workers: cs.Workers, Tile: cs.Tile}
	if v.A == "" {
		v.A = filepath.Join(dir, "a")
	}
	if v.B == "" {
		v.B = filepath.Join(dir, "b")
	}
	if c.Input != nil {
		v.Input = filepath.Join(dir, c.inputName(cs))
	}
	if c.Uses(TextPlaceholders...) {
		v.TextA, v.TextB = string(cs.A), string(cs.B)
	}
	return v
}

// Expand returns the command with v in its placeholders: its words, its
// environment, its standard input (nil where it has no Stdin template)
// and its input file's contents (nil where it has no Input).
func (c *Command) Expand(v Values) (args, env []string, stdin, input []byte) {
	args = make([]string, len(c.Args))
	for i, w := range c.Args {
		args[i] = v.Expand(w)
	}
	for _, kv := range c.Env {
		k, val, _ := strings.Cut(kv, "=")
		env = append(env, k+"="+v.Expand(val))
	}
	if c.Stdin != nil {
		stdin = []byte(v.Expand(*c.Stdin))
	}
	if c.Input != nil {
		input = []byte(v.Expand(*c.Input))
	}
	return args, env, stdin, input
}

// Run runs the command on one case: writes the files it reads into
// files (outside the timing: Result.Wall is the program's life alone),
// fills the placeholders, runs it as Run does and reads its answer, and
// where cs.Want is set checks it. The error is an *Error: of Kind Inputs
// where a file could not be written (and the program did not run), else
// Run's, else WrongDistance ("printed D, want W (the line L)").
func (c *Command) Run(ctx context.Context, files *Files, cs Case) (Result, error) {
	return c.RunOn(ctx, files, cs, nil)
}

// RunOn is Run with the program held to cores (Options.Cores).
func (c *Command) RunOn(ctx context.Context, files *Files, cs Case, cores []int) (Result, error) {
	v := c.Values(files.Dir, cs)
	args, env, stdin, input := c.Expand(v)
	if err := c.write(files, cs, input); err != nil {
		return Result{}, &Error{Kind: Inputs, Msg: err.Error(), Err: err}
	}
	reading := c.Reading
	relative := len(args) > 0 && strings.ContainsRune(args[0], '/') && !filepath.IsAbs(args[0])
	if relative && c.Dir != "" {
		args[0] = filepath.Join(c.Dir, args[0])
	}
	if c.InputName != "" {
		// The program runs beside its input file; a relative path to it
		// is taken from where it would have run.
		var err error
		if relative {
			args[0], err = filepath.Abs(args[0])
		}
		if err == nil {
			reading.Dir, err = filepath.Abs(files.Dir)
		}
		if err != nil {
			return Result{}, &Error{Kind: Start, Msg: err.Error(), Err: err}
		}
	}
	res, err := Run(ctx, args, Options{Reading: reading, Env: env, Stdin: stdin, Cores: cores, Echo: [][]byte{cs.A, cs.B}, Also: c.Also})
	err = cs.check(res, err)
	for i := range res.Also {
		res.Also[i].Err = cs.check(res.Also[i].Result, res.Also[i].Err)
	}
	return res, err
}

// check returns err, or where the run read a distance other than the one
// the case wants, an *Error of Kind WrongDistance saying so.
func (cs Case) check(res Result, err error) error {
	if err == nil && cs.Want != nil && res.Distance != *cs.Want {
		return &Error{Kind: WrongDistance, Msg: fmt.Sprintf("printed %d, want %d (the line %s)", res.Distance, *cs.Want, QuoteNumber(res.Line, res.Distance))}
	}
	return err
}

// inputName is the name of the file written from Input for cs.
func (c *Command) inputName(cs Case) string { return cmp.Or(c.InputName, cs.InputName, "input") }

// CheckInputName returns an error saying what is wrong with name as an
// input file's name (Command.InputName), or nil: a name of a file, not
// a path, and neither a nor b, the files {a} and {b} beside it.
func CheckInputName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("%q: want the name of a file, such as input.txt", name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%q: want the name of a file, such as input.txt, not a path: the file is written in the run's own folder, where the program runs", name)
	case name == "a" || name == "b":
		return fmt.Errorf("%q: the files {a} and {b} are written beside the input file under the names a and b; name it otherwise, such as input.txt", name)
	}
	return nil
}

// TookFileNames says, where d (a distance the program printed) is the
// distance between the command's arguments that name the files {a} and
// {b}, that the program took the names for the strings, and what to
// write instead; "" where it is not, or the command passes no such
// arguments. dir and cs are the run's, as for Run.
func (c *Command) TookFileNames(d int, dir string, cs Case) string {
	ia := slices.IndexFunc(c.Args, func(w string) bool { return Uses("{a}", w) })
	ib := slices.IndexFunc(c.Args, func(w string) bool { return Uses("{b}", w) })
	if ia < 0 || ib < 0 || ia == ib {
		return ""
	}
	v := c.Values(dir, cs)
	if argDistance(v.Expand(c.Args[ia]), v.Expand(c.Args[ib])) != d {
		return ""
	}
	// The same words, the folders shown as "…".
	v.A, v.B = filepath.Join("…", filepath.Base(v.A)), filepath.Join("…", filepath.Base(v.B))
	return fmt.Sprintf("%d is the distance between its arguments %s and %s, the names of the files {a} and {b} stand for; "+
		"for the strings themselves as arguments write {a:text} and {b:text}", d, v.Expand(c.Args[ia]), v.Expand(c.Args[ib]))
}

// argDistance is the edit distance between two words of a command line,
// byte by byte: progrun runs programs and knows nothing of lev, and two
// paths need no more than a row of cells.
func argDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			sub := diag
			if a[i-1] != b[j-1] {
				sub++
			}
			diag = row[j]
			row[j] = min(row[j]+1, row[j-1]+1, sub)
		}
	}
	return row[len(b)]
}

// write writes what a run of cs reads from files into files: a and b
// where the command names {a} or {b} and cs has no files of its own, and
// the input file.
func (c *Command) write(files *Files, cs Case, input []byte) error {
	if c.Uses("{a}", "{b}") {
		if cs.FileA == "" {
			if err := files.Put("a", cs.A); err != nil {
				return err
			}
		}
		if cs.FileB == "" {
			if err := files.Put("b", cs.B); err != nil {
				return err
			}
		}
	}
	if c.Input != nil {
		return files.Put(c.inputName(cs), input)
	}
	return nil
}

// Files is the folder a Command writes a run's files in. Made by
// OpenFiles it keeps them open from run to run, each rewritten in place:
// opening, truncating to nothing and closing a file a run cost more than
// many a program's run (ext4 flushes a file truncated to nothing at its
// close). Made as &Files{Dir: dir} it writes each file afresh, and holds
// none open.
type Files struct {
	Dir  string
	open map[string]*os.File // nil: none kept open
}

// OpenFiles makes the folder dir where it is not there and returns its
// Files, which keep the files open until Close.
func OpenFiles(dir string) (*Files, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Files{Dir: dir, open: map[string]*os.File{}}, nil
}

// Put makes the file name of the folder hold data.
func (f *Files) Put(name string, data []byte) error {
	path := filepath.Join(f.Dir, name)
	if f.open == nil {
		return os.WriteFile(path, data, 0o644)
	}
	file := f.open[name]
	if file == nil {
		var err error
		if file, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644); err != nil {
			return err
		}
		f.open[name] = file
	}
	if _, err := file.WriteAt(data, 0); err != nil {
		return err
	}
	return file.Truncate(int64(len(data)))
}

// Close closes the files kept open; the files stay.
func (f *Files) Close() error {
	var first error
	for name, file := range f.open {
		if err := file.Close(); err != nil && first == nil {
			first = err
		}
		delete(f.open, name)
	}
	return first
}
