package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// DefaultReps is the number of timed repetitions per point when
// Runner.Reps is 0: ten, as the reports timed.
const DefaultReps = 10

// MaxReps bounds Runner.Reps, as it bounds a spec's reps: past it a count
// is a typo, and its plan alone would take memory without bound.
const MaxReps = spec.MaxReps

// The runner calls these through variables so that its tests can put fakes
// in their place.
var (
	measureFn = Measure
	inputsFn  = Inputs
)

// Runner times experiments and appends their records to one CSV file per
// experiment, Dir/<experiment>.csv.
//
// For each point it makes the inputs (untimed), calls Measure once to warm
// up (not recorded), then calls Measure for each missing repetition and
// appends one Record per call. The timed region is Measure's own: the
// runner does nothing inside it. Between calls it builds the record,
// writes it as one line (one write(2), so a killed process keeps every
// finished row) and reports progress; it syncs the file once per point,
// so a power cut loses at most the point in progress.
//
// Resuming: a run reads which repetitions of each point (same experiment,
// scale and Point.Key) the file already holds as "ok" rows and times only
// the missing ones among 1..Reps, each under its own number, so that a row
// deleted from the middle of a file is measured again as itself; a point
// with all of 1..Reps is not run again. A point recorded as skipped is tried again (the
// machine may have changed), but a skipped row is written only when the
// reason differs from every one already recorded for that point, so
// repeated runs do not pile up copies. Once a skipped point runs, its old
// skipped row stays in the file as history; readers take a point's ok rows
// over its skipped rows.
type Runner struct {
	// Scale selects the points; "" means Quick.
	Scale Scale
	// Reps is the number of timed repetitions per point; 0 means
	// DefaultReps.
	Reps int
	// Dir holds the CSV files, one per experiment; it is created if
	// needed. The caller chooses it, e.g. results/<machine>/<scale>.
	Dir string
	// Fresh starts every file anew. An existing file is never deleted: it
	// is renamed to <name>.csv.<UTC time>.bak first.
	Fresh bool
	// Progress, if set, is called after each recorded repetition and for
	// each point finished without timing; it runs between timed calls.
	Progress func(Progress)
	// Out, if set, shows progress: a bar when it is a terminal, else one
	// line per finished point.
	Out io.Writer
	// Shard and Shards, with Shards > 0, run shard Shard (from 0) of
	// Shards: the points of exps, counted in order across them, whose
	// count is Shard modulo Shards, each experiment's into
	// <name>.shard-<Shard>-of-<Shards>.csv. The shards of a run may share
	// Dir (each holds a lock of its own) or not; a reader of the folder
	// reads them all as one run.
	Shard, Shards int
}

// fileName is the CSV file of experiment name: name.csv, or the shard's.
func (r *Runner) fileName(name string) string {
	if r.Shards > 0 {
		return fmt.Sprintf("%s.shard-%d-of-%d.csv", name, r.Shard, r.Shards)
	}
	return name + ".csv"
}

// ofShard keeps, of every grid, the points of the runner's shard.
func (r *Runner) ofShard(grids [][]Point) {
	if r.Shards <= 0 {
		return
	}
	n := 0
	for i, g := range grids {
		var kept []Point
		for _, p := range g {
			if n%r.Shards == r.Shard {
				kept = append(kept, p)
			}
			n++
		}
		grids[i] = kept
	}
}

// Summary says what a Run did.
type Summary struct {
	Files   []string // the CSV files of the experiments run, in order
	Records int      // rows appended: timed repetitions, skipped and failed points
	Skipped int      // points skipped on this machine
	Failed  []string // points whose implementation failed (ErrFailed), "experiment point: why", this run's and earlier ones'
	Resumed int      // points that had repetitions recorded by an earlier run
}

// pointPlan is one point of a run and what its file already holds.
type pointPlan struct {
	p      Point
	have   map[int]bool    // the reps of its ok rows
	notes  map[string]bool // reasons recorded on skipped rows
	failed string          // the note of a failed row, "" when none
}

// expPlan is one experiment of a run.
type expPlan struct {
	exp    Experiment
	path   string
	points []pointPlan
	app    *records.Appender
}

// Run times every experiment of exps in order and returns what it did.
// On cancellation it stops between repetitions and returns an error
// wrapping ctx's, after everything finished so far is in the files; a
// later Run resumes. An error from Measure other than ErrSkipped stops the
// run and is returned naming the experiment and point. Before timing
// anything, Run checks its settings, that Dir can be written, and that
// every existing file reads cleanly and has Record's header; a file that
// does not is reported (file and line) and left untouched. Run holds Dir
// (records.LockDir) until it returns: a second Run on the same folder
// fails at once with an error wrapping records.ErrLocked that names the
// first.
func (r *Runner) Run(ctx context.Context, exps []Experiment) (sum Summary, err error) {
	scale, reps, err := r.settings()
	if err != nil {
		return sum, err
	}
	grids, err := pointsOf(exps, scale)
	if err != nil {
		return sum, err
	}
	r.ofShard(grids)
	if err := writableDir(r.Dir); err != nil {
		return sum, err
	}
	// One writer per folder (or per shard: its files are its own): a
	// second Run would read the same resume counts and time every point
	// again, doubling the rows.
	lockName := records.LockName
	if r.Shards > 0 {
		lockName = fmt.Sprintf(".levlab.shard-%d-of-%d.lock", r.Shard, r.Shards)
	}
	lock, err := records.LockDirAs(r.Dir, lockName)
	if err != nil {
		return sum, err
	}
	defer func() {
		if uerr := lock.Unlock(); err == nil && uerr != nil {
			err = uerr
		}
	}()
	plans, err := r.open(exps, grids, scale)
	defer func() {
		for _, pl := range plans {
			if pl.app != nil {
				if cerr := pl.app.Close(); err == nil && cerr != nil {
					err = cerr
				}
			}
		}
	}()
	if err != nil {
		return sum, err
	}

	todo, total := 0, 0
	for _, pl := range plans {
		sum.Files = append(sum.Files, pl.path)
		total += len(pl.points)
		for _, pp := range pl.points {
			todo += len(pp.missing(reps))
			if len(pp.have) > 0 {
				sum.Resumed++
			}
		}
	}
	s := &session{
		r: r, ctx: ctx, scale: scale, reps: reps, machine: CurrentMachine(),
		sum: &sum, total: total, disp: newDisplay(r.Out, todo),
	}
	defer s.disp.finish()
	for _, pl := range plans {
		for _, pp := range pl.points {
			if err := s.point(pl, pp); err != nil {
				return sum, err
			}
		}
	}
	return sum, nil
}

// settings checks the Runner's fields and applies their defaults.
func (r *Runner) settings() (Scale, int, error) {
	scale := r.Scale
	if scale == "" {
		scale = Quick
	}
	if _, err := ParseScale(string(scale)); err != nil {
		return "", 0, err
	}
	reps := r.Reps
	switch {
	case reps < 0 || reps > MaxReps:
		return "", 0, fmt.Errorf("experiments: Reps is %d; it must be from 0 (the default, %d) to %d", reps, DefaultReps, MaxReps)
	case reps == 0:
		reps = DefaultReps
	}
	if r.Dir == "" {
		return "", 0, errors.New("experiments: Dir is empty; name the folder the CSV files go to")
	}
	if r.Shards < 0 || r.Shards > 0 && (r.Shard < 0 || r.Shard >= r.Shards) {
		return "", 0, fmt.Errorf("experiments: shard %d of %d: want Shards >= 0 and, with Shards > 0, Shard from 0 to Shards-1", r.Shard, r.Shards)
	}
	return scale, reps, nil
}

// pointsOf returns each experiment's points, checking that names can be
// file names and that no point appears twice (resuming counts rows by
// point).
func pointsOf(exps []Experiment, scale Scale) ([][]Point, error) {
	grids := make([][]Point, len(exps))
	seen := make(map[string]bool, len(exps))
	for i, e := range exps {
		if e.Name == "" || e.Name == "." || e.Name == ".." || strings.ContainsAny(e.Name, `/\`) {
			return nil, fmt.Errorf("experiments: experiment name %q cannot name a file", e.Name)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("experiments: experiment %s is given twice", e.Name)
		}
		seen[e.Name] = true
		if e.Points == nil {
			return nil, fmt.Errorf("experiments: experiment %s has no Points function", e.Name)
		}
		grids[i] = e.Points(scale)
		keys := make(map[string]bool, len(grids[i]))
		for _, p := range grids[i] {
			k := p.Key()
			if keys[k] {
				return nil, fmt.Errorf("experiments: experiment %s has point %s twice at scale %s", e.Name, k, scale)
			}
			keys[k] = true
		}
	}
	return grids, nil
}

// writableDir creates dir if needed and checks that a file can be made in
// it, so that a bad folder is reported before anything is timed.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("experiments: cannot create the output folder %s: %s", dir, notAFolder(dir, err))
	}
	f, err := os.CreateTemp(dir, ".levlab-write-check-*")
	if err != nil {
		return fmt.Errorf("experiments: the output folder %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("experiments: the output folder %s: %w", dir, err)
	}
	return nil
}

// notAFolder says why dir could not be made a folder: what stands at its
// path, where that is the cause, else err.
func notAFolder(dir string, err error) string {
	fi, lerr := os.Lstat(dir)
	switch {
	case lerr != nil:
	case fi.Mode()&os.ModeSymlink != 0:
		target, _ := os.Readlink(dir)
		if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
			return fmt.Sprintf("it is a symbolic link to %s, which does not exist (create it, or remove the link)", target)
		}
		return fmt.Sprintf("it is a symbolic link to %s, which is not a folder", target)
	case !fi.IsDir():
		return "it is a file, not a folder"
	}
	return err.Error()
}

// open reads what each experiment's file holds (or, with Fresh, moves it
// aside) and opens it for appending. Every file is checked before any
// point is timed.
func (r *Runner) open(exps []Experiment, grids [][]Point, scale Scale) ([]expPlan, error) {
	plans := make([]expPlan, 0, len(exps))
	for i, e := range exps {
		if len(grids[i]) == 0 {
			continue
		}
		pl := expPlan{exp: e, path: filepath.Join(r.Dir, r.fileName(e.Name))}
		byKey := make(map[string]*pointPlan, len(grids[i]))
		pl.points = make([]pointPlan, len(grids[i]))
		for j, p := range grids[i] {
			pl.points[j] = pointPlan{p: p}
			byKey[p.Key()] = &pl.points[j]
		}
		if r.Fresh {
			if err := moveAside(pl.path); err != nil {
				return plans, err
			}
		} else if _, err := os.Stat(pl.path); err == nil {
			recs, err := records.ReadRecords(pl.path)
			if err != nil {
				return plans, err
			}
			var others madeByOthers
			for _, rec := range recs {
				if rec.Experiment != e.Name || rec.Scale != string(scale) {
					continue
				}
				pp := byKey[pointOf(rec).Key()]
				if pp == nil {
					continue // a point no longer in the grid
				}
				if e.MadeBy != nil {
					if want := e.MadeBy(pp.p); rec.MadeBy != want {
						others.add(rec, want)
						continue
					}
				}
				switch rec.Status {
				case StatusOK:
					if pp.have == nil {
						pp.have = make(map[int]bool)
					}
					pp.have[rec.Rep] = true
				case StatusSkipped:
					if pp.notes == nil {
						pp.notes = make(map[string]bool)
					}
					pp.notes[rec.Note] = true
				case StatusFailed:
					pp.failed = rec.Note
				}
			}
			if err := others.err(e.Name, pl.path); err != nil {
				return plans, err
			}
		}
		app, err := records.OpenAppend(pl.path)
		if err != nil {
			return plans, err
		}
		pl.app = app
		plans = append(plans, pl)
	}
	return plans, nil
}

// madeByOthers gathers the records of a file that something other than
// the experiment's present definition made, by implementation.
type madeByOthers struct {
	impls []string       // in the order first seen
	rows  map[string]int // impl → its records made by something else
	was   map[string]string
	now   map[string]string
}

func (m *madeByOthers) add(rec Record, want string) {
	if m.rows == nil {
		m.rows, m.was, m.now = map[string]int{}, map[string]string{}, map[string]string{}
	}
	if m.rows[rec.Algorithm] == 0 {
		m.impls = append(m.impls, rec.Algorithm)
		m.was[rec.Algorithm], m.now[rec.Algorithm] = rec.MadeBy, want
	}
	m.rows[rec.Algorithm]++
}

// err refuses the file, naming each implementation whose records another
// definition made, or is nil when there is none. Timing such a point
// again would set two programs' times under one name, and reusing its
// records would show the other's times as this one's.
func (m *madeByOthers) err(exp, path string) error {
	if len(m.impls) == 0 {
		return nil
	}
	var parts []string
	for _, im := range m.impls {
		was := m.was[im]
		if was == "" {
			was = "not recorded (an older levlab)"
		}
		parts = append(parts, fmt.Sprintf("%s (%d rows; made by %s, now %s)", im, m.rows[im], was, m.now[im]))
	}
	return fmt.Errorf("experiments: %s: %s holds records that another definition made of %s: "+
		"the spec's command, algo, env, regular expressions, folder or inputs changed since. "+
		"They are neither reused nor mixed with new times: run afresh (levlab run --fresh keeps the old file aside as .bak) "+
		"or into another folder (--out)", exp, path, strings.Join(parts, ", "))
}

// missing returns the reps of 1..reps the point's file does not hold.
func (pp pointPlan) missing(reps int) []int {
	var out []int
	for rep := 1; rep <= reps; rep++ {
		if !pp.have[rep] {
			out = append(out, rep)
		}
	}
	return out
}

// pointOf returns the Point a record was measured at.
func pointOf(rec Record) Point {
	return Point{
		Algorithm: rec.Algorithm, Workers: rec.Workers, Tile: rec.Tile, Block: rec.Block,
		GPURatio: rec.GPURatio, Ranks: rec.Ranks, Case: rec.Case, LenA: rec.LenA, LenB: rec.LenB,
	}
}

// moveAside renames path to path.<UTC time>.bak (never over an existing
// file); a missing path is nothing to do.
func moveAside(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	for i := 0; ; i++ {
		bak := path + "." + stamp + ".bak"
		if i > 0 {
			bak = fmt.Sprintf("%s.%s-%d.bak", path, stamp, i)
		}
		if _, err := os.Lstat(bak); errors.Is(err, os.ErrNotExist) {
			if err := os.Rename(path, bak); err != nil {
				return fmt.Errorf("experiments: keeping the old results aside: %w", err)
			}
			return nil
		}
	}
}

// session is the state of one Run.
type session struct {
	r       *Runner
	ctx     context.Context
	scale   Scale
	reps    int
	machine Machine
	sum     *Summary
	done    int // points finished
	total   int
	disp    *display
}

// report sends pr to the callback; when finished it also counts the point
// and shows it.
func (s *session) report(pr Progress, finished bool, untimed int) {
	if finished {
		s.done++
	}
	pr.DonePoints, pr.TotalPoints = s.done, s.total
	if s.r.Progress != nil {
		s.r.Progress(pr)
	}
	if finished {
		s.disp.done(pr, untimed)
	}
}

// sources are where a point's repetitions came from: the implementations
// whose runs they were read from (Measurement.ReadFrom), and whether one
// ran here.
type sources struct {
	readFrom []string
	ranHere  bool
}

func (s *sources) add(m Measurement) {
	switch {
	case m.ReadFrom == "":
		s.ranHere = true
	case !slices.Contains(s.readFrom, m.ReadFrom):
		s.readFrom = append(s.readFrom, m.ReadFrom)
	}
}

// only is the implementations every repetition was read from, where none
// ran here; else nil.
func (s *sources) only() []string {
	if s.ranHere {
		return nil
	}
	return s.readFrom
}

// point runs the missing repetitions of one point.
func (s *session) point(pl expPlan, pp pointPlan) error {
	e, p := pl.exp, pp.p
	pr := Progress{Experiment: e.Name, Point: p, Reps: s.reps}
	missing := pp.missing(s.reps)
	if pp.failed != "" {
		// A failed point is not tried again: the program that failed is
		// to be fixed, and its old times are then no longer its own
		// (--fresh starts anew).
		s.sum.Failed = append(s.sum.Failed, e.Name+" "+pointLabel(p)+": "+pp.failed)
		pr.Rep, pr.Failed, pr.Note = len(pp.have), true, pp.failed+" (recorded earlier)"
		s.report(pr, true, 0)
		return nil
	}
	if len(missing) == 0 {
		pr.Rep, pr.Note = len(pp.have), noteRecorded
		s.report(pr, true, 0)
		return nil
	}
	if err := s.ctx.Err(); err != nil {
		return s.stopped(e, p, err)
	}
	s.disp.begin(e.Name, p)

	// Everything that does not change between repetitions is set here,
	// outside the loop.
	base := Record{
		Experiment: e.Name, Source: e.Source, Scale: string(s.scale),
		Algorithm: p.Algorithm, Workers: p.Workers, Tile: p.Tile, Block: p.Block,
		GPURatio: p.GPURatio, Ranks: p.Ranks, Case: p.Case, LenA: p.LenA, LenB: p.LenB,
		Cells: int64(p.LenA) * int64(p.LenB),
		CPU:   s.machine.CPU, Cores: s.machine.Cores, GPU: s.machine.GPU,
		GoVersion: s.machine.GoVersion, Commit: s.machine.Commit,
	}
	if e.MadeBy != nil {
		base.MadeBy = e.MadeBy(p)
	}

	inputs, measure := func(p Point) ([]byte, []byte, error) { return inputsFn(e, p) }, measureFn
	if e.Inputs != nil {
		inputs = e.Inputs
	}
	if e.Measure != nil {
		measure = e.Measure
	}
	a, b, err := inputs(p)
	if err != nil && !errors.Is(err, ErrSkipped) {
		return fmt.Errorf("experiments: %s, point %s: making the inputs: %w", e.Name, p.Key(), err)
	}
	timed := 0 // of missing
	var src sources
	if err == nil {
		// The warm-up is not recorded.
		var m Measurement
		m, err = measure(s.ctx, p, a, b)
		src.add(m)
	}
	for _, rep := range missing {
		if err != nil {
			break
		}
		if cerr := s.ctx.Err(); cerr != nil {
			if serr := pl.app.Sync(); serr != nil {
				return serr
			}
			return s.stopped(e, p, cerr)
		}
		var m Measurement
		if m, err = measure(s.ctx, p, a, b); err != nil {
			break
		}
		src.add(m)
		rec := base
		rec.Rep, rec.Status = rep, StatusOK
		if m.ReadFrom != "" {
			rec.Note = records.ReadFromNote(m.ReadFrom)
		}
		rec.Ran, rec.RanWorkers = m.Ran, m.RanWorkers
		if rec.Ran == "" {
			rec.Ran = p.Algorithm
		}
		rec.Seconds, rec.AllocSeconds = m.Seconds, m.AllocSeconds
		if m.Cells > 0 {
			rec.Cells = m.Cells // many pairs: the pairs' cells
		}
		rec.Computed = m.Computed
		if m.Seconds > 0 {
			rec.GCUPS = float64(rec.Cells) / m.Seconds / 1e9
		}
		rec.Distance, rec.Matches, rec.AllocBytes = m.Distance, m.Matches, m.AllocBytes
		rec.CPUSeconds = m.CPUSeconds
		rec.Timestamp = time.Now().UTC().Format(time.RFC3339)
		if werr := pl.app.Add(rec); werr != nil {
			return werr
		}
		s.sum.Records++
		timed++
		s.disp.rep()
		pr.Rep = rep
		if timed == len(missing) {
			pr.ReadFrom = src.only()
		}
		s.report(pr, timed == len(missing), 0)
	}
	switch {
	case err == nil:
	case errors.Is(err, ErrSkipped):
		note := err.Error()
		if !pp.notes[note] {
			if werr := s.addNote(pl, base, StatusSkipped, note); werr != nil {
				return werr
			}
		}
		s.sum.Skipped++
		pr.Rep, pr.Skipped, pr.Note = 0, true, note
		s.report(pr, true, len(missing)-timed)
	case errors.Is(err, ErrFailed) && s.ctx.Err() == nil:
		// The reps timed before the failure stay in the file, but
		// readers take the failed row over them: the point is failed.
		note := err.Error()
		if werr := s.addNote(pl, base, StatusFailed, note); werr != nil {
			return werr
		}
		s.sum.Failed = append(s.sum.Failed, e.Name+" "+pointLabel(p)+": "+note)
		pr.Rep, pr.Failed, pr.Note = 0, true, note
		s.report(pr, true, len(missing)-timed)
	case s.ctx.Err() != nil:
		// Measure saw the cancellation; its partial result is not a
		// measurement.
		if serr := pl.app.Sync(); serr != nil {
			return serr
		}
		return s.stopped(e, p, s.ctx.Err())
	default:
		return errors.Join(fmt.Errorf("experiments: %s, point %s: %w", e.Name, p.Key(), err), pl.app.Sync())
	}
	return pl.app.Sync()
}

// addNote appends a row of base that holds no time: a skipped or failed
// point, with why.
func (s *session) addNote(pl expPlan, base Record, status, note string) error {
	rec := base
	rec.Status, rec.Note = status, note
	rec.Timestamp = time.Now().UTC().Format(time.RFC3339)
	if err := pl.app.Add(rec); err != nil {
		return err
	}
	s.sum.Records++
	return nil
}

// stopped is the error of a cancelled run.
func (s *session) stopped(e Experiment, p Point, err error) error {
	return fmt.Errorf("experiments: stopped at %s, point %s (%d rows written; run again to resume): %w",
		e.Name, p.Key(), s.sum.Records, err)
}
