package runs

import (
	"slices"
	"testing"

	"github.com/levlab/levlab/experiments"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/match"
	"github.com/levlab/levlab/records"
)

// TestKnownNames holds the names the report looks records up by
// (records.Experiments and records.Algorithms, constants) equal to what
// levlab runs: the catalog's experiments are exactly those, and every
// algorithm a point of it names, lev's, match's and the peers' are among
// those — so that nothing levlab itself writes is "not recognised".
func TestKnownNames(t *testing.T) {
	var names []string
	for _, e := range experiments.All() {
		names = append(names, e.Name)
		for _, sc := range experiments.Scales() {
			for _, p := range e.Points(sc) {
				if !slices.Contains(KnownAlgorithms, p.Algorithm) {
					t.Errorf("experiment %s, scale %s: algorithm %q is not one the report knows", e.Name, sc, p.Algorithm)
				}
			}
		}
	}
	slices.Sort(names)
	if known := slices.Sorted(slices.Values(KnownExperiments)); !slices.Equal(names, known) {
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
		if !slices.Contains(KnownAlgorithms, a) {
			t.Errorf("algorithm %q is not one the report knows", a)
		}
	}
	// And no name more: each known algorithm is one of those, or align
	// (the alignment experiment's) or apm (report 003's published rows).
	for _, a := range KnownAlgorithms {
		if !slices.Contains(algs, a) && a != records.AlgAlign && a != records.AlgAPM {
			t.Errorf("the report knows algorithm %q, which levlab does not run", a)
		}
	}
	if !slices.IsSorted(KnownAlgorithms) || !slices.IsSorted(KnownExperiments) {
		t.Errorf("records.Algorithms or records.Experiments is not sorted")
	}
}
