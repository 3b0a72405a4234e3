package experiments

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/match"
)

// TestQuickScaleRuns runs every point of the quick scale once, without the
// runner: every point's inputs can be made, every point runs or is skipped
// for a reason this machine explains (no GPU, edlib not built in), and
// every algorithm of an experiment agrees, at each size, with Myers on the
// same inputs (pattern matching: with one match.Count call over the
// whole text, whatever the ranks). Under the race detector the inputs are shorter
// (quickRaceCap).
func TestQuickScaleRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick scale takes seconds")
	}
	gpuErr := cudaext.Available()
	ctx := context.Background()
	start := time.Now()
	var timed float64 // seconds inside Measure's clock
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			begin := time.Now()
			want := map[string]int{} // by case and lengths
			var ran, skipped int
			for _, p := range e.Points(Quick) {
				if longest := max(p.LenA, p.LenB); quickRaceCap > 0 && longest > quickRaceCap {
					p.LenA = max(1, p.LenA*quickRaceCap/longest)
					p.LenB = max(1, p.LenB*quickRaceCap/longest)
				}
				a, b, err := Inputs(e, p)
				if errors.Is(err, ErrSkipped) && p.Case == CaseWords {
					t.Logf("%s: %v", p.Key(), err) // no word list here
					skipped++
					continue
				}
				if err != nil {
					t.Errorf("%s: inputs: %v", p.Key(), err)
					continue
				}
				in := fmt.Sprintf("%s|%d|%d", p.Case, p.LenA, p.LenB)
				matching := p.Kind == Matching
				if _, ok := want[in]; !ok {
					// A distance by Myers; a count by match.Count
					// on one worker, the whole text at once.
					var d int
					if p.Kind == Pairs || p.Kind == PeerPairs {
						d = pairSum(PairSet(a))
					} else if p.Kind == Suggest || p.Kind == SuggestLoop {
						d = suggestSum(PairSet(a), PairSet(b))
					} else if matching {
						c, err := match.Count(a, [][]byte{b}, MatchK, match.WithWorkers(1))
						if err != nil {
							t.Fatal(err)
						}
						d = int(c[0])
					} else if d, err = lev.Distance(a, b, lev.WithAlgorithm(lev.Myers)); err != nil {
						t.Fatal(err)
					}
					want[in] = d
				}
				m, err := Measure(ctx, p, a, b)
				if errors.Is(err, ErrSkipped) {
					alg, _ := lev.ParseAlgorithm(p.Algorithm)
					gpu := alg.GPU() || p.GPURatio > 0
					if !(gpu && gpuErr != nil) && !(p.Algorithm == "edlib" && !edlibBuilt) {
						t.Errorf("%s: skipped on a machine that should run it: %v", p.Key(), err)
					}
					skipped++
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", p.Key(), err)
					continue
				}
				ran++
				timed += m.Seconds
				if matching && m.Matches != int64(want[in]) {
					t.Errorf("%s: %d matches, match.Count says %d", p.Key(), m.Matches, want[in])
				} else if !matching && m.Distance != want[in] {
					t.Errorf("%s: distance %d, Myers says %d", p.Key(), m.Distance, want[in])
				}
			}
			t.Logf("%d points ran, %d skipped, in %v", ran, skipped, time.Since(begin).Round(time.Millisecond))
		})
	}
	t.Logf("the quick scale once: %v, %.2f s of it timed (the runner's 10 repetitions and a warm-up: about %.0f s timed)",
		time.Since(start).Round(time.Millisecond), timed, 11*timed)
}

// pairSum is the sum of the distances of every pair i < j of set, by Myers
// pair by pair: what a many-pairs point's Distance must be.
func pairSum(set [][]byte) int {
	sum := 0
	for i := range set {
		for j := i + 1; j < len(set); j++ {
			d, err := lev.Distance(set[i], set[j], lev.WithAlgorithm(lev.Myers))
			if err != nil {
				panic(err)
			}
			sum += d
		}
	}
	return sum
}

// suggestSum is the sum of the distances within SuggestK of every typo and
// word, by Myers pair by pair.
func suggestSum(typos, words [][]byte) int {
	sum := 0
	for _, t := range typos {
		for _, w := range words {
			d, err := lev.DistanceString(string(t), string(w), lev.WithAlgorithm(lev.Myers))
			if err != nil {
				panic(err)
			}
			if d <= SuggestK {
				sum += d
			}
		}
	}
	return sum
}
