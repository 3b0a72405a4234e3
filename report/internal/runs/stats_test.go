package runs

import (
	"math"
	"testing"
)

// GainOf is the quotient of two speedups in medians, with an interval
// that leaves out 1× only where the speedups differ.
func TestGainOf(t *testing.T) {
	ix := &Index{Tally: newTally()}
	times := func(k Key, med float64) {
		m := &measured{}
		for _, f := range []float64{0.96, 0.98, 1, 1.02, 1.04, 0.99, 1.01} {
			m.sec = append(m.sec, med*f)
		}
		ix.Tally.points[k] = m
	}
	k := func(alg string, lenB int) Key { return Key{Experiment: "e", Algorithm: alg, LenA: 100, LenB: lenB} }
	// Speedup 0.5 at lenB 100, 0.8 at 50, 0.5 at 25.
	times(k("base", 100), 1)
	times(k("fast", 100), 2)
	times(k("base", 50), 0.8)
	times(k("fast", 50), 1)
	times(k("base", 25), 0.5)
	times(k("fast", 25), 1)

	q, ok := ix.GainOf(0.95, k("base", 100), k("fast", 100), k("base", 50), k("fast", 50))
	if !ok || math.Abs(q.X-1.6) > 1e-9 {
		t.Fatalf("GainOf = %+v, %v; want 1.6 (0.8 over 0.5)", q, ok)
	}
	if !q.CIKnown || !q.Significant || q.Lo <= 1 || q.Lo > q.X || q.Hi < q.X {
		t.Errorf("GainOf = %+v; want an interval about 1.6 that leaves out 1×, significant", q)
	}
	q, _ = ix.GainOf(0.95, k("base", 100), k("fast", 100), k("base", 25), k("fast", 25))
	if math.Abs(q.X-1) > 1e-9 || q.Significant || q.Lo > 1 || q.Hi < 1 {
		t.Errorf("GainOf of equal speedups = %+v; want 1× with an interval over 1×, not significant", q)
	}
	if _, ok := ix.GainOf(0.95, k("base", 100), k("fast", 100), k("base", 7), k("fast", 25)); ok {
		t.Error("GainOf of a point with no time: want false")
	}
	// A wider level, a wider interval about the same quotient.
	q95, _ := ix.GainOf(0.95, k("base", 100), k("fast", 100), k("base", 50), k("fast", 50))
	q99, _ := ix.GainOf(0.99, k("base", 100), k("fast", 100), k("base", 50), k("fast", 50))
	if q99.X != q95.X || q99.Lo > q95.Lo || q99.Hi < q95.Hi || q99.Alpha < 0.0099 || q99.Alpha > 0.0101 {
		t.Errorf("GainOf at 0.99 = %+v; want the 0.95 interval %+v inside it, α 0.01", q99, q95)
	}
	// Fewer repetitions than BootMin: a quotient, no interval, never significant.
	ix.Tally.points[k("few", 100)] = &measured{sec: []float64{1, 1, 1}}
	if q, ok := ix.GainOf(0.95, k("base", 100), k("few", 100), k("base", 50), k("fast", 50)); !ok || q.CIKnown || q.Significant {
		t.Errorf("GainOf with 3 repetitions = %+v, %v; want no interval, not significant", q, ok)
	}
}

// BootRatio through boot keeps its interval about the ratio of medians.
func TestBootRatio(t *testing.T) {
	base := []float64{2, 2.1, 1.9, 2.05, 1.95, 2}
	that := []float64{1, 1.05, 0.95, 1.02, 0.98, 1}
	lo, hi, ok := BootRatio(base, that)
	if !ok || lo > 2 || hi < 2 || lo < 1.8 || hi > 2.2 {
		t.Errorf("BootRatio = %v–%v, %v; want an interval about 2", lo, hi, ok)
	}
	if _, _, ok := BootRatio(base[:4], that); ok {
		t.Errorf("BootRatio of %d values: want false (BootMin %d)", 4, BootMin)
	}
}
