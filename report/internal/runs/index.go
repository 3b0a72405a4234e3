package runs

import (
	"slices"
	"sort"
	"strings"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// Key names one measured point within a run: records.Key, a point without
// its scale.
type Key = records.Point

// Stat is one point over its repetitions: median with min and max.
type Stat struct {
	N             int     // repetitions
	Med, Min, Max float64 // seconds
	GCUPS         float64 // median matrix rate: 10⁹ cells of the m×n matrix a second, computed or not
	CCUPS         float64 // median computed GCUPS (cells the algorithm computed); 0: not counted
	Alloc         float64 // median bytes allocated
	Compute       float64 // median of seconds − alloc_seconds
	Cores         float64 // median of cpu_seconds/seconds (coresOf); 0: not every rep recorded its CPU time
}

// Skip is a point that was not run, with its note as Choice.Note reads it.
type Skip struct {
	Key  Key
	Note string
}

// Index is one run read: its records, tallied and aggregated, and the
// specs kept beside them.
type Index struct {
	Run   records.Run           // Dir as given (slashes)
	Where string                // Dir as the report names it: from the results tree's name on
	Tally *Tally                // the records used
	Specs map[string]*spec.Spec // the specs kept beside the records, by name
	// SpecNotes says, by experiment, what its section must say of its
	// kept specs: one that could not be read, two that name it.
	SpecNotes map[string][]string
	Rows      int               // records read, those left out included
	LeftOut   []records.Problem // the first records not used (ListedLeftOut), by file:line; Rows − Tally.Used in all
	Problems  []string          // the run's files and kept specs that could not be read, with why
	// Host is what levlab info said of the machine (HostFile); nil where
	// its folder keeps none.
	Host *Host

	// What Load makes of the tally.
	Stats   map[Key]Stat  // each measured point; one that failed (Tally.Failed) is not
	Matches map[Key]int64 // pattern matching: the count of a point's records
	Skips   []Skip        // the points not run, in Less's order
	Unknown []string      // algorithms or experiments the report does not know, sorted
	// Name is the machine, for people ("Intel Xeon @ 2.80GHz"), told
	// apart from another run's where the two would read the same.
	Name string
	// ScaleNamed: Name ends with the run's scale, as where runs at two
	// scales are read ("AMD EPYC, quick").
	ScaleNamed bool
}

// KnownAlgorithms and KnownExperiments are the names the report knows
// (records.Algorithms, records.Experiments): TestKnownNames holds them
// equal to what levlab runs.
var (
	KnownAlgorithms  = records.Algorithms()
	KnownExperiments = records.Experiments()
)

// aggregate takes each point's medians from the tally, and names the
// machine.
func (ix *Index) aggregate() {
	t := ix.Tally
	ix.Stats, ix.Matches, ix.Skips = map[Key]Stat{}, t.matches, slices.Clone(t.skips)
	for k, m := range t.points {
		st := Stat{
			N: len(m.sec), Med: Median(m.sec), Min: slices.Min(m.sec), Max: slices.Max(m.sec),
			GCUPS: Median(m.gcups), Alloc: Median(m.alloc), Compute: Median(m.compute),
		}
		st.Cores = coresOf(m.cpu, m.sec)
		if !m.uncounted && len(m.computed) > 0 {
			st.CCUPS = Median(m.computed)
		}
		ix.Stats[k] = st
	}
	for k := range t.Failed {
		delete(ix.Stats, k) // a failed point's times before it failed are not its
	}
	sort.SliceStable(ix.Skips, func(i, j int) bool { return Less(ix.Skips[i].Key, ix.Skips[j].Key) })
	for u := range t.unknown {
		ix.Unknown = append(ix.Unknown, u)
	}
	sort.Strings(ix.Unknown)
	ix.Name = machineName(ix.Machine())
}

// machineName names a machine for people by its CPU, and its GPU where
// its records name one: "Intel Xeon + NVIDIA H200".
func machineName(m Machine) string {
	name := cpuName(m.CPU)
	switch m.GPU {
	case "", "none", "unknown":
		return name
	}
	return name + " + " + m.GPU
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

// Less orders points by experiment, algorithm and case, then by workers,
// tile, block, ranks, lengths and GPU share.
func Less(a, b Key) bool {
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

// Find returns the measured points of experiment exp that match (all of
// them where match is nil), in Less's order.
func (ix *Index) Find(exp string, match func(Key) bool) []Key {
	var ks []Key
	for k := range ix.Stats {
		if k.Experiment == exp && (match == nil || match(k)) {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool { return Less(ks[i], ks[j]) })
	return ks
}

// Quickest returns the point of exp that match keeps (every one where
// match is nil) with the least median time, the first in Find's order
// among equals; ok is false where there is none.
func (ix *Index) Quickest(exp string, match func(Key) bool) (k Key, st Stat, ok bool) {
	for _, c := range ix.Find(exp, match) {
		if s := ix.Stats[c]; !ok || s.Med < st.Med {
			k, st, ok = c, s, true
		}
	}
	return k, st, ok
}

// Get returns the point of exp with algorithm alg, workers w, tile t and
// lengths la×lb.
func (ix *Index) Get(exp, alg string, w, t, la, lb int) (Stat, bool) {
	k, ok := ix.GetKey(exp, alg, w, t, la, lb)
	return ix.Stats[k], ok
}

// GetKey is Get's point itself.
func (ix *Index) GetKey(exp, alg string, w, t, la, lb int) (Key, bool) {
	for _, k := range ix.Find(exp, nil) {
		if k.Algorithm == alg && k.Workers == w && k.Tile == t && k.LenA == la && k.LenB == lb {
			return k, true
		}
	}
	return Key{}, false
}

// SkipsOf returns the points of the experiments exps that were not run.
func (ix *Index) SkipsOf(exps ...string) []Skip {
	var out []Skip
	for _, s := range ix.Skips {
		if slices.Contains(exps, s.Key.Experiment) {
			out = append(out, s)
		}
	}
	return out
}

// Has reports whether ix measured any point of the experiments exps.
func (ix *Index) Has(exps ...string) bool {
	for k := range ix.Stats {
		if slices.Contains(exps, k.Experiment) {
			return true
		}
	}
	return false
}

// Machine describes a run's machine from its records: CPU, cores, GPU,
// Go, commits and the most repetitions of a point.
type Machine struct {
	CPU, GPU, GoVersion string // each "; "-joined where the records differ, "unknown" where none says
	Cores               int
	Commits             []string
	Reps                int
}

// Machine describes the machine of run ix from its records.
func (ix *Index) Machine() Machine {
	t := ix.Tally
	m := Machine{CPU: joinSet(t.cpus), GPU: joinSet(t.gpus), GoVersion: joinSet(t.gos), Cores: t.cores, Reps: t.reps}
	for c := range t.commits {
		if c != "" {
			m.Commits = append(m.Commits, c)
		}
	}
	sort.Strings(m.Commits)
	return m
}

// joinSet joins the names of s but the empty one, sorted, or says
// "unknown" where there are none.
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

// Cores is the most cores the records of run ix say their machine had.
func (ix *Index) Cores() int { return ix.Machine().Cores }

// RepsRange is the fewest and the most repetitions a measured point of
// run ix holds, and how many points hold fewer than the most.
func (ix *Index) RepsRange() (least, most, fewer int) {
	for _, st := range ix.Stats {
		if least == 0 || st.N < least {
			least = st.N
		}
		most = max(most, st.N)
	}
	for _, st := range ix.Stats {
		if st.N < most {
			fewer++
		}
	}
	return least, most, fewer
}

// OwnKeys returns the points of an experiment of one's own, measured or
// failed, sorted.
func (ix *Index) OwnKeys(name string) []Key {
	ks := ix.Find(name, nil)
	for k := range ix.Tally.Failed {
		if k.Experiment == name && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool { return Less(ks[i], ks[j]) })
	return ks
}

// SamePoints groups run ix's points that are one point measured in
// several experiments: the same algorithm, workers, tile, block, case and
// lengths. A GPU point at the default block is that block's point.
func (ix *Index) SamePoints() map[Key][]Key {
	groups := map[Key][]Key{}
	for k := range ix.Stats {
		g := k
		g.Experiment = ""
		g.Block = BlockOf(k)
		groups[g] = append(groups[g], k)
	}
	return groups
}

// GPUDefaultBlock is the threads per block cuda-diagonal and cuda-matrix
// take when a record's block is 0 (cudaext.DefaultBlock; a test holds the
// two equal, as the report does not link the GPU's package).
const GPUDefaultBlock = 256

// BlockOf is the threads per block point k ran with: its own, or the
// default where it names none.
func BlockOf(k Key) int {
	if k.Block == 0 && (k.Algorithm == records.AlgCUDADiagonal || k.Algorithm == records.AlgCUDAMatrix) {
		return GPUDefaultBlock
	}
	return k.Block
}
