package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/levlab/levlab/internal/atomicfile"
	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/internal/sysmem"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// ErrFailed is wrapped by the error of an experiment's Measure when an
// implementation gave no answer or a wrong one: the runner records the
// point as failed, with the reason, and goes on to the next.
var ErrFailed = errors.New("failed")

// Func is an implementation written in Go: the distance of a and b, with
// the point's workers and tile side (0: its own choice).
type Func func(ctx context.Context, a, b []byte, workers, tile int) (int, error)

// Own is an experiment of one's own, ready for a Runner: the spec's grid,
// its inputs made and its answers checked by levlab. Close removes the
// files of the inputs it wrote.
type Own struct {
	Experiment
	Spec *spec.Spec
	// Log, if set, hears of long untimed work: the exact distance of a
	// large pair, which every answer is checked against.
	Log io.Writer
	// KeepGoing times every point. Unset, once an implementation fails at
	// a size (a wrong answer, a crash, a time-out), its points at larger
	// sizes (more cells) with the same workers and tile are skipped, each
	// saying why: a program that runs past the time-out at 4,000 symbols
	// would spend the time-out at every size above, and reps times over.
	KeepGoing bool

	impls map[string]ownImpl
	dir   string // the inputs' files, made on first use

	// shares holds, for each command impl, the group of spec.SharedRuns
	// it is in: each run of one is read for all, so the program runs once
	// for all of them.
	shares map[string][]string

	mu     sync.Mutex
	files  map[[2]int][2]string // (n, m) → the files of a and b
	want   map[[2]int]int       // (n, m) → the exact distance
	failed map[failKey]failure  // the smallest failure of an implementation at its workers and tile
	runs   map[runKey][]sharedRun
	taken  map[failKey]map[[2]int]int // how many of runs an impl has taken at (n, m)
}

// runKey is a point of the impls that share their runs: the first of
// them names them.
type runKey struct {
	first         string
	n, m          int
	workers, tile int
}

// sharedRun is one run of a shared command, as each impl that has not
// yet taken it reads it.
type sharedRun map[string]sharedRead

type sharedRead struct {
	res progrun.Result
	err error
	by  string // the impl that ran it, where it is another's
}

// failKey is what a failure at one size says of the larger ones: the
// implementation, at its workers and tile.
type failKey struct {
	impl          string
	workers, tile int
}

// failure is the smallest point an implementation failed at, and why.
type failure struct {
	n, m int
	why  string
}

type ownImpl struct {
	impl       spec.Impl
	fn         Func
	distanceRE *regexp.Regexp
	timeRE     *regexp.Regexp
}

// command is the implementation's command as its spec s says it now.
func (im ownImpl) command(s *spec.Spec) *progrun.Command {
	c := &progrun.Command{Args: im.impl.Command, Reading: progrun.Reading{Dir: s.Dir, Timeout: s.TimeoutOr(), Distance: im.distanceRE, Time: im.timeRE, TimeUnit: im.impl.TimeUnit}}
	for _, k := range slices.Sorted(maps.Keys(im.impl.Env)) {
		c.Env = append(c.Env, k+"="+im.impl.Env[k])
	}
	if stdin := im.impl.Stdin; stdin != "" {
		c.Stdin = &stdin
	}
	if input := im.impl.Input; input != "" {
		c.Input = &input
		c.InputName = im.impl.InputName
	}
	return c
}

// FromSpec returns the experiment s declares. funcs adds implementations
// written in Go, by name (a notebook's); each runs at every point as a
// command does, and its answer is checked the same way. It refuses what
// would fail at every point — a name one of the reports' experiments has,
// a program that cannot be run, an algorithm lev does not have or that
// refuses a point's workers or tile — naming the implementation.
func FromSpec(s *spec.Spec, funcs map[string]Func) (*Own, error) {
	if slices.ContainsFunc(All(), func(e Experiment) bool { return e.Name == s.Name }) {
		return nil, fmt.Errorf("experiments: name %q is one of the reports' experiments: choose another", s.Name)
	}
	o := &Own{Spec: s, impls: map[string]ownImpl{}, files: map[[2]int][2]string{}, want: map[[2]int]int{}, failed: map[failKey]failure{},
		shares: map[string][]string{}, runs: map[runKey][]sharedRun{}, taken: map[failKey]map[[2]int]int{}}
	if err := fitsInputs(s); err != nil {
		return nil, err
	}
	for _, im := range s.Impl {
		oi := ownImpl{impl: im}
		var err error
		if im.DistanceRegexp != "" {
			if oi.distanceRE, err = progrun.CompileRegexp("distance_regexp", im.DistanceRegexp); err != nil {
				return nil, fmt.Errorf("experiments: impl %s: %w", im.Name, err)
			}
		}
		if im.TimeRegexp != "" {
			if oi.timeRE, err = progrun.CompileRegexp("time_regexp", im.TimeRegexp); err != nil {
				return nil, fmt.Errorf("experiments: impl %s: %w", im.Name, err)
			}
		}
		switch {
		case len(im.Command) > 0:
			if err := progrun.Executable(im.Command[0], s.Dir); err != nil {
				return nil, fmt.Errorf("experiments: impl %s: %w", im.Name, err)
			}
		default:
			if err := checkAlgo(im, s); err != nil {
				return nil, err
			}
		}
		o.impls[im.Name] = oi
	}
	for _, name := range slices.Sorted(maps.Keys(funcs)) {
		if _, ok := o.impls[name]; ok {
			return nil, fmt.Errorf("experiments: Go implementation %q has the name of the spec's impl", name)
		}
		if funcs[name] == nil {
			return nil, fmt.Errorf("experiments: Go implementation %q is nil", name)
		}
		o.impls[name] = ownImpl{impl: spec.Impl{Name: name}, fn: funcs[name]}
	}
	for _, g := range s.SharedRuns() {
		for _, name := range g {
			o.shares[name] = g
		}
	}
	names := append(s.ImplNames(), slices.Sorted(maps.Keys(funcs))...)
	title := s.Title
	if title == "" {
		title = s.Name
	}
	o.Experiment = Experiment{
		Name: s.Name, Source: records.SourceOwn, Title: title,
		Points: func(Scale) []Point {
			// A run starts by asking for its points: the runs an earlier
			// run of o made for impls to share are not this run's.
			o.mu.Lock()
			clear(o.runs)
			clear(o.taken)
			o.mu.Unlock()
			var pts []Point
			for _, name := range names {
				for _, nm := range s.Lengths() {
					for _, w := range s.WorkersOr() {
						for _, t := range s.TilesOr() {
							pts = append(pts, Point{Algorithm: name, Workers: w, Tile: t, Case: s.CaseOr(), LenA: nm[0], LenB: nm[1]})
						}
					}
				}
			}
			return pts
		},
		Inputs:  o.inputs,
		Measure: o.measure,
		MadeBy: func(p Point) string {
			return s.MadeBy(o.impls[p.Algorithm].impl)
		},
	}
	return o, nil
}

// Shared returns the groups of the spec's impls that share their runs
// (spec.SharedRuns): each run of the program is read for all of a group.
func (o *Own) Shared() [][]string { return o.Spec.SharedRuns() }

// MaxOwnCells bounds n·m of a spec's length pair: levlab computes each
// pair's exact distance to check the answers (at some tens of billions of
// cells a second and core where the strings differ), and the programs it
// times are often quadratic, at about a billion a second.
const MaxOwnCells = 1e14

// inputBytes is the memory one length pair of a spec takes while it is
// timed: the two strings, the exact distance's tables beside them, and
// the files a command reads (in the page cache, so counted too).
func inputBytes(n, m int) int64 { return 4 * (int64(n) + int64(m)) }

// fitsInputs refuses a spec whose largest strings would not fit in the
// memory this process may use (ulimit -v, the cgroup, the machine's
// available memory), naming the lengths, what they need and what there is.
func fitsInputs(s *spec.Spec) error {
	var big [2]int
	for _, nm := range s.Lengths() {
		if cells := float64(nm[0]) * float64(nm[1]); cells > MaxOwnCells {
			return fmt.Errorf("experiments: %s: n = %d, m = %d: the exact distance every answer is checked against has %.3g cells; at most %.0e",
				s.Name, nm[0], nm[1], cells, float64(MaxOwnCells))
		}
		if inputBytes(nm[0], nm[1]) > inputBytes(big[0], big[1]) {
			big = nm
		}
	}
	room := sysmem.Room()
	need := inputBytes(big[0], big[1])
	if room.Bytes == sysmem.Unlimited || need <= room.Bytes/2 {
		return nil
	}
	return fmt.Errorf("experiments: %s: strings of %d and %d symbols need about %s of memory, and %s leaves this process %s: "+
		"at most half of that is taken for inputs; choose shorter lengths", s.Name, big[0], big[1], sysmem.Size(need), room.By, sysmem.Size(room.Bytes))
}

// checkAlgo refuses an algorithm lev does not have, or one that refuses a
// workers or tile value of the grid.
func checkAlgo(im spec.Impl, s *spec.Spec) error {
	alg, err := lev.ParseAlgorithm(im.Algo)
	if err != nil {
		return fmt.Errorf("experiments: impl %s: %w", im.Name, err)
	}
	for _, w := range s.WorkersOr() {
		for _, t := range s.TilesOr() {
			opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(w)}
			if t != 0 {
				opts = append(opts, lev.WithTile(t))
			}
			// Only a value lev refuses: a spec is no worse for a GPU this machine lacks.
			if err := lev.Check(opts...); errors.Is(err, lev.ErrInvalidOption) {
				hint := ""
				if w > 1 && !alg.Parallel() {
					var par []string
					for _, a := range lev.Algorithms() {
						if a.Parallel() && !a.GPU() {
							par = append(par, a.String())
						}
					}
					hint = "; [params] workers asks every algo for more than one worker: name one that takes them (" + strings.Join(par, ", ") + ")"
				}
				return fmt.Errorf("experiments: impl %s (algo %s) at workers %d, tile %d: %w%s", im.Name, im.Algo, w, t, err, hint)
			}
		}
	}
	return nil
}

// WriteSpec keeps the spec in dir as NAME.toml, whole or not at all, for
// the report: its figures and names. A Go function is kept as its name.
func (o *Own) WriteSpec(dir string) error {
	b, err := o.Spec.Marshal()
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, o.Name+".toml"), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// Close removes the files of the inputs.
func (o *Own) Close() error {
	if o.dir == "" {
		return nil
	}
	return os.RemoveAll(o.dir)
}

// NoteFailed records that p's implementation failed, why: unless
// KeepGoing, its points at larger sizes with the same workers and tile
// are skipped. measure notes its own failures; a runner's Progress notes
// those an earlier run recorded, which are not measured again.
func (o *Own) NoteFailed(p Point, why string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	k := failKey{p.Algorithm, p.Workers, p.Tile}
	if f, ok := o.failed[k]; !ok || cells(p.LenA, p.LenB) < cells(f.n, f.m) {
		o.failed[k] = failure{p.LenA, p.LenB, why}
	}
}

func cells(n, m int) int64 { return int64(n) * int64(m) }

// skipAfterFailure returns an error wrapping ErrSkipped where p's
// implementation failed at a smaller size with the same workers and
// tile, saying where and why; else nil.
func (o *Own) skipAfterFailure(p Point) error {
	if o.KeepGoing {
		return nil
	}
	o.mu.Lock()
	f, ok := o.failed[failKey{p.Algorithm, p.Workers, p.Tile}]
	o.mu.Unlock()
	if !ok || cells(p.LenA, p.LenB) <= cells(f.n, f.m) {
		return nil
	}
	at := fmt.Sprintf("%d worker", p.Workers)
	if p.Workers != 1 {
		at += "s"
	}
	if p.Tile != 0 {
		at += fmt.Sprintf(", tile %d", p.Tile)
	}
	return fmt.Errorf("%w: %s failed at n = %d, m = %d with %s (%s), so larger sizes are not timed; --keep-going times them anyway",
		ErrSkipped, p.Algorithm, f.n, f.m, at, strings.TrimPrefix(f.why, ErrFailed.Error()+": "))
}

// inputs makes a point's strings (the same for every implementation and
// parameter at one length pair), and once a length pair their files and
// exact distance, outside the timing. A point past a failure of its
// implementation (skipAfterFailure) is skipped before its strings are
// made.
func (o *Own) inputs(p Point) (a, b []byte, err error) {
	if err := o.skipAfterFailure(p); err != nil {
		return nil, nil, err
	}
	if alpha := o.Spec.Inputs.Alphabet; alpha != "" {
		rng := inputRand(o.Name, Point{Case: p.Case, LenA: p.LenA, LenB: p.LenB})
		a, b = random(rng, p.LenA, alpha), random(rng, p.LenB, alpha)
	} else if a, b, err = Inputs(Experiment{Name: o.Name}, Point{Case: p.Case, LenA: p.LenA, LenB: p.LenB}); err != nil {
		return nil, nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	nm := [2]int{p.LenA, p.LenB}
	if _, ok := o.files[nm]; !ok && o.needFiles() {
		if o.dir == "" {
			if o.dir, err = os.MkdirTemp("", "levlab-"+o.Name+"-"); err != nil {
				return nil, nil, err
			}
		}
		fa := filepath.Join(o.dir, fmt.Sprintf("a-%d-%d", p.LenA, p.LenB))
		fb := filepath.Join(o.dir, fmt.Sprintf("b-%d-%d", p.LenA, p.LenB))
		if err := os.WriteFile(fa, a, 0o644); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(fb, b, 0o644); err != nil {
			return nil, nil, err
		}
		o.files[nm] = [2]string{fa, fb}
	}
	return a, b, nil
}

// exact returns the exact distance of a point's strings, computed once a
// length pair (at the point's first call, the warm-up: outside every
// timing) under ctx, so that an interrupted run stops in it too.
func (o *Own) exact(ctx context.Context, p Point, a, b []byte) (int, error) {
	nm := [2]int{p.LenA, p.LenB}
	o.mu.Lock()
	defer o.mu.Unlock()
	if d, ok := o.want[nm]; ok {
		return d, nil
	}
	if o.Log != nil && int64(len(a))*int64(len(b)) >= 1e10 {
		fmt.Fprintf(o.Log, "levlab: computing the exact distance of %d×%d to check the answers against (not timed)\n", len(a), len(b))
	}
	d, err := lev.Distance(a, b, lev.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("experiments: %s: the exact distance of %d×%d: %w", o.Name, len(a), len(b), err)
	}
	o.want[nm] = d
	return d, nil
}

// run runs cmd, p's implementation's command, on c; or, where other
// impls share its runs (spec.SharedRuns) and one of them ran the program at
// p's point more times than p's impl has taken so far, reads the next of
// those runs as p's impl reads its output, which is a run of its own
// program on the same strings and parameters, and names the impl that ran
// it.
func (o *Own) run(ctx context.Context, p Point, cmd *progrun.Command, c progrun.Case) (progrun.Result, string, error) {
	group := o.shares[p.Algorithm]
	files := &progrun.Files{Dir: filepath.Dir(c.FileA)}
	if len(group) == 0 {
		res, err := cmd.Run(ctx, files, c)
		return res, "", err
	}
	k := runKey{group[0], p.LenA, p.LenB, p.Workers, p.Tile}
	tk, nm := failKey{p.Algorithm, p.Workers, p.Tile}, [2]int{p.LenA, p.LenB}
	o.mu.Lock()
	if o.taken[tk] == nil {
		o.taken[tk] = map[[2]int]int{}
	}
	i := o.taken[tk][nm]
	if i < len(o.runs[k]) {
		o.taken[tk][nm]++
		r := o.runs[k][i][p.Algorithm]
		delete(o.runs[k][i], p.Algorithm) // each reading is taken once
		o.mu.Unlock()
		return r.res, r.by, r.err
	}
	o.mu.Unlock()
	var others []string
	for _, name := range group {
		if name != p.Algorithm {
			others = append(others, name)
			oc := o.impls[name].command(o.Spec)
			cmd.Also = append(cmd.Also, oc.Reading)
		}
	}
	res, err := cmd.Run(ctx, files, c)
	if kind := progrun.KindOf(err); kind == progrun.Inputs || kind == progrun.Canceled || ctx.Err() != nil {
		return res, "", err // not a run of the program to read again
	}
	run := sharedRun{} // the others' readings: this impl's is returned
	for j, name := range others {
		r := sharedRead{res: res, err: err, by: p.Algorithm} // a run that did not start read nothing
		r.res.Also = nil
		if j < len(res.Also) {
			r.res, r.err = res.Also[j].Result, res.Also[j].Err
		}
		run[name] = r
	}
	o.mu.Lock()
	o.runs[k] = append(o.runs[k], run)
	o.taken[tk][nm] = len(o.runs[k])
	o.mu.Unlock()
	return res, "", err
}

func (o *Own) needFiles() bool {
	for _, im := range o.impls {
		if len(im.impl.Command) > 0 {
			return true
		}
	}
	return false
}

// measure times one run of the point's implementation and checks its
// answer: a wrong one, or none, is an error wrapping ErrFailed.
func (o *Own) measure(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
	im, ok := o.impls[p.Algorithm]
	if !ok {
		return Measurement{}, fmt.Errorf("experiments: %s: no implementation %q", o.Name, p.Algorithm)
	}
	want, err := o.exact(ctx, p, a, b)
	if err != nil {
		return Measurement{}, err
	}
	o.mu.Lock()
	files := o.files[[2]int{p.LenA, p.LenB}]
	o.mu.Unlock()
	var m Measurement
	switch {
	case len(im.impl.Command) > 0:
		// The strings' files are the length pair's, written once; the
		// input file is written afresh each run, outside its timing: the
		// template may hold the point's workers and tile.
		c := progrun.Case{A: a, B: b, N: p.LenA, M: p.LenB, Workers: p.Workers, Tile: p.Tile, FileA: files[0], FileB: files[1],
			InputName: fmt.Sprintf("input-%s-%d-%d-%d-%d", p.Algorithm, p.LenA, p.LenB, p.Workers, p.Tile)}
		cmd := im.command(o.Spec)
		res, from, err := o.run(ctx, p, cmd, c)
		if progrun.KindOf(err) == progrun.Inputs {
			return m, fmt.Errorf("experiments: %s: writing its input file: %w", p.Algorithm, err)
		}
		if err := ctx.Err(); err != nil {
			return m, fmt.Errorf("experiments: %s: %w", p.Algorithm, err)
		}
		if err != nil {
			o.NoteFailed(p, err.Error())
			return m, fmt.Errorf("%w: %s", ErrFailed, err)
		}
		if res.Distance != want {
			why := fmt.Sprintf("answered %d on the line %s, want %d", res.Distance, progrun.QuoteNumber(res.Line, res.Distance), want)
			if took := cmd.TookFileNames(res.Distance, filepath.Dir(files[0]), c); took != "" {
				why += ": " + took
			}
			o.NoteFailed(p, why)
			return Measurement{}, fmt.Errorf("%w: %s", ErrFailed, why)
		}
		m = Measurement{Seconds: res.Wall, Distance: res.Distance, AllocBytes: res.PeakRSS, CPUSeconds: res.CPU, Ran: filepath.Base(im.impl.Command[0]), RanWorkers: p.Workers, ReadFrom: from}
		if im.timeRE != nil {
			m.Seconds = res.Kernel
		}
	case im.fn != nil:
		clk := startClock()
		d, err := im.fn(ctx, a, b, p.Workers, p.Tile)
		m.Seconds, m.AllocBytes = clk.stop()
		m.CPUSeconds = clk.cpu
		if cerr := ctx.Err(); cerr != nil {
			return Measurement{}, fmt.Errorf("experiments: %s: %w", p.Algorithm, cerr)
		}
		if err != nil {
			o.NoteFailed(p, err.Error())
			return Measurement{}, fmt.Errorf("%w: %v", ErrFailed, err)
		}
		m.Distance, m.Ran, m.RanWorkers = d, "go", p.Workers
	default:
		var err error
		m, err = Measure(ctx, Point{Kind: Distance, Algorithm: im.impl.Algo, Workers: p.Workers, Tile: p.Tile, Case: p.Case, LenA: p.LenA, LenB: p.LenB}, a, b)
		if err != nil {
			return m, err
		}
	}
	if m.Distance != want {
		why := fmt.Sprintf("answered %d, want %d", m.Distance, want)
		o.NoteFailed(p, why)
		return Measurement{}, fmt.Errorf("%w: %s", ErrFailed, why)
	}
	return m, nil
}
