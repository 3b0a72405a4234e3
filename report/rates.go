package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// The two rates of a distance, each named for what it counts. A record's
// gcups column divides the m×n cells of the matrix by the time, whether
// the algorithm computed them or a band or the trimmed pass skipped them;
// computed_cells counts those it computed (0 where the code that made the
// record did not count). Only the second is a rate of work done, GCUPS;
// the first is named "matrix Gcells/s" everywhere it is shown.
const (
	matrixRate   = "matrix Gcells/s"
	computedRate = "computed GCUPS"
	// matrixRateAxis and computedRateAxis are the rates as an axis names
	// them, short enough for a half-width chart on paper with ", log
	// scale" after them.
	matrixRateAxis   = "matrix Gcells/s (10⁹ cells/s)"
	computedRateAxis = "computed GCUPS (10⁹ cells/s)"
)

// rateDefinition defines both rates once, where the report first shows
// one; counted says whether any record read counted its computed cells.
func rateDefinition(counted bool) string {
	s := "Rates: " + matrixRate + " is the m×n cells of the whole matrix divided by the time, 10⁹ a second, whether the algorithm computed each cell or skipped it (a band, the trimmed pass): a measure of the problem solved, not of the work done, and it may exceed what the machine could compute. A rate in " + computedRate + " (giga cell updates a second) counts only the cells the algorithm computed"
	const terms = " Every other term of the trade the report uses (a band, strips, lanes, Gbp/s, paper scale …) is defined under Terms and references at its end."
	if counted {
		return s + "; it is shown where the records counted them (their computed_cells column). Bit-parallel code computes whole words of 64 cells, so where it skips little its computed rate can pass its matrix rate (the many pairs)." + terms
	}
	return s + "; none of the records read counted them (they were measured before the computed_cells column), so no computed rate is shown." + terms
}

// rateText writes a point's rate as the report shows it: the computed
// GCUPS where its records counted the cells, beside the matrix rate (once,
// said to be every cell, where the two are one number: a GPU kernel that
// computes the whole matrix), else the matrix rate alone, named.
func rateText(st runs.Stat) string {
	switch {
	case st.CCUPS > 0 && document.Num(st.CCUPS) == document.Num(st.GCUPS):
		return fmt.Sprintf("%s %s, every cell computed", document.Num(st.GCUPS), matrixRate)
	case st.CCUPS > 0:
		return fmt.Sprintf("%s %s (%s %s)", document.Num(st.CCUPS), computedRate, document.Num(st.GCUPS), matrixRate)
	}
	return document.Num(st.GCUPS) + " " + matrixRate
}

// rateTextOf is rateText for algorithm alg's point: cuda-fast steps whole
// words of 32 rows a lane, so "every cell computed" leaves out the rows
// that pad a string to them, which its records do not count.
func rateTextOf(alg string, st runs.Stat) string {
	t := rateText(st)
	if alg == records.AlgCUDAFast && strings.HasSuffix(t, ", every cell computed") {
		t += " (the rows padding a string to whole words not counted)"
	}
	return t
}

// benchMetricName is how a metric of go test -bench output is shown: the
// benchmarks report the cells of the matrix a second as "GCUPS", which the
// report names for what it counts.
func benchMetricName(unit string) string {
	if unit == "GCUPS" {
		return matrixRate
	}
	return unit
}

// workersText names the workers of a comparison where they differ: "2
// workers against one thread", then the ratio worker for worker: measured
// (one > 0, the base's time over ours on the base's workers) or, where no
// such point was measured, r divided by the workers' ratio, said so. r is
// the base's time over ours; "" where the workers are the same.
func workersText(ours, theirs int, theirsName string, r, one float64) string {
	if ours <= 0 || theirs <= 0 || ours == theirs {
		return ""
	}
	if one > 0 {
		return fmt.Sprintf("%s against %s; %s on %s as well", workersN(ours), theirsName, document.Times(one), workersN(theirs))
	}
	return fmt.Sprintf("%s against %s; %s per worker, divided", workersN(ours), theirsName, document.Times(r*float64(theirs)/float64(ours)))
}

// oneThread names n threads of a peer: "one thread", "4 threads".
func oneThread(n int) string {
	if n == 1 {
		return "one thread"
	}
	return fmt.Sprintf("%d threads", n)
}

// benchProcs is the GOMAXPROCS a benchmark file's results ran with: the
// most of its results' -N suffixes.
func benchProcs(f records.BenchFile) int {
	p := 0
	for _, r := range f.Results {
		p = max(p, r.Procs)
	}
	return p
}

// repsText says how many repetitions run ix's points hold, as recorded:
// "10 repetitions a point", or "5 to 10 repetitions a point (12 points
// fewer than 10, in offbyone)", naming the experiments of those points.
func repsText(ix *runs.Index) string {
	least, most, fewer := ix.RepsRange()
	if least == most {
		return fmt.Sprintf("%d repetition%s a point", most, plural(most))
	}
	var exps []string
	for k, st := range ix.Stats {
		if st.N < most && !slices.Contains(exps, k.Experiment) {
			exps = append(exps, k.Experiment)
		}
	}
	slices.Sort(exps)
	in := document.JoinAnd(exps)
	if len(exps) > 4 {
		in = fmt.Sprintf("%d experiments", len(exps))
	}
	return fmt.Sprintf("%d to %d repetitions a point (%d point%s fewer than %d, in %s)", least, most, fewer, plural(fewer), most, in)
}

// secs formats a point as its median time, with the spread of its
// repetitions (min–max, in the median's unit) as a second line when there
// are several, marked ‡ where the slowest is an outlier (outlierFactor
// times the median or more).
func secs(s runs.Stat) string {
	if s.N > 1 {
		u, scale := document.DurUnit((s.Min + s.Max) / 2)
		// A spread too small to show at three digits is left out.
		if lo, hi := document.Num(s.Min/scale), document.Num(s.Max/scale); lo != hi {
			mark := ""
			if s.Med > 0 && s.Max > outlierFactor*s.Med {
				mark = " ‡" // an outlier, as Method names them
			}
			return document.Dur(s.Med) + "\n" + lo + "–" + hi + " " + u + mark
		}
	}
	return document.Dur(s.Med)
}
