package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// How far apart the same point lies between experiments and runs, and a
// ratio's interval, as the sections say it.

// betweenRuns finds, among the points run ix measured in more than one
// experiment (betweenGroups), how many there are and the pair of
// experiments whose medians lie furthest apart: its fastest and slowest
// keys and their ratio.
func betweenRuns(ix *runs.Index) (n int, worst float64, lo, hi runs.Key) {
	for _, ks := range betweenGroups(ix) {
		slices.SortFunc(ks, func(a, b runs.Key) int { return strings.Compare(a.Experiment, b.Experiment) })
		found := false
		for _, l := range ks {
			for _, h := range ks {
				if l.Experiment == h.Experiment || ix.Stats[l].Med <= 0 {
					continue
				}
				found = true
				if x := ix.Stats[h].Med / ix.Stats[l].Med; x > worst || (x == worst && runs.Less(h, hi)) {
					worst, lo, hi = x, l, h
				}
			}
		}
		if found {
			n++
		}
	}
	return n, worst, lo, hi
}

// betweenGroups is ix's points grouped as one point measured again: the
// same in all but experiment (ix.SamePoints), and for a GPU kernel also
// on strings of another case: its threads compute every cell, the same
// cells whatever the strings, without a branch on them (cuda-diagonal at
// 150,000 on report 000's strings and on ours). A CPU loop's branches and
// a banded algorithm's work are the strings' own. Only groups that span
// two experiments are kept.
func betweenGroups(ix *runs.Index) [][]runs.Key {
	groups := map[runs.Key][]runs.Key{}
	for g, ks := range ix.SamePoints() {
		if strings.HasPrefix(g.Algorithm, "cuda-") && !slices.Contains(bandedAlgos, g.Algorithm) {
			g.Case = ""
		}
		groups[g] = append(groups[g], ks...)
	}
	var out [][]runs.Key
	for _, ks := range groups {
		for _, k := range ks[1:] {
			if k.Experiment != ks[0].Experiment {
				out = append(out, ks)
				break
			}
		}
	}
	return out
}

// medsElsewhere is the least and the most median of point b (algorithm,
// workers, tile, lengths) in ix's experiments other than b's, and how many
// measured it.
func medsElsewhere(ix *runs.Index, b runs.Key) (lo, hi float64, others int) {
	lo = math.Inf(1)
	for k, st := range ix.Stats {
		if k.Experiment != b.Experiment && k.Algorithm == b.Algorithm && k.Workers == b.Workers && k.Tile == b.Tile && k.LenA == b.LenA && k.LenB == b.LenB {
			lo, hi, others = min(lo, st.Med), max(hi, st.Med), others+1
		}
	}
	return lo, hi, others
}

// ciOf is the 95% bootstrap interval of the ratio of base's median time
// over that's, as Key results writes it after the ratio (", 95% CI
// 24.1–27.3", with "not significant" where the test cannot tell the two
// apart); "" where the points hold too few repetitions for one.
func ciOf(ix *runs.Index, base, that runs.Key) string {
	q, ok := ix.SpeedupOf(base, that)
	if !ok || !q.CIKnown {
		return ""
	}
	s := fmt.Sprintf(", 95%% CI %s", document.CI(q.Lo, q.Hi))
	if !q.Significant {
		s += ", not significant"
	}
	return s + acrossRuns(ix, base, that)
}
