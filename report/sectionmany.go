package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// manyFiles is the benchmark file of many patterns at once (make
// bench-results' many.txt): a table in Benchmarks, and what it measured
// in "Beyond the reports" (manyPatterns).
var manyFiles = []string{"many.txt"}

// benchSays adds to s, for each machine read whose benchmark files of
// names say something of, a paragraph: lead, the machine, and what say
// makes of the files' medians.
func benchSays(r *runs.Set, s *document.Section, names []string, lead string, say func(med map[string]map[string]float64) string) {
	for machine, on := range benchMachines(r) {
		if text := say(benchMedians(r.Bench[machine], names)); text != "" {
			s.P("%s%s (make bench-results%s): %s", lead, on, benchMedianOf(benchFilesNamed(r.Bench[machine], names)), text)
		}
	}
}

// manyPatterns adds to s what BenchmarkCountMany measured: match.Count of
// many patterns in lanes beside a pattern at a time and beside edlib.
func manyPatterns(r *runs.Set, s *document.Section) {
	benchSays(r, s, manyFiles, "Many patterns at once", manyText)
}

// manyText says what the medians med, by benchmark name and unit, of
// BenchmarkCountMany measured; "" without its lanes on one worker.
func manyText(med map[string]map[string]float64) string {
	const pre = "CountMany/mode=occurrence/path="
	at := func(path string, workers int) map[string]float64 {
		return med[fmt.Sprintf("%s%s/workers=%d", pre, path, workers)]
	}
	rate := func(path string, workers int) float64 { return at(path, workers)["Gbp/s"] }
	l1, l2, e1, e2, ed := rate("lanes", 1), rate("lanes", 2), rate("each", 1), rate("each", 2), rate("edlib-hw", 1)
	avx2 := rate("lanes-avx2", 1)
	if l1 == 0 {
		return ""
	}
	says := []string{fmt.Sprintf("96 patterns of 24 symbols over 100 MB of random DNA with k = 3 (occurrence mode), match.Count scans %s Gbp/s, patterns times symbols, on one worker", document.Num(l1))}
	if l2 > 0 {
		says[0] += fmt.Sprintf(" and %s on two", document.Num(l2))
	}
	says[0] += ", in lanes (sixteen patterns to a 512-bit register, four registers stepped together)"
	if avx2 > 0 {
		says[0] += fmt.Sprintf(". With AVX2 instead, two 256-bit registers a group of sixteen, it scans %s on one worker", document.Num(avx2))
	}
	if e1 > 0 {
		w := fmt.Sprintf(". A pattern at a time, the q-gram filter then Myers' scan, it scans %s Gbp/s on one worker (the lanes %s as fast%s)", document.Num(e1), document.Times(l1/e1), runsRange(at("lanes", 1), "Gbp/s", at("each", 1), "Gbp/s"))
		if e2 > 0 {
			w += fmt.Sprintf(" and %s on two", document.Num(e2))
		}
		says = append(says, w)
	}
	if ed > 0 {
		says = append(says, fmt.Sprintf(". In edlib's infix mode, a pattern a call on one thread over the first 8 of the 96 patterns (rates compared, not times: 8 patterns keep its run short), edlib scans %s Gbp/s (the lanes on one worker %s as fast%s; edlib finds each pattern's best ends, not every end within k)", document.Num(ed), document.Times(l1/ed), runsRange(at("lanes", 1), "Gbp/s", at("edlib-hw", 1), "Gbp/s")))
	}
	says = append(says, ". Sassy2 (Beeloo and Groot Koerkamp, bioRxiv 2026) publishes 116.8 Gbp/s demultiplexing Nanopore reads (sorting each by which of 96 barcodes it carries) on 16 threads: the paper's figure, on its authors' machine, over real reads and with a filter of its own; another tool, text and machine, so no ratio is drawn")
	return strings.Join(says, "") + "."
}

// pairsFiles are the benchmark files of the many-pairs command beside
// edlib (make bench-results' matrix.txt and pairs.txt, one run).
var pairsFiles = []string{"matrix.txt", "pairs.txt"}

// matrixCommand adds to s the rate of the whole levlab matrix command
// beside edlib's one pair per call.
func matrixCommand(r *runs.Set, s *document.Section) {
	benchSays(r, s, pairsFiles, "Many pairs as a user runs them", matrixText)
}

// matrixText says what BenchmarkMatrixCommand and BenchmarkManyPairs'
// edlib measured; "" without both.
func matrixText(med map[string]map[string]float64) string {
	all, ed := med["MatrixCommand/all"]["GCUPS"], med["ManyPairs/edlib/first40"]["GCUPS"]
	spread := runsRange(med["MatrixCommand/all"], "GCUPS", med["ManyPairs/edlib/first40"], "GCUPS")
	if all == 0 || ed == 0 {
		return ""
	}
	// Worker for worker: the whole command on one worker, and the same
	// pairs in process.
	one := ""
	if c1 := med["MatrixCommand/workers=1"]["GCUPS"]; c1 > 0 {
		one = fmt.Sprintf("; the whole command on one worker %s %s, %s", document.Num(c1), matrixRate, document.Times(c1/ed))
	}
	if l1 := med["ManyPairs/lev/max=-1/workers=1"]["GCUPS"]; l1 > 0 {
		one += fmt.Sprintf("; on one worker, in process (lev.Cross), %s", document.Times(l1/ed))
	}
	return fmt.Sprintf("levlab matrix of 800 random DNA strings of 500–1,000 bp, every pair of them (800 × 800), the whole command on two workers (reading, 640,000 pairs, their lines), reached %s %s, %s edlib's %s one pair per call on one thread (two workers against one thread%s%s; edlib's rate is of the first 40 strings against all 800, first40, which keeps its run short: a rate set beside a rate, not a time beside a time).%s",
		document.Num(all), matrixRate, document.Times(all/ed), document.Num(ed), spread, one, shortAndText(med))
}

// shortAndText says the per-core rates of BenchmarkManyPairs' short DNA
// strings and UTF-8 text; "" without them.
func shortAndText(med map[string]map[string]float64) string {
	short, text := med["ManyPairs/lev-short/max=-1/workers=1"]["GCUPS"], med["ManyPairs/lev-text/max=-1/workers=1"]["GCUPS"]
	if short == 0 || text == 0 {
		return ""
	}
	why := ""
	if text < short {
		why = " Text is slower; we attribute it (not measured) to an alphabet of more than seven symbols running the lanes a column at a time, each lane's match word loaded from memory rather than picked out of a register by a vector shuffle."
	}
	return fmt.Sprintf(" Per core, on one worker in process (lev.Cross): 5,000 × 5,000 random DNA strings of 100–200 bp at %s %s, and 2,000 × 2,000 random UTF-8 strings of 100–200 runes (37 distinct, counted in runes) at %s.%s",
		document.Num(short), matrixRate, document.Num(text), why)
}

// similarFiles is the benchmark file of similar pairs (make
// bench-results' similar.txt).
var similarFiles = []string{"similar.txt"}

// similarPairs adds to s what BenchmarkSimilarCommand measured: levlab
// distance on similar pairs beside edlib-aligner.
func similarPairs(r *runs.Set, s *document.Section) {
	benchSays(r, s, similarFiles, "Similar sequences", similarText)
}

// similarText says what BenchmarkSimilarCommand's medians med measured,
// each computation's time beside edlib-aligner's as a factor; "" without
// any.
func similarText(med map[string]map[string]float64) string {
	const pre = "SimilarCommand/diverged="
	var says []string
	for _, p := range []int{1, 5, 15} {
		of := func(prog string) map[string]float64 {
			return med[fmt.Sprintf("%s%d/n=1000000/prog=%s", pre, p, prog)]
		}
		at := func(prog string) float64 { return of(prog)["compute-s"] }
		one, two, ed := at("levlab-myers-1-worker"), at("levlab-myers-parallel-2-workers"), at("edlib-aligner")
		if one == 0 && two == 0 {
			continue
		}
		var parts []string
		if one > 0 {
			w := document.Dur(one) + " on one worker"
			if ed > 0 {
				w += " (" + document.Times(ed/one) + " as fast as edlib" + runsRange(of("edlib-aligner"), "compute-s", of("levlab-myers-1-worker"), "compute-s") + ")"
			}
			parts = append(parts, w)
		}
		if two > 0 {
			w := document.Dur(two) + " on two"
			if ed > 0 {
				w += " (" + document.Times(ed/two) + runsRange(of("edlib-aligner"), "compute-s", of("levlab-myers-parallel-2-workers"), "compute-s") + ")"
			}
			parts = append(parts, w)
		}
		line := fmt.Sprintf("At %d %%, levlab took %s", p, strings.Join(parts, " and "))
		if ed > 0 {
			line += ", edlib-aligner " + document.Dur(ed)
		}
		says = append(says, line)
	}
	if len(says) == 0 {
		return ""
	}
	text := "1M × 1M random DNA against itself diverged by uniform edits, the computation as each command reports it. " + strings.Join(says, ". ")
	if m := med["SimilarCommand/diverged=1/n=10000000/prog=levlab-myers-parallel-2-workers"]; m != nil {
		text += fmt.Sprintf(". 10M × 10M at 1 %% took %s on two workers, %s resident", document.Dur(m["compute-s"]), residentText(m["MB"]))
	}
	return text + ". The exact pass computes only the cells a path of the first, narrow pass's cost can reach (A*PA2's band without its heuristic)."
}

// onePairFiles are the benchmark files of one pair as a user computes it
// (make bench-results' distance.txt) and of the kernel alone (kernel.txt).
var onePairFiles = []string{"distance.txt", "kernel.txt"}

// onePair adds to s what BenchmarkDistanceCommand and BenchmarkMyersKernel
// measured: one random pair beside edlib-aligner, and the kernel's rate
// by group width.
func onePair(r *runs.Set, s *document.Section) {
	for machine, on := range benchMachines(r) {
		med := benchMedians(r.Bench[machine], onePairFiles)
		text := onePairText(med)
		if text == "" {
			continue
		}
		text += samePairElsewhere(r, machine, med["DistanceCommand/case=dna/n=1000000/prog=levlab"]["compute-s"])
		s.P("One pair as a user runs it%s (make bench-results%s): %s", on, benchMedianOf(benchFilesNamed(r.Bench[machine], onePairFiles)), text)
	}
}

// samePairElsewhere says where else machine's runs timed the pair of 1M ×
// 1M on two workers that the distance command computed in cmd seconds:
// the GPU section's myers-parallel (in process, another run) and Beyond
// one machine's one process (a build with -tags mpi), and how far the
// three lie apart beside how far runs of one point lie apart there
// (betweenRuns); "" where neither was timed.
func samePairElsewhere(r *runs.Set, machine string, cmd float64) string {
	if cmd <= 0 {
		return ""
	}
	var says []string
	secs := []float64{cmd}
	spread := 0.0
	for _, ix := range r.Runs {
		if ix.Run.Machine != machine {
			continue
		}
		if n, worst, _, _ := betweenRuns(ix); n > 0 {
			spread = max(spread, worst)
		}
		for _, k := range ix.Find(records.ExpGPUFast, func(k runs.Key) bool {
			return k.Algorithm == records.AlgMyersParallel && k.LenA == 1000000 && k.LenB == 1000000
		}) {
			strs := "random DNA too"
			if k.Case != records.CaseDNA {
				strs = "strings of case " + k.Case + ", not DNA"
			}
			secs = append(secs, ix.Stats[k].Med)
			says = append(says, fmt.Sprintf("the GPU section's %s, %s on %s (experiment gpu-fast%s), in process with the strings' memory inside the time", k.Algorithm, document.Dur(ix.Stats[k].Med), strs, gpuRowNote(r, ix, "the GPU section's table")))
		}
	}
	if one := benchMedians(r.Bench[machine], scaleOutFiles)["ScaleOut/distance/n=1000000/run=one-process-2-workers"]["compute-s"]; one > 0 {
		secs = append(secs, one)
		says = append(says, fmt.Sprintf("the scale-out runs' one process (below), %s of computing in a build with -tags mpi", document.Dur(one)))
	}
	if len(says) == 0 {
		return ""
	}
	apart := slices.Max(secs) / slices.Min(secs)
	count := document.Count(len(secs))
	if len(secs) <= 3 {
		count = []string{"", "", "two", "three"}[len(secs)]
	}
	text := fmt.Sprintf(" The same pair, timed in other runs: %s; the %s times lie up to %s apart", strings.Join(says, "; "), count, document.Times(apart))
	switch {
	case spread == 0:
	case apart <= spread:
		text += fmt.Sprintf(", within how far runs of one point lie apart here (up to %s, Method)", document.Times(spread))
	default:
		text += fmt.Sprintf(", further than runs of one point lie apart here (up to %s, Method), which the records do not explain", document.Times(spread))
	}
	return text + "."
}

// onePairText says what the medians med of BenchmarkDistanceCommand (1M,
// levlab beside edlib-aligner) and BenchmarkMyersKernel (the narrowest
// and widest groups of the widest kernel measured) measured; "" without
// either.
func onePairText(med map[string]map[string]float64) string {
	var says []string
	const pre = "DistanceCommand/case=dna/n=1000000/prog="
	if ours := med[pre+"levlab"]; ours["compute-s"] > 0 {
		w := fmt.Sprintf("1M × 1M random DNA in %s of computing on two workers (levlab distance, %s resident)", document.Dur(ours["compute-s"]), residentText(ours["MB"]))
		one := med[pre+"levlab-one-worker"]["compute-s"]
		if one > 0 {
			w += fmt.Sprintf(", %s on one", document.Dur(one))
		}
		if ed := med[pre+"edlib-aligner"]; ed["compute-s"] > 0 {
			w += fmt.Sprintf(", edlib-aligner %s on one thread (%s as fast on two workers against one thread%s", document.Dur(ed["compute-s"]), document.Times(ed["compute-s"]/ours["compute-s"]), runsRange(ed, "compute-s", ours, "compute-s"))
			if one > 0 {
				w += fmt.Sprintf(", %s on one worker%s", document.Times(ed["compute-s"]/one), runsRange(ed, "compute-s", med[pre+"levlab-one-worker"], "compute-s"))
			}
			w += ")"
		}
		says = append(says, w)
	}
	for _, k := range []struct {
		name  string
		lanes int
	}{{"avx512", 8}, {"avx2", 4}} {
		var lo, hi int // the narrowest and widest groups measured
		kern := func(strips int) map[string]float64 {
			return med[fmt.Sprintf("MyersKernel/kernel=%s/strips=%d", k.name, strips)]
		}
		gcups := func(strips int) float64 { return kern(strips)["GCUPS"] }
		for _, strips := range []int{4, 8, 16, 24, 32} {
			if gcups(strips) > 0 {
				lo, hi = cmp.Or(lo, strips), strips
			}
		}
		if lo < hi {
			says = append(says, fmt.Sprintf("the %s kernel alone, on one worker, %s %s with %d strips in one register, %s with %d in %s registers (%s%s): registers stepped together overlap their waits, we take it (not measured)",
				k.name, document.Num(gcups(lo)), matrixRate, lo, document.Num(gcups(hi)), hi, document.Count(hi/k.lanes), document.Times(gcups(hi)/gcups(lo)), runsRange(kern(hi), "GCUPS", kern(lo), "GCUPS")))
			break // the widest kernel measured
		}
	}
	if len(says) == 0 {
		return ""
	}
	return strings.Join(says, "; ") + "."
}
