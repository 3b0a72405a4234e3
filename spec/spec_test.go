package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const good = `name  = "my-omp"
title = "Mine beside levlab"
reps  = 5
timeout = "30s"

[inputs]
alphabet = "ACGT"
n = [1000, 5000]

[params]
workers = [1, 2, 4]

[[impl]]
name    = "mine"
command = ["./ed_omp", "{a}", "{b}"]
env     = { OMP_NUM_THREADS = "{workers}" }
time_regexp = 'kernel ([0-9.]+) s'

[[impl]]
name = "levlab"
algo = "myers-parallel"

[[figure]]
x        = "workers"
y        = "speedup"
baseline = "levlab"
series   = ["impl", "n"]
`

func TestParseGood(t *testing.T) {
	s, err := Parse("my.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "my-omp" || s.RepsOr() != 5 || s.TimeoutOr().String() != "30s" || s.CaseOr() != "random" {
		t.Errorf("name %q reps %d timeout %v case %q", s.Name, s.RepsOr(), s.TimeoutOr(), s.CaseOr())
	}
	if got := s.Lengths(); !slices.Equal(got, [][2]int{{1000, 1000}, {5000, 5000}}) {
		t.Errorf("lengths %v", got)
	}
	if s.NumPoints() != 2*2*3 {
		t.Errorf("NumPoints %d, want 12", s.NumPoints())
	}
	if s.Impl[0].Env["OMP_NUM_THREADS"] != "{workers}" || s.Figure[0].Baseline != "levlab" {
		t.Errorf("impl %+v figure %+v", s.Impl[0], s.Figure[0])
	}
	// What Marshal writes reads back the same.
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("kept.toml", b)
	if err != nil {
		t.Fatalf("the marshalled spec does not read back: %v\n%s", err, b)
	}
	if back.Name != s.Name || len(back.Impl) != 2 || back.Impl[0].Env["OMP_NUM_THREADS"] != "{workers}" || !slices.Equal(back.Figure[0].Series, s.Figure[0].Series) {
		t.Errorf("read back %+v", back)
	}
}

// Every bad spec is an *Error naming the file, the line where there is
// one, and what is wrong in words a user acts on.
func TestParseBad(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("the good spec has no %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for _, c := range []struct {
		name, text string
		line       int
		want       []string
	}{
		{"syntax", replace(`reps  = 5`, `reps  = `), 3, []string{"column"}},
		{"unknown top key", replace(`reps  = 5`, `repz  = 5`), 3, []string{`unknown key "repz"`, "allowed at the top: name, title, reps, timeout, inputs, params, impl, figure"}},
		{"unknown inputs key", replace(`alphabet = "ACGT"`, `alfabet = "ACGT"`), 7, []string{`unknown key "inputs.alfabet"`, "in [inputs]", "case, alphabet, n, m"}},
		{"unknown impl key", replace(`name = "levlab"`, `name = "levlab"`+"\nalgorithm = \"x\""), 0, []string{`unknown key "impl.algorithm"`, "name, command, env, algo, distance_regexp, time_regexp"}},
		{"no name", replace(`name  = "my-omp"`, ``), 0, []string{"no name"}},
		{"name a path", replace(`name  = "my-omp"`, `name  = "../x"`), 1, []string{`name "../x" cannot name a file`}},
		{"name a folder", replace(`name  = "my-omp"`, `name  = "a/b"`), 1, []string{`cannot name a file`}},
		{"empty n", replace(`n = [1000, 5000]`, `n = []`), 8, []string{"n is empty"}},
		{"negative n", replace(`n = [1000, 5000]`, `n = [-1]`), 8, []string{"length -1"}},
		{"empty workers", replace(`workers = [1, 2, 4]`, `workers = []`), 11, []string{"workers = []"}},
		{"zero workers", replace(`workers = [1, 2, 4]`, `workers = [0]`), 11, []string{"workers 0"}},
		{"bad case", replace(`alphabet = "ACGT"`, `case = "randm"`), 7, []string{`case = "randm"`, "random, dna"}},
		{"bad timeout", replace(`timeout = "30s"`, `timeout = "soon"`), 4, []string{`timeout = "soon"`}},
		{"both command and algo", replace(`algo = "myers-parallel"`, `algo = "myers-parallel"`+"\ncommand = [\"x\"]"), 0, []string{`impl "levlab": give command`}},
		{"algo and an empty command", replace(`algo = "myers-parallel"`, `algo = "myers-parallel"`+"\ncommand = []"), 0, []string{`impl "levlab": command = []`}},
		{"neither", replace(`algo = "myers-parallel"`, ``), 0, []string{`impl "levlab": give command`}},
		{"bad placeholder", replace(`"{b}"]`, `"{c}"]`), 15, []string{"{c}", "no placeholder", "{a} {b} {n} {m} {workers} {tile}"}},
		{"bad placeholder in env", replace(`"{workers}" }`, `"{threads}" }`), 16, []string{"{threads}"}},
		{"twice", replace(`name = "levlab"`, `name = "mine"`), 20, []string{`impl "mine" is named twice`}},
		{"impl name", replace(`name = "levlab"`, `name = "<b>x</b>"`), 20, []string{`impl name "<b>x</b>"`}},
		{"regexp without group", replace(`'kernel ([0-9.]+) s'`, `'kernel [0-9.]+ s'`), 17, []string{"has no group"}},
		{"regexp that does not compile", replace(`'kernel ([0-9.]+) s'`, `'kernel ([0-9.]+ s'`), 17, []string{"time_regexp", "missing closing"}},
		{"bad x", replace(`x        = "workers"`, `x        = "threads"`), 24, []string{`x = "threads"`, "workers, tile, n, m"}},
		{"bad y", replace(`y        = "speedup"`, `y        = "fast"`), 25, []string{`y = "fast"`}},
		{"baseline unknown", replace(`baseline = "levlab"`, `baseline = "theirs"`), 26, []string{`baseline "theirs" is no implementation`, "mine, levlab"}},
		{"speedup without baseline", replace(`baseline = "levlab"`, ``), 25, []string{"needs baseline", "over its own one worker"}},
		{"series is x", replace(`series   = ["impl", "n"]`, `series   = ["impl", "workers"]`), 27, []string{"is the x axis"}},
		{"no impl", good[:strings.Index(good, "[[impl]]")], 0, []string{"no [[impl]]"}},
		{"reps negative", replace(`reps  = 5`, `reps  = -1`), 3, []string{"reps = -1", "1 to 1000", "0 or absent: the default, 10"}},
		{"reps too many", replace(`reps  = 5`, `reps  = 1000000000`), 3, []string{"reps = 1000000000", "1 to 1000"}},
		{"NUL in an argument", replace(`"{b}"]`, `"{b}\u0000x"]`), 15, []string{`impl "mine"`, `command argument 3 "{b}\x00x"`, "NUL"}},
		{"NUL in the program", replace(`"./ed_omp"`, `"./ed\u0000omp"`), 15, []string{`command argument 1 "./ed\x00omp"`, "NUL"}},
		{"NUL in an env value", replace(`"{workers}" }`, `"{workers}\u0000" }`), 16, []string{`env "OMP_NUM_THREADS" = "{workers}\x00"`, "NUL"}},
		{"= in an env key", replace(`OMP_NUM_THREADS = "{workers}"`, `"A=B" = "1"`), 16, []string{`env key "A=B"`, "any characters but = and NUL"}},
		{"empty env key", replace(`OMP_NUM_THREADS = "{workers}"`, `"" = "1"`), 16, []string{`env key ""`, "not empty"}},
		{"NUL in an env key", replace(`OMP_NUM_THREADS = "{workers}"`, `"A\u0000" = "1"`), 16, []string{`env key "A\x00"`, "NUL"}},
		{"ESC in the title", replace(`title = "Mine beside levlab"`, `title = "Mine \u001b[31mred"`), 2, []string{"title", "U+001B", "character 6", "control"}},
		{"NUL in the title", replace(`title = "Mine beside levlab"`, `title = "\u0000"`), 2, []string{"title", "U+0000", "character 1"}},
		{"bidi override in the title", replace(`title = "Mine beside levlab"`, `title = "Mine \u202Eslvl"`), 2, []string{"title", "U+202E", "character 6"}},
		{"newline in the title", replace(`title = "Mine beside levlab"`, `title = "Mine\nlevlab"`), 2, []string{"title", "U+000A", "character 5"}},
		{"bell in a figure title", replace(`series   = ["impl", "n"]`, `series   = ["impl", "n"]`+"\n"+`title    = "Speedup\u0007"`), 28, []string{"figure 1", "title", "U+0007", "character 8"}},
		{"ESC in the name", replace(`name  = "my-omp"`, `name  = "my\u001b"`), 1, []string{`name "my\x1b" cannot name a file`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("my.toml", []byte(c.text))
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want an *Error", err, err)
			}
			if se.File != "my.toml" || (c.line > 0 && se.Line != c.line) {
				t.Errorf("at %s:%d, want my.toml:%d: %v", se.File, se.Line, c.line, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.toml")
	if err := os.WriteFile(p, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dir != dir {
		t.Errorf("Dir %q, want %q", s.Dir, dir)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.toml")); err == nil || !strings.Contains(err.Error(), "none.toml") {
		t.Errorf("a missing file: %v", err)
	}
}

// A spec with no figures gets one that suits its grid.
func TestDefaultFigures(t *testing.T) {
	s := &Spec{Name: "x", Inputs: Inputs{N: []int{1, 2}}, Params: Params{Workers: []int{1, 2}}, Impl: []Impl{{Name: "a", Algo: "myers"}}}
	f := s.Figures()
	if len(f) != 1 || f[0].X != "workers" || f[0].Y != "time" || !slices.Equal(f[0].Series, []Dim{DimImpl, DimN}) {
		t.Errorf("figures %+v", f)
	}
	s.Params.Workers = nil
	if f := s.Figures(); f[0].X != "n" || !slices.Equal(f[0].Series, []Dim{DimImpl}) {
		t.Errorf("one worker: figures %+v, want x = n", f)
	}
	// Three lengths and two counts of workers: time by n, a line each
	// implementation and count, not lines of two points.
	s.Inputs.N, s.Params.Workers = []int{1, 2, 3}, []int{1, 2}
	if f := s.Figures(); f[0].X != "n" || !slices.Equal(f[0].Series, []Dim{DimImpl, DimWorkers}) {
		t.Errorf("3 lengths, 2 worker counts: figures %+v, want x = n, series impl and workers", f)
	}
}

// reps = 0, or none, is the default; 1 to MaxReps are taken as they are.
func TestParseReps(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{{"", DefaultReps}, {"reps = 0", DefaultReps}, {"reps = 1", 1}, {fmt.Sprintf("reps = %d", MaxReps), MaxReps}} {
		s, err := Parse("my.toml", []byte(strings.Replace(good, "reps  = 5", c.line, 1)))
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if s.RepsOr() != c.want {
			t.Errorf("%q: RepsOr %d, want %d", c.line, s.RepsOr(), c.want)
		}
	}
}

// A title with a tab, or letters of any script, is taken.
func TestParseTitle(t *testing.T) {
	for _, title := range []string{"Mine\tbeside levlab", "Édition — 編集距離 ✓"} {
		if _, err := Parse("my.toml", []byte(strings.Replace(good, "Mine beside levlab", title, 1))); err != nil {
			t.Errorf("title %q: %v", title, err)
		}
	}
	// A spec made in Go may hold what no TOML file can.
	s, err := Parse("my.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	s.Title = "Mine \xff"
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("a title that is not UTF-8: %v", err)
	}
}

// TestSharedRuns: impls whose commands differ only in how their output is
// read are grouped in the spec's order; another word, variable or stdin,
// or an algorithm, is a run of its own, and so are impls that read one
// command the same way.
func TestSharedRuns(t *testing.T) {
	s, err := Parse("shared.toml", []byte(`name = "shared"
[inputs]
n = [100]
[[impl]]
name = "i"
command = ["./all", "{a}", "{b}"]
distance_regexp = 'i:(\d+)'
[[impl]]
name = "lev"
algo = "myers"
[[impl]]
name = "env"
command = ["./all", "{a}", "{b}"]
env = { OMP_NUM_THREADS = "1" }
[[impl]]
name = "pt"
command = ["./all", "{a}", "{b}"]
distance_regexp = 'pt:(\d+)'
time_regexp = 'pt-([0-9.]+)'
time_unit = "ms"
[[impl]]
name = "menu"
command = ["./all", "{a}", "{b}"]
stdin = "1\n"
[[impl]]
name = "pd"
command = ["./all", "{a}", "{b}"]
[[impl]]
name = "other"
command = ["./all", "{b}", "{a}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.SharedRuns(); len(got) != 1 || !slices.Equal(got[0], []string{"i", "pt", "pd"}) {
		t.Errorf("SharedRuns() = %q, want [[i pt pd]]", got)
	}
	// The same program timed twice, read the same way (time_unit "s" is
	// the default's): each runs it itself; the others still share.
	s.Impl = append(s.Impl, Impl{Name: "twice", Command: []string{"./all", "{a}", "{b}"}, TimeUnit: "s"})
	if got := s.SharedRuns(); len(got) != 1 || !slices.Equal(got[0], []string{"i", "pt"}) {
		t.Errorf("with pd read twice: SharedRuns() = %q, want [[i pt]]", got)
	}
}
