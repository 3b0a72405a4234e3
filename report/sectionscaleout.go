package report

import (
	"fmt"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"
)

// scaleOutFiles are the benchmark files of what levlab costs beyond one
// process (make bench-results' scaleout and scaleout-huge): shown in
// "Beyond the reports" (scaleOut), not as plain benchmark tables.
var scaleOutFiles = []string{"scaleout.txt", "scaleout-huge.txt"}

// scaleOut adds to s, for each machine read that has them, what
// BenchmarkScaleOut and BenchmarkScaleOutHuge measured: one pair over MPI
// ranks beside one process, shards beside one process, merge.
func scaleOut(r *runs.Set, s *document.Section) {
	for machine, on := range benchMachines(r) {
		med := benchMedians(r.Bench[machine], scaleOutFiles)
		// The same one process, timed in the One pair section's run.
		other := benchMedians(r.Bench[machine], onePairFiles)["DistanceCommand/case=dna/n=1000000/prog=levlab"]["compute-s"]
		if text := scaleOutText(med, other); text != "" {
			// Each time says how many runs it is the median of.
			s.P("Beyond one machine%s (make bench-results%s): %s", on, benchCommits(benchFilesNamed(r.Bench[machine], scaleOutFiles)), text)
		}
	}
}

// rangeMin and rangeMax, after a unit, name the least and the most of its
// runs in benchMedians' map ("ns/op (least)"), runsOf how many there were.
const (
	rangeMin = " (least)"
	rangeMax = " (most)"
	runsOf   = " (runs)"
)

// scaleOutText says what the medians med, by benchmark name and unit,
// measured, each run beside one process; "" without any. other, where
// not 0, is the seconds of computing the one process of 2 workers took
// in another run of the benchmarks (the One pair section's).
func scaleOutText(med map[string]map[string]float64, other float64) string {
	const (
		one     = "ScaleOut/distance/n=1000000/run=one-process-2-workers"
		mpi     = "ScaleOut/distance/n=1000000/run=mpirun-2-ranks-1-worker"
		sh      = "ScaleOut/matrix/strings=20000/max=50/run=3-shards-summed"
		mg      = "ScaleOut/merge/lines=10001628"
		nearest = "ScaleOut/matrix/strings=2000/top=5/run=mpirun-2-ranks-1-worker"
		huge    = "ScaleOutHuge/distance/n=10000000/run=mpirun-2-ranks-1-worker"
	)
	var says []string
	if a, b := med[one], med[mpi]; a != nil && b != nil {
		against := runsRange(a, "compute-s", b, "compute-s")
		if other > 0 && b["compute-s"] > 0 {
			// The one process's own run against another: the ratio
			// moves with the baseline's spread between runs.
			x := other / b["compute-s"]
			lo, hi := min(x, a["compute-s"+rangeMin]/b["compute-s"+rangeMax]), max(x, a["compute-s"+rangeMax]/b["compute-s"+rangeMin])
			against += fmt.Sprintf("; %s against its run as a user runs it (above), %s: %s–%s× with the baseline's spread between runs", document.Times(x), document.Dur(other), document.Num(lo), document.Num(hi))
		}
		says = append(says, fmt.Sprintf("One pair of 1M × 1M random DNA computed by mpirun -np 2, one worker a rank, took %s of computing against %s in one process of 2 workers (%s as fast%s), and %s against %s as whole commands (%s as fast%s, mpirun's start included), %s the largest rank. The ranks run the banded pass alone (lev's trimmed pass is not split over ranks), where one process trims, so part of the gap is the algorithm, not MPI",
			timeRuns(b, "compute-s", 1), timeRuns(a, "compute-s", 1), document.Times(a["compute-s"]/b["compute-s"]), against,
			timeRuns(b, "ns/op", 1e-9), timeRuns(a, "ns/op", 1e-9), document.Times(a["ns/op"]/b["ns/op"]), runsRange(a, "ns/op", b, "ns/op"), residentText(b["MB"])))
	}
	if m := med[huge]; m != nil {
		says = append(says, fmt.Sprintf("One pair of 10M × 10M random DNA (two unrelated strings, whose distance is about half their length, so that a band saves little; not comparable with the 1 %% diverged 10M pair above) took %s over 2 ranks as a whole command, %s the largest rank", timeRuns(m, "ns/op", 1e-9), residentText(m["MB"])))
	}
	if m := med[sh]; m != nil && m["one-process-s"] > 0 {
		says = append(says, fmt.Sprintf("The command levlab matrix --max 50 of 20,000 strings of 100–1,000 bytes in 3 shards, run one after another, took %s summed against %s in one process (%s as fast%s)",
			timeRuns(m, "ns/op", 1e-9), document.Dur(m["one-process-s"]), document.Times(m["one-process-s"]/(m["ns/op"]/1e9)), overRuns(m)))
	}
	if m := med[nearest]; m != nil && m["one-process-s"] > 0 {
		says = append(says, fmt.Sprintf("The command levlab matrix --top 5 of 2,000 such strings under mpirun -np 2, one worker a rank, took %s against %s in one process of 2 workers (%s as fast%s, mpirun's start included)",
			timeRuns(m, "ns/op", 1e-9), document.Dur(m["one-process-s"]), document.Times(m["one-process-s"]/(m["ns/op"]/1e9)), overRuns(m)))
	}
	if m := med[mg]; m != nil {
		says = append(says, fmt.Sprintf("The command levlab merge joined 3 shards of 10,001,628 lines in %s, %s resident", timeRuns(m, "ns/op", 1e-9), residentText(m["MB"])))
	}
	if len(says) == 0 {
		return ""
	}
	return strings.Join(says, ". ") + "."
}

// timeRuns writes a benchmark's median of unit u, in seconds times
// scale, with how many runs it is the median of where the map says:
// "1.49 s (3 runs)", "128 s (one run)".
func timeRuns(m map[string]float64, u string, scale float64) string {
	t := document.Dur(m[u] * scale)
	switch n := int(m[u+runsOf]); {
	case n == 1:
		t += " (one run)"
	case n > 1:
		t += fmt.Sprintf(" (%d runs)", n)
	}
	return t
}

// overRuns says how a benchmark's one-process time (one-process-s) over
// its own (ns/op), how many times as fast it is, ranges over its runs,
// the fastest of one over the slowest of the other and back: "; 0.812–1.03×
// over the runs, indistinguishable from 1×". "" where the runs' range is not
// known.
func overRuns(m map[string]float64) string {
	// ns/op in seconds, as one-process-s.
	sec := map[string]float64{rangeMin: m["ns/op"+rangeMin] / 1e9, rangeMax: m["ns/op"+rangeMax] / 1e9}
	return runsRange(m, "one-process-s", sec, "")
}
