package runs

import (
	"slices"
	"sort"

	"github.com/levlab/levlab/records"
	"github.com/levlab/levlab/spec"
)

// Set is everything Load read for a report: the published numbers, each
// run read and aggregated, and the machines' benchmark output.
type Set struct {
	Published []records.Published // in file order
	Runs      []*Index            // in the order read: Choice.Measured first
	Ignored   []string            // runs found and not read, with why
	Problems  []string            // files that could not be read, with the error
	NoPublish string              // why there are no published numbers, or ""
	// Bench is each machine's benchmark output (records.Benches), by the
	// machine's folder name.
	Bench map[string][]records.BenchFile
	// Only is Choice.Only: the experiments of one's own the runs were
	// kept for.
	Only       []string
	stale      *[]OldRecords // Staleness's answer, once found
	benchKnown int           // the benchmark files whose age Staleness could tell
}

// nameRuns tells the runs read apart where their machines' names do not:
// two machine folders of one CPU (two VMs, another --name) by the folder,
// "AMD EPYC (my-vm)"; and where the runs are at more than one scale, each
// name says its scale, "AMD EPYC, quick", so that no sentence or series
// puts a quick size beside a paper one unnamed.
func (s *Set) nameRuns() {
	base := make([]string, len(s.Runs))
	for i, ix := range s.Runs {
		base[i] = ix.Name
	}
	mixed := false
	for i, ix := range s.Runs {
		for j, o := range s.Runs {
			if i != j && base[j] == base[i] && o.Run.Machine != ix.Run.Machine {
				ix.Name = base[i] + " (" + ix.Run.Machine + ")"
			}
		}
		mixed = mixed || ix.Run.Scale != s.Runs[0].Run.Scale
	}
	if mixed {
		for _, ix := range s.Runs {
			ix.Name += ", " + ix.Run.Scale
			ix.ScaleNamed = true
		}
	}
}

// Pub returns the published numbers matching f, in file order.
func (s *Set) Pub(f func(records.Published) bool) []records.Published {
	var out []records.Published
	for _, p := range s.Published {
		if f(p) {
			out = append(out, p)
		}
	}
	return out
}

// Measured reports whether any run has a point of the experiments.
func (s *Set) Measured(exps ...string) bool {
	for _, ix := range s.Runs {
		if ix.Has(exps...) {
			return true
		}
	}
	return false
}

// Quick reports whether any run read is not at the paper scale.
func (s *Set) Quick() bool {
	for _, ix := range s.Runs {
		if ix.Run.Scale != records.ScalePaper {
			return true
		}
	}
	return false
}

// Counted reports whether any point of any run read counted its cells.
func (s *Set) Counted() bool {
	for _, ix := range s.Runs {
		for _, st := range ix.Stats {
			if st.CCUPS > 0 {
				return true
			}
		}
	}
	return false
}

// OwnNames returns the experiments of one's own that the runs read hold,
// sorted.
func (s *Set) OwnNames() []string {
	var out []string
	for _, ix := range s.Runs {
		for e := range ix.Tally.Own {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	sort.Strings(out)
	return out
}

// OwnSpec returns the spec kept beside an experiment's records, from the
// first run that has one (kept true), or one made from the records: every
// implementation, length and parameter they hold, and the default figures.
func (s *Set) OwnSpec(name string) (sp *spec.Spec, kept bool) {
	for _, ix := range s.Runs {
		if sp := ix.Specs[name]; sp != nil {
			return sp, true
		}
	}
	sp = &spec.Spec{Name: name}
	var ns, ms, ws, ts []int
	for _, ix := range s.Runs {
		for _, k := range ix.OwnKeys(name) {
			if !slices.Contains(sp.ImplNames(), k.Algorithm) {
				sp.Impl = append(sp.Impl, spec.Impl{Name: k.Algorithm})
			}
			ns, ms, ws, ts = append(ns, k.LenA), append(ms, k.LenB), append(ws, k.Workers), append(ts, k.Tile)
		}
	}
	sp.Inputs.N, sp.Params.Workers, sp.Params.Tile = SortedInts(ns), SortedInts(ws), SortedInts(ts)
	if !slices.Equal(SortedInts(ms), sp.Inputs.N) {
		sp.Inputs.M = nil // lengths of a and b differ: n alone is drawn
	}
	return sp, false
}
