// Package spec reads an experiment of one's own — a student's program, a
// Go function, levlab's algorithms — from a TOML file: what to time (the
// implementations), on which inputs and parameters (the grid), and the
// figures to read it through. levlab run --spec times it with the same
// runner as the reports' experiments; levlab report draws it from the
// copy of the spec kept beside its records.
//
// A spec, every key:
//
//	name    = "my-omp"          # the CSV's and the report section's name: letters, digits, - _ .
//	title   = "My OpenMP antidiagonals beside levlab"  # text: no control or format characters
//	reps    = 5                 # timed repetitions a point, 1 to 1000 (0 or unset: 10); one warm-up before them
//	timeout = "60s"             # the longest one run of a command may take (default 60s)
//
//	[inputs]                    # made by levlab, outside the timing
//	case     = "random"         # random (default), dna, identical, partial, diverged, different
//	alphabet = "ACGT"           # random only: the symbols drawn (default abcd)
//	n = [1000, 5000, 20000]     # the first string's lengths
//	m = [1000, 5000, 20000]     # the second's, paired with n; unset: m = n
//
//	[params]                    # every combination is a point, for each implementation
//	workers = [1, 2, 4]         # default [1]
//	tile    = [256]             # default [0]: the implementation's own
//
//	[[impl]]                    # one per implementation: a command or a lev algorithm
//	name    = "mine"
//	command = ["./ed_omp", "{a}", "{b}"]  # {a} {b} files; {a:text} {b:text} the strings; {n} {m} lengths; {workers} {tile}; {input}
//	env     = { OMP_NUM_THREADS = "{workers}" }  # names: not empty, no = or NUL; values: no NUL
//	stdin   = "{n} {m}\n{a:text}\n{b:text}\n"  # what the program reads on stdin, placeholders expanded
//	input   = "{n} {m}\n{a:text}\n{b:text}\n"  # a file written for each point, {input} in the command
//	input_name = "input.txt"    # the input file's name, for a program that opens its own; it then runs beside it
//	distance_regexp = 'distance: (\d+)'   # unset: on a line naming the distance, else alone on a line, else the last integer
//	time_regexp     = 'kernel: ([0-9.]+) s'  # the program's own time; unset: wall time
//	time_unit       = "ms"                   # what time_regexp's number counts: s (default), ms, us, ns
//
//	[[impl]]
//	name = "levlab"
//	algo = "myers-parallel"     # any lev algorithm, run with the point's workers and tile
//
//	[[figure]]
//	x        = "workers"        # workers, tile, n or m
//	y        = "speedup"        # time, speedup, efficiency, gcups or memory
//	baseline = "levlab"         # speedup over this implementation at the fewest workers
//	series   = ["impl", "n"]    # what tells the lines apart: impl and any parameter
//	log_x    = false            # log axes; unset: log for n and m, linear else
//	log_y    = false
//	title    = "Speedup by workers"
//
// A command's path, when it holds a slash, is taken from the spec's folder,
// and the command runs there; with input_name, in the folder of the
// point's input file. Impls whose commands differ only in
// distance_regexp, time_regexp and time_unit, each read its own way,
// share their runs (SharedRuns): one program that prints several
// implementations' answers runs once a repetition for all of them.
package spec

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/records"
)

// Spec is one experiment of one's own, as its TOML file gives it.
type Spec struct {
	Name    string   `toml:"name"`
	Title   string   `toml:"title"`
	Reps    int      `toml:"reps,omitempty"`
	Timeout string   `toml:"timeout,omitempty"`
	Inputs  Inputs   `toml:"inputs"`
	Params  Params   `toml:"params"`
	Impl    []Impl   `toml:"impl"`
	Figure  []Figure `toml:"figure,omitempty"`

	// Dir is the folder the spec was read from: relative command paths
	// start there, and commands run there. Not in the file.
	Dir string `toml:"-"`
}

// Inputs say how levlab makes each point's two strings.
type Inputs struct {
	Case     string `toml:"case,omitempty"`
	Alphabet string `toml:"alphabet,omitempty"`
	N        []int  `toml:"n"`
	M        []int  `toml:"m,omitempty"`
}

// Params are the parameters every implementation is timed at.
type Params struct {
	Workers []int `toml:"workers,omitempty"`
	Tile    []int `toml:"tile,omitempty"`
}

// Impl is one implementation: a command, or a lev algorithm.
type Impl struct {
	Name           string            `toml:"name"`
	Command        []string          `toml:"command,omitempty"`
	Env            map[string]string `toml:"env,omitempty"`
	Algo           string            `toml:"algo,omitempty"`
	DistanceRegexp string            `toml:"distance_regexp,omitempty"`
	TimeRegexp     string            `toml:"time_regexp,omitempty"`
	// The keys added since the first specs are left out of MadeBy's hash
	// when unset (omitempty), so that those specs' records stay theirs.
	Stdin     string `toml:"stdin,omitempty" json:",omitempty"`
	Input     string `toml:"input,omitempty" json:",omitempty"`
	InputName string `toml:"input_name,omitempty" json:",omitempty"`
	TimeUnit  string `toml:"time_unit,omitempty" json:",omitempty"`
}

// CommandPlaceholders are the words a command and its env may hold in
// braces; TemplatePlaceholders those of a stdin or input template.
var (
	CommandPlaceholders  = slices.Concat(progrun.Placeholders, progrun.TextPlaceholders, []string{progrun.InputPlaceholder})
	TemplatePlaceholders = slices.Concat(progrun.Placeholders, progrun.TextPlaceholders)
)

// UsesText reports whether the implementation is given the strings
// themselves ({a:text}, {b:text}) anywhere, and whether in an argument or
// a variable, which hold at most progrun.MaxArg bytes.
func (im Impl) UsesText() (anywhere, inArgs bool) {
	args := slices.Clone(im.Command)
	for _, v := range im.Env {
		args = append(args, v)
	}
	inArgs = progrun.UsesText(args...)
	return inArgs || progrun.UsesText(im.Stdin, im.Input), inArgs
}

// Figure is one figure the report draws of the experiment.
type Figure struct {
	Title    string   `toml:"title,omitempty"`
	X        Dim      `toml:"x"`
	Y        Quantity `toml:"y"`
	Baseline string   `toml:"baseline,omitempty"`
	Series   []Dim    `toml:"series,omitempty"`
	LogX     *bool    `toml:"log_x,omitempty"`
	LogY     *bool    `toml:"log_y,omitempty"`
}

// Dim is a dimension of the grid, which a figure's x or series names.
type Dim string

// The grid's dimensions.
const (
	DimWorkers Dim = "workers"
	DimTile    Dim = "tile"
	DimN       Dim = "n"
	DimM       Dim = "m"
	// DimImpl, a series only, tells the implementations apart.
	DimImpl Dim = "impl"
)

// Quantity is what a figure's y draws.
type Quantity string

// What a figure's y may draw.
const (
	YTime       Quantity = "time"
	YSpeedup    Quantity = "speedup"    // over the baseline at the fewest workers
	YEfficiency Quantity = "efficiency" // speedup over workers
	YGCUPS      Quantity = "gcups"      // m·n cells a nanosecond
	YMemory     Quantity = "memory"     // a command's peak RSS, an algorithm's heap
)

// What a figure's x and y and its series may name, and [inputs] case.
var (
	XValues      = []Dim{DimWorkers, DimTile, DimN, DimM}
	YValues      = []Quantity{YTime, YSpeedup, YEfficiency, YGCUPS, YMemory}
	SeriesValues = []Dim{DimImpl, DimWorkers, DimTile, DimN, DimM}
	Cases        = records.Cases()
)

// DefaultReps and DefaultTimeout apply where the spec leaves them out
// (reps = 0 leaves reps out too).
const (
	DefaultReps    = 10
	DefaultTimeout = 60 * time.Second
)

// MaxReps is the most timed repetitions a spec may ask of a point: more
// is a typo, not a plan. The command line's --reps has the same bound.
const MaxReps = 1000

// MaxPoints bounds a spec's grid: more is a typo in a list, not a plan.
const MaxPoints = 100000

// validName is what a spec's and an implementation's name may be: a file
// name anywhere, and text in a report.
// Checked by hand: the regexp ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ compiles
// to a long program at every start of levlab, which imports this package.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// Error is a problem of a spec file, at a line where one is known.
type Error struct {
	File string
	Line int // 0: the file as a whole
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ReadFile reads and checks the spec at path. Every problem is an *Error
// naming the file and, where it can, the line: TOML that does not parse,
// an unknown key (with the keys allowed there), a missing or empty value,
// a name that cannot name a file, a placeholder that does not exist, an
// implementation that is both or neither a command and an algorithm, a
// figure naming what is not there. It does not look for the programs:
// Check does, before a run.
func ReadFile(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	s, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if s.Dir, err = filepath.Abs(filepath.Dir(path)); err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return s, nil
}

// Parse reads and checks a spec from data; file names it in errors.
func Parse(file string, data []byte) (*Spec, error) {
	var s Spec
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, decodeError(file, err)
	}
	l := lines{file: file, text: strings.Split(string(data), "\n")}
	if err := s.check(&l); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate checks a spec made in Go as ReadFile checks a file's (no line
// is named).
func (s *Spec) Validate() error { return s.check(&lines{file: "spec " + s.Name}) }

// decodeError turns the TOML library's error into an *Error at its line.
func decodeError(file string, err error) error {
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) && len(missing.Errors) > 0 {
		d := missing.Errors[0]
		row, _ := d.Position()
		key := d.Key()
		return &Error{File: file, Line: row, Msg: fmt.Sprintf("unknown key %q; allowed%s: %s",
			strings.Join(key, "."), where(key[:len(key)-1]), strings.Join(allowedKeys(key[:len(key)-1]), ", "))}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return &Error{File: file, Line: row, Msg: fmt.Sprintf("column %d: %s", col, de.Error())}
	}
	return &Error{File: file, Msg: err.Error()}
}

func where(table []string) string {
	if len(table) == 0 {
		return " at the top"
	}
	return " in [" + strings.Join(table, ".") + "]"
}

// allowedKeys lists the keys of the table at path (top level when empty).
func allowedKeys(path []string) []string {
	t := reflect.TypeFor[Spec]()
	for _, p := range path {
		f, ok := fieldByKey(t, p)
		if !ok {
			return nil
		}
		t = f.Type
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil
		}
	}
	var keys []string
	for f := range t.Fields() {
		if k := tomlKey(f); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if tomlKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tomlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if k == "-" {
		return ""
	}
	return k
}

// lines finds where a key is set, for errors the TOML library does not
// see: a table's header ("inputs", "impl" with its index) and the key.
type lines struct {
	file string
	text []string
}

// headerRE is compiled at first use: only a spec with an error needs it,
// and every levlab process (each `levlab distance` that verify starts
// included) would otherwise compile it as it starts.
var headerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[(\[)?\s*([A-Za-z0-9_.-]+)\s*\]`)
})

// line returns the line of key in table (top level: ""), the index'th of
// an array of tables, or of the table's header when key is "", or 0.
func (l *lines) line(table string, index int, key string) int {
	cur, n := "", -1
	header := headerRE()
	for i, t := range l.text {
		if m := header.FindStringSubmatch(t); m != nil {
			cur = m[2]
			if cur == table {
				n++
				if key == "" && n == index {
					return i + 1
				}
			}
			continue
		}
		if cur == table && (table == "" || n == index) && key != "" {
			k, _, ok := strings.Cut(strings.TrimSpace(t), "=")
			if ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
				return i + 1
			}
		}
	}
	return 0
}

func (l *lines) errorf(table string, index int, key, format string, args ...any) error {
	return &Error{File: l.file, Line: l.line(table, index, key), Msg: fmt.Sprintf(format, args...)}
}

// check checks what TOML alone cannot: the name and the run's settings,
// the inputs, the parameters, each implementation, the grid's size and
// the figures, in that order, the first problem found returned.
func (s *Spec) check(l *lines) error {
	for _, check := range []func(*lines) error{s.checkTop, s.checkInputs, s.checkParams, s.checkImpls, s.checkPoints, s.checkFigures} {
		if err := check(l); err != nil {
			return err
		}
	}
	return nil
}

// checkTop checks the name, the repetitions, the title and the time-out.
func (s *Spec) checkTop(l *lines) error {
	switch {
	case s.Name == "":
		return l.errorf("", 0, "", "no name: name = \"my-experiment\" names the CSV file and the report's section")
	case !validName(s.Name):
		return l.errorf("", 0, "name", "name %q cannot name a file: use letters, digits, -, _ and . (not first), at most 64", s.Name)
	case s.Reps < 0 || s.Reps > MaxReps:
		return l.errorf("", 0, "reps", "reps = %d: want 1 to %d, or 0 or absent: the default, %d", s.Reps, MaxReps, DefaultReps)
	}
	if err := checkText("title", s.Title); err != nil {
		return l.errorf("", 0, "title", "%v", err)
	}
	if s.Timeout != "" {
		d, err := time.ParseDuration(s.Timeout)
		if err != nil || d <= 0 {
			return l.errorf("", 0, "timeout", "timeout = %q: want a positive duration such as \"30s\" or \"5m\"", s.Timeout)
		}
	}
	return nil
}

// checkInputs checks [inputs]: the case, the alphabet, the lengths.
func (s *Spec) checkInputs(l *lines) error {
	in := s.Inputs
	if in.Case != "" && !slices.Contains(Cases, in.Case) {
		return l.errorf("inputs", 0, "case", "case = %q: want one of %s", in.Case, strings.Join(Cases, ", "))
	}
	if in.Alphabet != "" && in.Case != "" && in.Case != records.CaseRandom {
		return l.errorf("inputs", 0, "alphabet", "alphabet is for case = \"random\" alone; case %q draws its own symbols", in.Case)
	}
	if len(in.N) == 0 {
		return l.errorf("inputs", 0, "n", "[inputs] n is empty or missing: give the lengths, e.g. n = [1000, 10000]")
	}
	if len(in.M) > 0 && len(in.M) != len(in.N) {
		return l.errorf("inputs", 0, "m", "m has %d lengths and n %d: m pairs with n, one for one", len(in.M), len(in.N))
	}
	for _, ls := range []struct {
		key string
		ns  []int
	}{{"n", in.N}, {"m", in.M}} {
		key := ls.key
		for _, n := range ls.ns {
			if n < 0 || n > 1<<30 {
				return l.errorf("inputs", 0, key, "%s: length %d: want 0 to %d", key, n, 1<<30)
			}
		}
	}
	if in.Case == records.CaseIdentical || in.Case == records.CasePartial || in.Case == records.CaseDiverged {
		for i := range in.M {
			if in.M[i] != in.N[i] {
				return l.errorf("inputs", 0, "m", "case %q needs m = n, not %d and %d", in.Case, in.N[i], in.M[i])
			}
		}
	}
	return nil
}

// checkParams checks [params]: the workers and tiles.
func (s *Spec) checkParams(l *lines) error {
	for _, p := range []struct {
		key  string
		vals []int
		min  int
	}{{"workers", s.Params.Workers, 1}, {"tile", s.Params.Tile, 0}} {
		if p.vals != nil && len(p.vals) == 0 {
			return l.errorf("params", 0, p.key, "%s = []: give at least one value, or leave it out", p.key)
		}
		for _, v := range p.vals {
			if v < p.min || v > 1<<20 {
				return l.errorf("params", 0, p.key, "%s %d: want %d to %d", p.key, v, p.min, 1<<20)
			}
		}
	}
	return nil
}

// checkImpls checks that there is an implementation, and each one
// (checkImpl), its name told apart from those before it.
func (s *Spec) checkImpls(l *lines) error {
	if len(s.Impl) == 0 {
		return l.errorf("", 0, "", "no [[impl]]: name at least one implementation, a command or a lev algorithm")
	}
	names := map[string]bool{}
	for i, im := range s.Impl {
		if names[im.Name] && im.Name != "" && validName(im.Name) {
			return l.errorf("impl", i, "name", "impl %q is named twice", im.Name)
		}
		if err := s.checkImpl(l, i, im); err != nil {
			return err
		}
		names[im.Name] = true
	}
	return nil
}

// checkImpl checks [[impl]] i, im: its name, a command or an algorithm,
// what a command may hold, its placeholders and its regexps.
func (s *Spec) checkImpl(l *lines, i int, im Impl) error {
	switch {
	case im.Name == "":
		return l.errorf("impl", i, "", "[[impl]] %d has no name", i+1)
	case !validName(im.Name):
		return l.errorf("impl", i, "name", "impl name %q: use letters, digits, -, _ and . (not first), at most 64", im.Name)
	case im.Command != nil && len(im.Command) == 0:
		return l.errorf("impl", i, "command", "impl %q: command = []: give the program and its arguments, e.g. [\"./prog\", \"{a}\", \"{b}\"], or leave command out for an algo", im.Name)
	case (len(im.Command) > 0) == (im.Algo != ""):
		return l.errorf("impl", i, "", "impl %q: give command = [...] or algo = \"...\", one of them", im.Name)
	case len(im.Command) > 0 && im.Command[0] == "":
		return l.errorf("impl", i, "command", "impl %q: the command's program is empty", im.Name)
	case im.Algo != "" && (len(im.Env) > 0 || im.DistanceRegexp != "" || im.TimeRegexp != "" || im.Stdin != "" || im.Input != "" || im.InputName != "" || im.TimeUnit != ""):
		return l.errorf("impl", i, "algo", "impl %q: env, stdin, input, input_name, distance_regexp, time_regexp and time_unit are for a command, not an algorithm", im.Name)
	case im.TimeUnit != "" && !slices.Contains(progrun.TimeUnits, im.TimeUnit):
		return l.errorf("impl", i, "time_unit", "impl %q: time_unit = %q: want one of %s", im.Name, im.TimeUnit, strings.Join(progrun.TimeUnits, ", "))
	case im.TimeUnit != "" && im.TimeRegexp == "":
		return l.errorf("impl", i, "time_unit", "impl %q: time_unit = %q says what time_regexp's number counts, and there is no time_regexp", im.Name, im.TimeUnit)
	case im.InputName != "" && im.Input == "":
		return l.errorf("impl", i, "input_name", "impl %q: input_name = %q names the file written from input = \"...\", and there is no input", im.Name, im.InputName)
	case im.InputName != "" && progrun.CheckInputName(im.InputName) != nil:
		return l.errorf("impl", i, "input_name", "impl %q: input_name = %v", im.Name, progrun.CheckInputName(im.InputName))
	case im.Input != "" && im.InputName == "" && !slices.ContainsFunc(im.Command, func(a string) bool { return strings.Contains(a, progrun.InputPlaceholder) }):
		return l.errorf("impl", i, "input", "impl %q: input = %q is written to a file the command names as {input}, and its command has no {input}; for a program that opens a name of its own, give it as input_name (such as \"input.txt\")", im.Name, im.Input)
	case im.Input == "" && progrun.Uses(progrun.InputPlaceholder, im.Command...):
		return l.errorf("impl", i, "command", "impl %q: the command names {input}, the file written from input = \"...\", and there is no input", im.Name)
	}
	// exec passes each argument and variable as a C string, which a NUL
	// would end: every point would fail at its start.
	for j, a := range im.Command {
		if strings.IndexByte(a, 0) >= 0 {
			return l.errorf("impl", i, "command", "impl %q: command argument %d %q holds a NUL byte, which no argument can carry", im.Name, j+1, a)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(im.Env)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return l.errorf("impl", i, "env", "impl %q: env key %q: a variable's name is any characters but = and NUL, and not empty", im.Name, k)
		}
		if strings.IndexByte(im.Env[k], 0) >= 0 {
			return l.errorf("impl", i, "env", "impl %q: env %q = %q holds a NUL byte, which no variable's value can carry", im.Name, k, im.Env[k])
		}
	}
	words := map[string][]string{"command": im.Command, "stdin": {im.Stdin}, "input": {im.Input}}
	for _, k := range slices.Sorted(maps.Keys(im.Env)) {
		words["env"] = append(words["env"], k, im.Env[k])
	}
	for _, key := range []string{"command", "env", "stdin", "input"} {
		allowed := CommandPlaceholders
		if key == "stdin" || key == "input" {
			allowed = TemplatePlaceholders
		}
		if err := progrun.CheckPlaceholders(allowed, words[key]...); err != nil {
			return l.errorf("impl", i, key, "impl %q: %v", im.Name, err)
		}
	}
	if err := s.checkTextInputs(im); err != nil {
		return l.errorf("impl", i, "command", "impl %q: %v", im.Name, err)
	}
	for _, re := range []struct{ key, expr string }{{"distance_regexp", im.DistanceRegexp}, {"time_regexp", im.TimeRegexp}} {
		if re.expr == "" {
			continue
		}
		c, err := regexp.Compile(re.expr)
		if err != nil {
			return l.errorf("impl", i, re.key, "impl %q: %s: %v", im.Name, re.key, err)
		}
		if c.NumSubexp() < 1 {
			return l.errorf("impl", i, re.key, "impl %q: %s %q has no group: put the number in one, e.g. %q", im.Name, re.key, re.expr, `kernel: ([0-9.]+)`)
		}
	}
	return nil
}

// checkPoints checks the grid's size.
func (s *Spec) checkPoints(l *lines) error {
	if n := s.NumPoints(); n > MaxPoints {
		return l.errorf("", 0, "", "the grid has %d points (implementations × lengths × workers × tiles); at most %d", n, MaxPoints)
	}
	return nil
}

// checkFigures checks each [[figure]] against the implementations.
func (s *Spec) checkFigures(l *lines) error {
	names := map[string]bool{}
	for _, im := range s.Impl {
		names[im.Name] = true
	}
	for i, f := range s.Figure {
		if err := checkText("title", f.Title); err != nil {
			return l.errorf("figure", i, "title", "figure %d: %v", i+1, err)
		}
		switch {
		case !slices.Contains(XValues, f.X):
			return l.errorf("figure", i, "x", "figure %d: x = %q: want one of %s", i+1, f.X, joinNames(XValues))
		case !slices.Contains(YValues, f.Y):
			return l.errorf("figure", i, "y", "figure %d: y = %q: want one of %s", i+1, f.Y, joinNames(YValues))
		case (f.Y == YSpeedup || f.Y == YEfficiency) && f.Baseline == "":
			return l.errorf("figure", i, "y", "figure %d: y = %q needs baseline = the implementation it is over; without a [[figure]], the report gives each implementation's speedup and efficiency over its own one worker", i+1, f.Y)
		case f.Baseline != "" && !names[f.Baseline]:
			return l.errorf("figure", i, "baseline", "figure %d: baseline %q is no implementation; valid: %s", i+1, f.Baseline, strings.Join(s.ImplNames(), ", "))
		case slices.Contains(f.Series, f.X):
			return l.errorf("figure", i, "series", "figure %d: %s is the x axis and cannot tell series apart", i+1, f.X)
		}
		for _, se := range f.Series {
			if !slices.Contains(SeriesValues, se) {
				return l.errorf("figure", i, "series", "figure %d: series %q: want among %s", i+1, se, joinNames(SeriesValues))
			}
		}
	}
	return nil
}

// checkTextInputs refuses inputs that the strings themselves cannot be given
// as, where im takes them ({a:text}, {b:text}): a NUL byte among the
// symbols drawn (no argument, variable or line-reading program carries
// it), or a length past what one argument holds.
func (s *Spec) checkTextInputs(im Impl) error {
	anywhere, inArgs := im.UsesText()
	if !anywhere {
		return nil
	}
	if strings.IndexByte(s.Inputs.Alphabet, 0) >= 0 {
		return fmt.Errorf("{a:text} and {b:text} give the strings themselves, and [inputs] alphabet %q holds a NUL byte, which no argument can carry: leave it out, or give the strings as files ({a} {b})", s.Inputs.Alphabet)
	}
	if !inArgs {
		return nil
	}
	for _, nm := range s.Lengths() {
		if max(nm[0], nm[1]) > progrun.MaxArg {
			return fmt.Errorf("{a:text} and {b:text} in the command or env give the strings as arguments, which hold at most %d bytes, and [inputs] has n = %d, m = %d: give them as files ({a} {b}), on stdin or in an input file", progrun.MaxArg, nm[0], nm[1])
		}
	}
	return nil
}

// checkText returns an error naming the first character of text that is
// no printable text — a control character (Unicode Cc: NUL, ESC …, tab
// excepted), a format character (Cf: the bidirectional overrides such as
// U+202E, zero-width characters), a line or paragraph separator — with its
// place, or nil. A title is printed on terminals and drawn into reports,
// where such a character reorders, hides or styles what follows.
func checkText(key, text string) error {
	if !utf8.ValidString(text) {
		return fmt.Errorf("%s %q is not UTF-8", key, text)
	}
	i := 0
	for _, r := range text {
		i++
		if r == '\t' || !unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			continue
		}
		what := "a control character"
		switch {
		case unicode.Is(unicode.Cf, r):
			what = "a format character (bidirectional or invisible)"
		case unicode.In(r, unicode.Zl, unicode.Zp):
			what = "a line or paragraph separator"
		}
		return fmt.Errorf("%s %q holds %U, %s, at character %d: want printable text (tabs allowed)", key, text, r, what, i)
	}
	return nil
}

// ImplNames returns the implementations' names, in order.
func (s *Spec) ImplNames() []string {
	out := make([]string, len(s.Impl))
	for i, im := range s.Impl {
		out[i] = im.Name
	}
	return out
}

// RepsOr returns the spec's reps, or DefaultReps where it sets none.
func (s *Spec) RepsOr() int {
	if s.Reps > 0 {
		return s.Reps
	}
	return DefaultReps
}

// TimeoutOr returns the spec's time-out, or DefaultTimeout.
func (s *Spec) TimeoutOr() time.Duration {
	if d, err := time.ParseDuration(s.Timeout); err == nil && d > 0 {
		return d
	}
	return DefaultTimeout
}

// WorkersOr and TilesOr return the parameters' values, or their defaults.
func (s *Spec) WorkersOr() []int { return cmpOr(s.Params.Workers, []int{1}) }
func (s *Spec) TilesOr() []int   { return cmpOr(s.Params.Tile, []int{0}) }

// CaseOr returns the inputs' case, or "random".
func (s *Spec) CaseOr() string {
	if s.Inputs.Case == "" {
		return records.CaseRandom
	}
	return s.Inputs.Case
}

// Lengths returns the (n, m) pairs.
func (s *Spec) Lengths() [][2]int {
	out := make([][2]int, len(s.Inputs.N))
	for i, n := range s.Inputs.N {
		m := n
		if len(s.Inputs.M) > 0 {
			m = s.Inputs.M[i]
		}
		out[i] = [2]int{n, m}
	}
	return out
}

// NumPoints is the size of the grid.
func (s *Spec) NumPoints() int {
	return len(s.Impl) * len(s.Inputs.N) * len(s.WorkersOr()) * len(s.TilesOr())
}

// Figures returns the spec's figures, or where it declares none one that
// suits its grid: time by the parameter it varies most (workers where
// they vary as much as n does, else n), a series per implementation and
// the other parameters.
func (s *Spec) Figures() []Figure {
	if len(s.Figure) > 0 {
		return s.Figure
	}
	workers := len(s.WorkersOr())
	x := DimN
	if workers > 1 && workers >= len(s.Inputs.N) {
		x = DimWorkers
	}
	f := Figure{X: x, Y: YTime, Series: []Dim{DimImpl}}
	switch {
	case x == DimWorkers && len(s.Inputs.N) > 1:
		f.Series = append(f.Series, DimN)
	case x == DimN && workers > 1:
		f.Series = append(f.Series, DimWorkers)
	}
	if len(s.TilesOr()) > 1 {
		f.Series = append(f.Series, DimTile)
	}
	return []Figure{f}
}

// joinNames lists names as an error gives the allowed ones: "a, b, c".
func joinNames[T ~string](names []T) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// Marshal returns the spec as TOML (Dir left out), to keep beside its
// records.
func (s *Spec) Marshal() ([]byte, error) { return toml.Marshal(s) }

func cmpOr(v, def []int) []int {
	if len(v) == 0 {
		return def
	}
	return v
}
