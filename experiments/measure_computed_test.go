package experiments

import (
	"context"
	"strings"
	"testing"
)

// TestMeasureComputed: Measure fills Computed from lev.Stats: the whole
// matrix for the sequential DP, the words of myers' passes for a similar
// pair (a small part of it), every pair's cells for many pairs, Align's
// passes; nothing for a peer, whose work lev does not see.
func TestMeasureComputed(t *testing.T) {
	e := Experiment{Name: "measure-computed-test"}
	similar := Point{Case: CaseDiverged, LenA: 20000, LenB: 20000}
	measure := func(p Point) Measurement {
		t.Helper()
		a, b, err := Inputs(e, p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Measure(context.Background(), p, a, b)
		if err != nil {
			t.Fatalf("%s: %v", p.Key(), err)
		}
		return m
	}
	matrix := int64(similar.LenA) * int64(similar.LenB)
	with := func(p Point, alg string, workers int, kind Kind) Point {
		p.Algorithm, p.Workers, p.Kind = alg, workers, kind
		return p
	}
	if m := measure(with(similar, "tworow", 1, Distance)); m.Computed != matrix {
		t.Errorf("tworow: computed %d, want the matrix's %d", m.Computed, matrix)
	}
	for _, w := range []int{1, 2} {
		if m := measure(with(similar, "myers-parallel", w, Distance)); m.Computed <= 0 || m.Computed > matrix/4 {
			t.Errorf("myers-parallel on %d workers, %d%% diverged: computed %d, want in (0, %d]", w, DivergedPercent, m.Computed, matrix/4)
		}
	}
	if m := measure(with(similar, AlignAlgorithm, 2, Alignment)); m.Computed <= 0 || m.Computed > matrix/2 {
		t.Errorf("align: computed %d, want in (0, %d]", m.Computed, matrix/2)
	}
	small := Point{Case: CaseDiverged, LenA: 2000, LenB: 2000}
	if m := measure(with(small, "agnivade", 1, Peer)); m.Computed != 0 {
		t.Errorf("a peer: computed %d, want 0", m.Computed)
	}
	var set []string
	for i := range 30 {
		set = append(set, strings.Repeat("ACGT"[i%4:i%4+1], 10+i)+strings.Repeat("GATTACA", i%5))
	}
	a := []byte(strings.Join(set, "\n"))
	p := Point{Kind: Pairs, Algorithm: "tworow", Workers: 2}
	m, err := Measure(context.Background(), p, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Computed != m.Cells || m.Cells <= 0 {
		t.Errorf("many pairs, tworow: computed %d, want Σ len·len = %d", m.Computed, m.Cells)
	}
}
