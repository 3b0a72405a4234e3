package report

import (
	"slices"
	"testing"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/match"
)

// TestKnownNames holds the report's names equal to what levlab runs: every
// experiment of the catalog is one the report draws, and the report knows
// every algorithm a point of it names, lev's, match's and the peers' — so
// that nothing levlab itself writes is "not recognised".
func TestKnownNames(t *testing.T) {
	var names []string
	for _, e := range experiments.All() {
		names = append(names, e.Name)
		for _, sc := range experiments.Scales() {
			for _, p := range e.Points(sc) {
				if !slices.Contains(knownAlgorithms, p.Algorithm) {
					t.Errorf("experiment %s, scale %s: algorithm %q is not one the report knows", e.Name, sc, p.Algorithm)
				}
			}
		}
	}
	slices.Sort(names)
	if known := slices.Sorted(slices.Values(knownExperiments)); !slices.Equal(names, known) {
		t.Errorf("the report draws experiments %v; the catalog has %v", known, names)
	}
	var algs []string
	for _, a := range lev.Algorithms() {
		algs = append(algs, a.String())
	}
	for _, a := range match.Algorithms() {
		algs = append(algs, a.String())
	}
	algs = append(algs, experiments.Peers()...)
	for _, a := range algs {
		if !slices.Contains(knownAlgorithms, a) {
			t.Errorf("algorithm %q is not one the report knows", a)
		}
	}
}
