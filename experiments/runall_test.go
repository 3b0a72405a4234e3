package experiments

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/records"
)

// TestQuickScaleThroughRunner runs every experiment at the quick scale
// through the runner, one repetition per point, and reads each CSV back:
// every point has exactly one row, ok or skipped with its reason, every ok
// row describes its point and the machine, and every algorithm of an
// experiment found the same distance (or count of matches, whatever the
// ranks) on the same inputs. Under the race
// detector the inputs are capped at quickRaceCap symbols.
func TestQuickScaleThroughRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick scale takes seconds")
	}
	exps := All()
	for i := range exps {
		exps[i].Points = cappedPoints(exps[i].Points)
	}
	dir := t.TempDir()
	start := time.Now()
	sum, err := (&Runner{Scale: Quick, Reps: 1, Dir: dir}).Run(context.Background(), exps)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("quick scale, 1 repetition: %d records, %d skipped, in %v", sum.Records, sum.Skipped, time.Since(start).Round(time.Millisecond))
	if len(sum.Files) != len(exps) {
		t.Errorf("%d files for %d experiments", len(sum.Files), len(exps))
	}
	for _, e := range exps {
		t.Run(e.Name, func(t *testing.T) {
			path := filepath.Join(dir, e.Name+".csv")
			recs, err := records.ReadRecords(path)
			if err != nil {
				t.Fatal(err)
			}
			rows := map[string][]Record{}
			for _, r := range recs {
				p := Point{Algorithm: r.Algorithm, Workers: r.Workers, Tile: r.Tile, Block: r.Block,
					GPURatio: r.GPURatio, Ranks: r.Ranks, Case: r.Case, LenA: r.LenA, LenB: r.LenB}
				rows[p.Key()] = append(rows[p.Key()], r)
			}
			distance := map[string]int{}  // by inputs
			matches := map[string]int64{} // by inputs: pattern matching
			for _, p := range e.Points(Quick) {
				got := rows[p.Key()]
				if len(got) != 1 {
					t.Errorf("%s: %d rows, want 1", p.Key(), len(got))
					continue
				}
				r := got[0]
				if r.Experiment != e.Name || r.Source != e.Source || r.Scale != string(Quick) {
					t.Errorf("%s: experiment %q, source %q, scale %q", p.Key(), r.Experiment, r.Source, r.Scale)
				}
				if r.Status == StatusSkipped {
					if r.Note == "" || r.Rep != 0 {
						t.Errorf("%s: skipped with note %q, rep %d", p.Key(), r.Note, r.Rep)
					}
					continue
				}
				if r.Status != StatusOK || r.Rep != 1 {
					t.Errorf("%s: status %q, rep %d", p.Key(), r.Status, r.Rep)
				}
				cells := int64(p.LenA) * int64(p.LenB)
				switch p.Kind {
				case Pairs, PeerPairs:
					a, _, _ := Inputs(e, p)
					cells = pairCells(PairSet(a))
				case Suggest, SuggestLoop:
					a, b, _ := Inputs(e, p)
					cells = int64(utf8.RuneCount(a)-len(PairSet(a))+1) * int64(utf8.RuneCount(b)-len(PairSet(b))+1)
				}
				if r.Cells != cells || r.Seconds <= 0 || r.GCUPS <= 0 {
					t.Errorf("%s: cells %d, seconds %g, GCUPS %g", p.Key(), r.Cells, r.Seconds, r.GCUPS)
				}
				if r.Ran == "" || r.RanWorkers < 1 || r.CPU == "" || r.Cores < 1 || r.GoVersion == "" || r.Commit == "" {
					t.Errorf("%s: ran %q on %d workers, machine %q, %d cores, %q, commit %q",
						p.Key(), r.Ran, r.RanWorkers, r.CPU, r.Cores, r.GoVersion, r.Commit)
				}
				if _, err := time.Parse(time.RFC3339, r.Timestamp); err != nil {
					t.Errorf("%s: timestamp: %v", p.Key(), err)
				}
				in := fmt.Sprintf("%s|%d|%d", p.Case, p.LenA, p.LenB)
				if d, ok := distance[in]; ok && d != r.Distance {
					t.Errorf("%s: distance %d, another algorithm found %d on the same inputs", p.Key(), r.Distance, d)
				}
				distance[in] = r.Distance
				if m, ok := matches[in]; ok && m != r.Matches {
					t.Errorf("%s: %d matches, another point counted %d on the same inputs", p.Key(), r.Matches, m)
				}
				matches[in] = r.Matches
			}
		})
	}
}

// cappedPoints caps the lengths of a grid at quickRaceCap (when set),
// dropping the points that then repeat.
func cappedPoints(points func(Scale) []Point) func(Scale) []Point {
	return func(s Scale) []Point {
		var out []Point
		seen := map[string]bool{}
		for _, p := range points(s) {
			if longest := max(p.LenA, p.LenB); quickRaceCap > 0 && longest > quickRaceCap {
				p.LenA = max(1, p.LenA*quickRaceCap/longest)
				p.LenB = max(1, p.LenB*quickRaceCap/longest)
			}
			if !seen[p.Key()] {
				seen[p.Key()] = true
				out = append(out, p)
			}
		}
		return out
	}
}

// pairCells is Σ len·len over the pairs i < j of set.
func pairCells(set [][]byte) int64 {
	var cells int64
	for i := range set {
		for j := i + 1; j < len(set); j++ {
			cells += int64(len(set[i])) * int64(len(set[j]))
		}
	}
	return cells
}
