package report

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/levlab/levlab/records"
)

// key names one measured point within a run: records.Key, a point without
// its scale.
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

// index holds one run's aggregated records.
type index struct {
	stats   map[key]stat
	matches map[key]int64 // pattern matching: the count of a point's records
	skips   []skip
	unknown []string // algorithms or experiments the report does not know
	rd      *runData
	name    string // the machine, for people: "Intel Xeon @ 2.80GHz"
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

func aggregate(rd *runData) *index {
	t := rd.tally
	ix := &index{stats: map[key]stat{}, matches: t.matches, skips: slices.Clone(t.skips), rd: rd}
	for k, m := range t.points {
		ix.stats[k] = stat{
			n: len(m.sec), med: median(m.sec), min: slices.Min(m.sec), max: slices.Max(m.sec),
			gcups: median(m.gcups), alloc: median(m.alloc), compute: median(m.compute),
		}
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
	return ix
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
	t := ix.rd.tally
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

// Numbers for people: three significant digits, thousands separated by
// commas, never an exponent; times in µs, ms or s and memory in B, KiB,
// MiB or GiB, chosen per value.

// num formats x to three significant digits ("0.0345", "12.3", "1,234").
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	if x == 0 {
		return "0"
	}
	a := math.Abs(x)
	if a >= 100 {
		return groupDigits(strconv.FormatFloat(math.Round(x), 'f', 0, 64))
	}
	d := 2 - int(math.Floor(math.Log10(a)))
	s := strconv.FormatFloat(x, 'f', d, 64)
	// Rounding can carry into a new digit (9.996 → "10.00"): one fewer.
	if r, _ := strconv.ParseFloat(s, 64); math.Abs(r) >= math.Pow(10, float64(3-d)) && d > 0 {
		s = strconv.FormatFloat(x, 'f', d-1, 64)
	}
	return s
}

// groupDigits puts a comma between each three digits of the whole part of
// a formatted number.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// count formats a whole number with thousands separators.
func count[T int | int64](n T) string { return groupDigits(strconv.FormatInt(int64(n), 10)) }

// durUnit returns the unit a time of sec seconds reads best in, and the
// number of seconds in it.
func durUnit(sec float64) (string, float64) {
	a := math.Abs(sec)
	switch {
	case a == 0 || a >= 1:
		return "s", 1
	case a >= 1e-3:
		return "ms", 1e-3
	}
	return "µs", 1e-6
}

// dur formats a time given in seconds: "345 µs", "12.3 ms", "1.52 s".
func dur(sec float64) string {
	if !finite(sec) {
		return "—"
	}
	u, scale := durUnit(sec)
	return num(sec/scale) + " " + u
}

// secs formats a point as its median time, with the spread of its
// repetitions (min–max, in the median's unit) as a second line when there
// are several.
func secs(s stat) string {
	if s.n > 1 {
		u, scale := durUnit((s.min + s.max) / 2)
		// A spread too small to show at three digits is left out.
		if lo, hi := num(s.min/scale), num(s.max/scale); lo != hi {
			return dur(s.med) + "\n" + lo + "–" + hi + " " + u
		}
	}
	return dur(s.med)
}

// bytesStr formats a size in bytes: "512 B", "3.05 MiB".
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

// times formats a ratio: "3.62×".
func times(x float64) string { return num(x) + "×" }

// pubNum formats a published number as its report printed it, with
// thousands separators, where it printed four significant digits or fewer
// ("0.38", "181.5"); a number printed with more ("0.6186212674082705")
// is rounded to three.
func pubNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	digits := strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
	if len(digits) > 4 {
		return num(v)
	}
	return groupDigits(s)
}

// size formats a string length or a byte count of an input: "10,000".
func size(n int) string { return count(n) }

// decimals is how many decimals the shortest form of v has: 1.3 has one.
func decimals(v float64) int {
	_, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), ".")
	return len(frac)
}

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
