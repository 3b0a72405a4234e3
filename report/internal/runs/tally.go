package runs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/levlab/levlab/records"
)

// Tally is what the report keeps of a run's records as they stream past: a
// few numbers a measured record, one entry a skipped point, and what the
// records say of the machine. A run of millions of records is never held.
// Its exported fields are what the write-up reads; the rest Index reads.
type Tally struct {
	points   map[Key]*measured
	matches  map[Key]int64 // pattern matching: the count of a point's records
	skips    []Skip        // in the order first read
	skipSeen map[Skip]bool
	Failed   map[Key]string  // experiments of one's own: the points that failed, with why (Choice.Note)
	Own      map[string]bool // the experiments of one's own (records.SourceOwn)
	unknown  map[string]bool // algorithms or experiments the report does not know
	cpus     map[string]bool
	gpus     map[string]bool
	gos      map[string]bool
	commits  map[string]bool
	made     map[[2]string]map[string]bool // experiment and algorithm: the commits its ok records were made at
	MadeBy   map[[2]string]map[string]bool // experiment of one's own and implementation: its records' made_by
	// OwnOK counts an experiment of one's own's ok records by
	// implementation; ReadFrom, those read from another implementation's
	// runs of the same program (records.ReadFromNote), by that one.
	OwnOK    map[[2]string]int
	ReadFrom map[[2]string]map[string]int
	First    string // the earliest and latest record's date (YYYY-MM-DD), "" for none
	Last     string
	cores    int // the most
	reps     int // the most repetitions of a point
	Used     int // records used
}

// measured is one point's ok records, a value per rep in the order read.
type measured struct {
	sec, gcups, alloc, compute []float64
	computed                   []float64 // computed GCUPS a rep; empty unless every rep counted its cells
	uncounted                  bool      // some rep did not count its cells (computed_cells 0)
	cpu                        []float64 // cpu_seconds a rep; 0: not measured
}

func newTally() *Tally {
	return &Tally{
		points: map[Key]*measured{}, matches: map[Key]int64{}, skipSeen: map[Skip]bool{}, unknown: map[string]bool{},
		Failed: map[Key]string{}, Own: map[string]bool{},
		cpus: map[string]bool{}, gpus: map[string]bool{}, gos: map[string]bool{}, commits: map[string]bool{},
		made: map[[2]string]map[string]bool{}, MadeBy: map[[2]string]map[string]bool{},
		OwnOK: map[[2]string]int{}, ReadFrom: map[[2]string]map[string]int{},
	}
}

// add counts a record that is used, its note as note reads it.
func (t *Tally) add(r records.Record, note func(string) string) {
	t.Used++
	t.cpus[r.CPU], t.gpus[r.GPU], t.gos[r.GoVersion], t.commits[r.Commit] = true, true, true, true
	if d, _, _ := strings.Cut(r.Timestamp, "T"); len(d) == len("2006-01-02") {
		if t.First == "" || d < t.First {
			t.First = d
		}
		t.Last = max(t.Last, d)
	}
	t.cores, t.reps = max(t.cores, r.Cores), max(t.reps, r.Rep)
	k := records.Key(r)
	if r.Source == records.SourceOwn {
		t.Own[r.Experiment] = true
		addTo(t.MadeBy, [2]string{r.Experiment, r.Algorithm}, r.MadeBy)
	}
	if r.Status == records.StatusFailed {
		t.Failed[k] = note(r.Note)
		return
	}
	if r.Status != records.StatusOK {
		if t.addSkip(Skip{k, note(r.Note)}) {
			t.checkNames(k)
		}
		return
	}
	addTo(t.made, [2]string{r.Experiment, r.Algorithm}, r.Commit)
	if r.Source == records.SourceOwn {
		ei := [2]string{r.Experiment, r.Algorithm}
		t.OwnOK[ei]++
		if from, ok := records.ReadFrom(r.Note); ok {
			if t.ReadFrom[ei] == nil {
				t.ReadFrom[ei] = map[string]int{}
			}
			t.ReadFrom[ei][from]++
		}
	}
	m := t.points[k]
	if m == nil {
		m = &measured{}
		t.points[k] = m
		t.checkNames(k) // once a point, not once a record
	}
	m.sec = append(m.sec, r.Seconds)
	m.gcups = append(m.gcups, r.GCUPS)
	if r.Computed > 0 && r.Seconds > 0 {
		m.computed = append(m.computed, float64(r.Computed)/r.Seconds/1e9)
	} else {
		m.uncounted = true
	}
	m.alloc = append(m.alloc, float64(r.AllocBytes))
	m.compute = append(m.compute, r.Seconds-r.AllocSeconds)
	m.cpu = append(m.cpu, r.CPUSeconds)
	t.matches[k] = r.Matches
}

// addTo adds v to the set of k in m.
func addTo(m map[[2]string]map[string]bool, k [2]string, v string) {
	if m[k] == nil {
		m[k] = map[string]bool{}
	}
	m[k][v] = true
}

// addSkip adds s unless it is there, and reports whether it was new.
func (t *Tally) addSkip(s Skip) bool {
	if t.skipSeen[s] {
		return false
	}
	t.skipSeen[s] = true
	t.skips = append(t.skips, s)
	return true
}

// checkNames notes k's algorithm or experiment where the report does not
// know it.
func (t *Tally) checkNames(k Key) {
	if t.Own[k.Experiment] {
		return // its names are its author's
	}
	if !slices.Contains(KnownAlgorithms, k.Algorithm) {
		t.unknown[fmt.Sprintf("algorithm %q (experiment %s)", k.Algorithm, k.Experiment)] = true
	}
	if !slices.Contains(KnownExperiments, k.Experiment) {
		t.unknown[fmt.Sprintf("experiment %q", k.Experiment)] = true
	}
}

// merge adds o, read after t, to t.
func (t *Tally) merge(o *Tally) {
	for k, m := range o.points {
		if a := t.points[k]; a != nil {
			a.sec, a.gcups = append(a.sec, m.sec...), append(a.gcups, m.gcups...)
			a.alloc, a.compute = append(a.alloc, m.alloc...), append(a.compute, m.compute...)
			a.computed, a.uncounted = append(a.computed, m.computed...), a.uncounted || m.uncounted
			a.cpu = append(a.cpu, m.cpu...)
		} else {
			t.points[k] = m
		}
	}
	for k, n := range o.matches {
		t.matches[k] = n
	}
	for k, why := range o.Failed {
		t.Failed[k] = why
	}
	for e := range o.Own {
		t.Own[e] = true
	}
	for _, s := range o.skips {
		t.addSkip(s)
	}
	for _, p := range [][2]map[string]bool{{t.unknown, o.unknown}, {t.cpus, o.cpus}, {t.gpus, o.gpus}, {t.gos, o.gos}, {t.commits, o.commits}} {
		for s := range p[1] {
			p[0][s] = true
		}
	}
	if o.First != "" && (t.First == "" || o.First < t.First) {
		t.First = o.First
	}
	t.Last = max(t.Last, o.Last)
	for _, m := range [][2]map[[2]string]map[string]bool{{t.made, o.made}, {t.MadeBy, o.MadeBy}} {
		for ea, vs := range m[1] {
			for v := range vs {
				addTo(m[0], ea, v)
			}
		}
	}
	for ei, n := range o.OwnOK {
		t.OwnOK[ei] += n
	}
	for ei, from := range o.ReadFrom {
		if t.ReadFrom[ei] == nil {
			t.ReadFrom[ei] = map[string]int{}
		}
		for f, n := range from {
			t.ReadFrom[ei][f] += n
		}
	}
	t.cores, t.reps = max(t.cores, o.cores), max(t.reps, o.reps)
	t.Used += o.Used
}

// ListedLeftOut is how many records left out Index.LeftOut names; the
// others are counted.
const ListedLeftOut = 100

// loadRun reads one run's CSV files, a file at a time and each a few
// thousand rows at a time. A time that is not a number, or a rep measured
// twice, would move every median it joins without a word: such rows are
// named instead (the first ListedLeftOut of them), and left out of
// everything (records.Repeats). A file that cannot be read whole is
// named, and none of its rows is used. note reads each record's note
// (Tally.add).
func loadRun(run records.Run, note func(string) string) *Index {
	ix := &Index{Run: run, Tally: newTally()}
	files := csvFiles(run.Dir)
	if len(files) == 0 {
		ix.Problems = append(ix.Problems, run.Dir+": no CSV files")
	}
	var seen records.Repeats
	for _, f := range files {
		ft := newTally()
		var leftOut []records.Problem
		n := 0
		err := records.ScanRows(f, func(r records.Row) error {
			n++
			if why := seen.Row(r); why != "" {
				if len(ix.LeftOut)+len(leftOut) < ListedLeftOut {
					leftOut = append(leftOut, records.Problem{File: filepath.ToSlash(r.File), Line: r.Line, Why: why})
				}
				return nil
			}
			ft.add(r.Record, note)
			return nil
		})
		if err != nil {
			seen.Forget()
			ix.Problems = append(ix.Problems, err.Error())
			continue
		}
		seen.Keep()
		if n == 0 {
			ix.Problems = append(ix.Problems, filepath.ToSlash(f)+": empty (no header, no records)")
		}
		ix.Tally.merge(ft)
		ix.LeftOut = append(ix.LeftOut, leftOut...)
		ix.Rows += n
	}
	return ix
}
