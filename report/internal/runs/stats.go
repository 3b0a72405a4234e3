package runs

import (
	"math"
	"math/rand/v2"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Median returns the median of xs, the mean of the middle two where their
// number is even; xs is not reordered. It must not be empty.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// SortedInts returns the values of xs, each once, in increasing order; xs
// is not reordered.
func SortedInts(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// BootMin is the fewest repetitions a point needs for BootRatio's
// interval; BootRounds the resamples it draws.
const (
	BootMin    = 5
	BootRounds = 2000
)

// BootRatio is the 95% percentile bootstrap interval of median(base) /
// median(that): each round resamples both with replacement. The seed is
// fixed, so the same records give the same interval. ok is false where
// either has fewer than BootMin values.
func BootRatio(base, that []float64) (lo, hi float64, ok bool) {
	return boot(0.95, func(m []float64) float64 { return m[0] / m[1] }, base, that)
}

// boot is the percentile bootstrap interval at level (0.95: the 95%
// interval) of f of the samples' medians, each round resampling every
// sample with replacement; rounds
// where f is not a positive finite number are dropped. ok is false where
// a sample has fewer than BootMin values or half the rounds were dropped.
func boot(level float64, f func(medians []float64) float64, samples ...[]float64) (lo, hi float64, ok bool) {
	draws := make([][]float64, len(samples))
	for i, s := range samples {
		if len(s) < BootMin {
			return 0, 0, false
		}
		draws[i] = make([]float64, len(s))
	}
	rng := rand.New(rand.NewPCG(45, 2026))
	meds := make([]float64, len(samples))
	rs := make([]float64, 0, BootRounds)
	for range BootRounds {
		for i, s := range samples {
			for j := range draws[i] {
				draws[i][j] = s[rng.IntN(len(s))]
			}
			meds[i] = Median(draws[i])
		}
		if r := f(meds); r > 0 && !math.IsInf(r, 0) {
			rs = append(rs, r)
		}
	}
	if len(rs) < BootRounds/2 {
		return 0, 0, false
	}
	slices.Sort(rs)
	tail := (1 - level) / 2
	return rs[int(tail*float64(len(rs)))], rs[int((1-tail)*float64(len(rs)-1))], true
}

// Sample is point k's times as benchmath takes them, with its summary:
// the median and its 95% confidence interval; nil where k has no
// measured time.
func (ix *Index) Sample(k Key) (*benchmath.Sample, benchmath.Summary) {
	m := ix.Tally.points[k]
	if m == nil {
		return nil, benchmath.Summary{}
	}
	s := benchmath.NewSample(slices.Clone(m.sec), &benchmath.DefaultThresholds)
	return s, benchmath.AssumeNothing.Summary(s, 0.95)
}

// Ratio is a speedup with what is known of it: the 95% bootstrap
// interval of the ratio of medians (BootRatio) and whether the two samples
// differ, by benchmath's Mann–Whitney U test and by the interval alike.
type Ratio struct {
	X, Lo, Hi   float64 // the ratio of medians and its interval
	P, Alpha    float64 // the U test's p-value and its level
	Significant bool
	CIKnown     bool    // both points have BootMin repetitions or more
	Level       float64 // the interval's level where not 0.95 (GainOf's); 0 for 0.95
}

// SpeedupOf is base's median over that's, two points of ix, or false
// where either has no time to divide. It is significant only where the U
// test rejects the hypothesis of no difference and the interval is known and leaves out 1×,
// so that no speedup is called significant whose interval spans no
// speedup, or that has no interval (fewer than BootMin repetitions).
func (ix *Index) SpeedupOf(base, that Key) (Ratio, bool) {
	bs, bsum := ix.Sample(base)
	ts, tsum := ix.Sample(that)
	if bs == nil || ts == nil || tsum.Center <= 0 {
		return Ratio{}, false
	}
	c := benchmath.AssumeNothing.Compare(bs, ts)
	r := Ratio{X: bsum.Center / tsum.Center, P: c.P, Alpha: c.Alpha}
	if lo, hi, ok := BootRatio(bs.Values, ts.Values); ok {
		r.Lo, r.Hi, r.CIKnown = lo, hi, true
		r.Significant = c.P < c.Alpha && (lo > 1 || hi < 1)
	}
	return r, true
}

// GainOf is how many times as large the speedup of that over base is as
// the speedup of that0 over base0, (base/that)/(base0/that0) in medians:
// how much a speedup changes from one point to another (from equal
// lengths to a length ratio, say). Its interval is the percentile
// bootstrap at level of that quotient, each round resampling all four
// points: 0.95 for a point chosen before looking, 1 − 0.05/k
// (Bonferroni) for the highest of k. It is significant where the interval
// is known and leaves out 1×, there being no U test of a quotient of
// ratios. False where a point has no time.
func (ix *Index) GainOf(level float64, base0, that0, base, that Key) (Ratio, bool) {
	var vals [4][]float64
	var meds [4]float64
	for i, k := range []Key{base0, that0, base, that} {
		s, sum := ix.Sample(k)
		if s == nil || !(sum.Center > 0) {
			return Ratio{}, false
		}
		vals[i], meds[i] = s.Values, sum.Center
	}
	r := Ratio{X: (meds[2] / meds[3]) / (meds[0] / meds[1]), Alpha: 1 - level}
	if level != 0.95 {
		r.Level = level
	}
	if lo, hi, ok := boot(level, func(m []float64) float64 { return (m[2] / m[3]) / (m[0] / m[1]) }, vals[:]...); ok {
		r.Lo, r.Hi, r.CIKnown = lo, hi, true
		r.Significant = lo > 1 || hi < 1
	}
	return r, true
}

// coresOf returns the median over the repetitions of CPU time over time
// (cpu_seconds/seconds): about how many cores a run kept busy. It is 0
// where any repetition recorded no CPU time (records made before the
// cpu_seconds column) or no time.
func coresOf(cpu, sec []float64) float64 {
	if len(cpu) == 0 || len(cpu) != len(sec) {
		return 0
	}
	r := make([]float64, len(cpu))
	for i := range cpu {
		if !(cpu[i] > 0) || !(sec[i] > 0) {
			return 0
		}
		r[i] = cpu[i] / sec[i]
	}
	return Median(r)
}
