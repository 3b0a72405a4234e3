package report

import (
	"slices"
	"sort"
	"strings"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// key names one measured point within a run: records.Key, a point without
// its scale.
type key = records.Point

// stat is one point over its repetitions: median with min and max.
type stat struct {
	n             int
	med, min, max float64 // seconds
	gcups         float64 // median matrix rate: 10⁹ cells of the m×n matrix a second, computed or not
	ccups         float64 // median computed GCUPS (cells the algorithm computed); 0: not counted
	alloc         float64 // median bytes allocated
	compute       float64 // median of seconds − alloc_seconds
	cores         float64 // median of cpu_seconds/seconds (coresOf); 0: not every rep recorded its CPU time
}

// skip is a point that was not run, with its note.
type skip struct {
	k    key
	note string
}

// index is one run read: its records, tallied and aggregated, and the
// specs kept beside them.
type index struct {
	run   records.Run           // Dir as given (slashes)
	where string                // Dir as the report names it (shownDir)
	tally *tally                // the records used
	specs map[string]*spec.Spec // the specs kept beside the records, by name
	// specNotes says, by experiment, what its section must say of its
	// kept specs: one that could not be read, two that name it.
	specNotes map[string][]string
	rows      int               // records read, those left out included
	leftOut   []records.Problem // the first records not used, by file:line; rows − tally.used in all
	problems  []string

	// What aggregate makes of the tally.
	stats   map[key]stat
	matches map[key]int64 // pattern matching: the count of a point's records
	skips   []skip
	unknown []string // algorithms or experiments the report does not know
	name    string   // the machine, for people: "Intel Xeon @ 2.80GHz"
	// scaleNamed: name ends with the run's scale, as where runs at two
	// scales are read ("AMD EPYC, quick").
	scaleNamed bool
}

// The names the report knows (records.Algorithms, records.Experiments):
// TestKnownNames holds them equal to what levlab runs.
var (
	knownAlgorithms  = records.Algorithms()
	knownExperiments = records.Experiments()
)

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// aggregate takes each point's medians from the tally, and names the
// machine.
func (ix *index) aggregate() {
	t := ix.tally
	ix.stats, ix.matches, ix.skips = map[key]stat{}, t.matches, slices.Clone(t.skips)
	for k, m := range t.points {
		st := stat{
			n: len(m.sec), med: median(m.sec), min: slices.Min(m.sec), max: slices.Max(m.sec),
			gcups: median(m.gcups), alloc: median(m.alloc), compute: median(m.compute),
		}
		st.cores = coresOf(m.cpu, m.sec)
		if !m.uncounted && len(m.computed) > 0 {
			st.ccups = median(m.computed)
		}
		ix.stats[k] = st
	}
	for k := range t.failed {
		delete(ix.stats, k) // a failed point's times before it failed are not its
	}
	sort.SliceStable(ix.skips, func(i, j int) bool { return lessKey(ix.skips[i].k, ix.skips[j].k) })
	for u := range t.unknown {
		ix.unknown = append(ix.unknown, u)
	}
	sort.Strings(ix.unknown)
	ix.name = machineName(ix.machine())
}

// machineName names a machine for people by its CPU, and its GPU where
// its records name one: "Intel Xeon + NVIDIA H200".
func machineName(m machine) string {
	name := cpuName(m.cpu)
	switch m.gpu {
	case "", "none", "unknown":
		return name
	}
	return name + " + " + m.gpu
}

// cpuName shortens a CPU model for people: "Intel(R) Xeon(R) Processor @
// 2.80GHz" reads "Intel Xeon @ 2.80GHz".
func cpuName(cpu string) string {
	var words []string
	for _, w := range strings.Fields(cpu) {
		w = strings.NewReplacer("(R)", "", "(r)", "", "(TM)", "", "(tm)", "").Replace(w)
		switch strings.ToLower(w) {
		case "", "processor", "cpu":
			continue
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		return "unknown CPU"
	}
	return strings.Join(words, " ")
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
	k, ok := ix.getKey(exp, alg, w, t, la, lb)
	return ix.stats[k], ok
}

// getKey is get's point itself.
func (ix *index) getKey(exp, alg string, w, t, la, lb int) (key, bool) {
	for _, k := range ix.find(exp, nil) {
		if k.Algorithm == alg && k.Workers == w && k.Tile == t && k.LenA == la && k.LenB == lb {
			return k, true
		}
	}
	return key{}, false
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

// machine describes our machine from the records: CPU, cores, GPU, Go,
// commits and the most repetitions of a point.
type machine struct {
	cpu, gpu, goVersion string
	cores               int
	commits             []string
	reps                int
}

func (ix *index) machine() machine {
	t := ix.tally
	m := machine{cpu: joinSet(t.cpus), gpu: joinSet(t.gpus), goVersion: joinSet(t.gos), cores: t.cores, reps: t.reps}
	for c := range t.commits {
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

// Numbers for people (format.go): three significant digits, thousands
// separated by commas, a power of ten only past 10⁻⁴ and 10⁶; times in
// ns, µs, ms or s and memory in B, KiB, MiB or GiB, chosen per value.

// setting is an algorithm and its workers: a line of a chart, a row of a
// table.
type setting struct {
	alg     string
	workers int
}

// settingsOf returns the settings of ks, in their order, once each, and
// their first lengths sorted.
func settingsOf(ks []key) (settings []setting, lensA []int) {
	for _, k := range ks {
		if l := (setting{k.Algorithm, k.Workers}); !slices.Contains(settings, l) {
			settings = append(settings, l)
		}
		lensA = append(lensA, k.LenA)
	}
	return settings, sortedInts(lensA)
}
