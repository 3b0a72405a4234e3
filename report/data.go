package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

// key names one measured point: records.Point without its scale, which
// the report reads one folder of at a time.
type key = records.Point

// stat is one point over its repetitions: median with min and max.
type stat struct {
	n             int
	med, min, max float64 // seconds
	gcups         float64 // median
	alloc         float64 // median bytes allocated
	compute       float64 // median of seconds − alloc_seconds
}

// skip is a point that was not run, with its note.
type skip struct {
	k    key
	note string
}

// index holds the aggregated records.
type index struct {
	stats   map[key]stat
	matches map[key]int64 // pattern matching: the count of a point's records
	skips   []skip
	unknown []string // algorithms or experiments the report does not know
	d       *data
}

// Algorithms the report knows: lev's, the peers', the GPU ones, apm (the
// published rows of report 003) and lev's match algorithms.
var knownAlgorithms = []string{
	"agnivade", "apm", "apm-fast", "apm-naive", "auto", "cuda-diagonal", "cuda-fast", "cuda-matrix", "diagonal", "edlib",
	"fullmatrix", "ka-weihe", "myers", "myers-parallel", "tiled", "tiled-barrier", "tworow",
}

// Experiments the report draws.
var knownExperiments = []string{
	"gpu-fast", "peers", "s000-fig3", "s000-fig4", "s000-table1", "s000-table2",
	"s001-diagonal", "s001-length", "s001-ratio", "s001-threads", "s001-tile",
	"s002-cases", "s003-ratio", "s003-ranks", "s004-memory",
}

func keyOf(r records.Record) key {
	k := r.Point()
	k.Scale = ""
	return k
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func aggregate(d *data) *index {
	type acc struct{ sec, gcups, alloc, compute []float64 }
	accs := map[key]*acc{}
	ix := &index{stats: map[key]stat{}, matches: map[key]int64{}, d: d}
	unknown := map[string]bool{}
	skipSeen := map[skip]bool{}
	for _, r := range d.records {
		if !slices.Contains(knownAlgorithms, r.Algorithm) {
			unknown[fmt.Sprintf("algorithm %q (experiment %s)", r.Algorithm, r.Experiment)] = true
		}
		if !slices.Contains(knownExperiments, r.Experiment) {
			unknown[fmt.Sprintf("experiment %q", r.Experiment)] = true
		}
		k := keyOf(r)
		switch r.Status {
		case records.StatusOK:
			a := accs[k]
			if a == nil {
				a = &acc{}
				accs[k] = a
			}
			a.sec = append(a.sec, r.Seconds)
			a.gcups = append(a.gcups, r.GCUPS)
			a.alloc = append(a.alloc, float64(r.AllocBytes))
			a.compute = append(a.compute, r.Seconds-r.AllocSeconds)
			ix.matches[k] = r.Matches
		default:
			s := skip{k, r.Note}
			if !skipSeen[s] {
				skipSeen[s] = true
				ix.skips = append(ix.skips, s)
			}
		}
	}
	for k, a := range accs {
		ix.stats[k] = stat{
			n: len(a.sec), med: median(a.sec), min: slices.Min(a.sec), max: slices.Max(a.sec),
			gcups: median(a.gcups), alloc: median(a.alloc), compute: median(a.compute),
		}
	}
	sort.SliceStable(ix.skips, func(i, j int) bool { return lessKey(ix.skips[i].k, ix.skips[j].k) })
	for u := range unknown {
		ix.unknown = append(ix.unknown, u)
	}
	sort.Strings(ix.unknown)
	return ix
}

func lessKey(a, b key) bool {
	if a.Experiment != b.Experiment {
		return a.Experiment < b.Experiment
	}
	if a.Algorithm != b.Algorithm {
		return a.Algorithm < b.Algorithm
	}
	if a.Case != b.Case {
		return a.Case < b.Case
	}
	for _, p := range [][2]int{{a.Workers, b.Workers}, {a.Tile, b.Tile}, {a.Block, b.Block}, {a.Ranks, b.Ranks}, {a.LenA, b.LenA}, {a.LenB, b.LenB}} {
		if p[0] != p[1] {
			return p[0] < p[1]
		}
	}
	return a.GPURatio < b.GPURatio
}

// find returns the stats of the points of experiment exp that match.
func (ix *index) find(exp string, match func(key) bool) []key {
	var ks []key
	for k := range ix.stats {
		if k.Experiment == exp && (match == nil || match(k)) {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool { return lessKey(ks[i], ks[j]) })
	return ks
}

// get returns the point of exp with algorithm alg, workers w, tile t and
// lengths la×lb.
func (ix *index) get(exp, alg string, w, t, la, lb int) (stat, bool) {
	for _, k := range ix.find(exp, nil) {
		if k.Algorithm == alg && k.Workers == w && k.Tile == t && k.LenA == la && k.LenB == lb {
			return ix.stats[k], true
		}
	}
	return stat{}, false
}

func (ix *index) skipsOf(exps ...string) []skip {
	var out []skip
	for _, s := range ix.skips {
		if slices.Contains(exps, s.k.Experiment) {
			out = append(out, s)
		}
	}
	return out
}

func (ix *index) has(exps ...string) bool {
	for k := range ix.stats {
		if slices.Contains(exps, k.Experiment) {
			return true
		}
	}
	return false
}

// pub returns the published numbers matching f, in file order.
func (ix *index) pub(f func(records.Published) bool) []records.Published {
	var out []records.Published
	for _, p := range ix.d.published {
		if f(p) {
			out = append(out, p)
		}
	}
	return out
}

// machine describes our machine from the records: CPU, cores, GPU, Go,
// commits and the most repetitions of a point.
type machine struct {
	cpu, gpu, goVersion string
	cores               int
	commits             []string
	reps                int
}

func (ix *index) machine() machine {
	var m machine
	cpus, gpus, gos, commits := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range ix.d.records {
		cpus[r.CPU], gpus[r.GPU], gos[r.GoVersion], commits[r.Commit] = true, true, true, true
		m.cores = max(m.cores, r.Cores)
		m.reps = max(m.reps, r.Rep)
	}
	m.cpu, m.gpu, m.goVersion = joinSet(cpus), joinSet(gpus), joinSet(gos)
	for c := range commits {
		if c != "" {
			m.commits = append(m.commits, c)
		}
	}
	sort.Strings(m.commits)
	return m
}

func joinSet(s map[string]bool) string {
	var l []string
	for k := range s {
		if k != "" {
			l = append(l, k)
		}
	}
	sort.Strings(l)
	if len(l) == 0 {
		return "unknown"
	}
	return strings.Join(l, "; ")
}

// Number formats: 4 significant digits, no exponent below 1e6.
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	a := math.Abs(x)
	switch {
	case a == 0:
		return "0"
	case a >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 1e-4:
		d := 3 - int(math.Floor(math.Log10(a)))
		return strconv.FormatFloat(x, 'f', d, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// secs formats a point as "median [min–max]" seconds.
func secs(s stat) string {
	if s.n > 1 {
		return num(s.med) + " [" + num(s.min) + "–" + num(s.max) + "]"
	}
	return num(s.med)
}

func bytesStr(b float64) string {
	switch {
	case b >= 1<<30:
		return num(b/(1<<30)) + " GiB"
	case b >= 1<<20:
		return num(b/(1<<20)) + " MiB"
	case b >= 1<<10:
		return num(b/(1<<10)) + " KiB"
	}
	return num(b) + " B"
}

func pubNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
