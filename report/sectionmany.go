package report

import (
	"fmt"
	"strings"
)

// manyFiles is the benchmark file of many patterns at once (make
// bench-results' many.txt): a table in Benchmarks, and what it measured
// in "Beyond the reports" (manyPatterns).
var manyFiles = []string{"many.txt"}

// manyPatterns adds to s, for each machine read that has it, what
// BenchmarkCountMany measured: match.Count of many patterns in lanes
// beside a pattern at a time and beside edlib.
func manyPatterns(r *rep, s *section) {
	for machine, on := range benchMachines(r) {
		if text := manyText(benchMedians(r.d.bench[machine], manyFiles)); text != "" {
			s.p("Many patterns at once%s (make bench-results): %s", on, text)
		}
	}
}

// manyText says what the medians med, by benchmark name and unit, of
// BenchmarkCountMany measured; "" without its lanes on one worker.
func manyText(med map[string]map[string]float64) string {
	const pre = "CountMany/mode=occurrence/path="
	rate := func(path string, workers int) float64 {
		return med[fmt.Sprintf("%s%s/workers=%d", pre, path, workers)]["Gbp/s"]
	}
	l1, l2, e1, e2, ed := rate("lanes", 1), rate("lanes", 2), rate("each", 1), rate("each", 2), rate("edlib-hw", 1)
	avx2 := rate("lanes-avx2", 1)
	if l1 == 0 {
		return ""
	}
	says := []string{fmt.Sprintf("96 patterns of 24 symbols over 100 MB of random DNA with k = 3 (occurrence mode), match.Count scans %s Gbp/s, patterns times symbols, on one worker", num(l1))}
	if l2 > 0 {
		says[0] += fmt.Sprintf(" and %s on two", num(l2))
	}
	says[0] += ", in lanes (sixteen patterns to a 512-bit register, four registers stepped together)"
	if avx2 > 0 {
		says[0] += fmt.Sprintf("; with AVX2 instead, two 256-bit registers a group of sixteen, %s on one worker", num(avx2))
	}
	if e1 > 0 {
		w := fmt.Sprintf("; a pattern at a time, the q-gram filter then Myers' scan, it took %s Gbp/s on one worker (%s slower)", num(e1), times(l1/e1))
		if e2 > 0 {
			w += fmt.Sprintf(" and %s on two", num(e2))
		}
		says = append(says, w)
	}
	if ed > 0 {
		says = append(says, fmt.Sprintf("; edlib's infix mode, a pattern a call on one thread, %s Gbp/s (%s slower than the lanes on one worker; edlib finds each pattern's best ends, not every end within k)", num(ed), times(l1/ed)))
	}
	says = append(says, ". Sassy2 (Beeloo and Groot Koerkamp, Bioinformatics 2026) publishes 116.8 Gbp/s for this setting on 16 threads, 7.3 a thread, on its authors' machine: a figure from the paper, not measured here")
	return strings.Join(says, "") + "."
}

// pairsFiles are the benchmark files of the many-pairs command beside
// edlib (make bench-results' matrix.txt and pairs.txt, one run).
var pairsFiles = []string{"matrix.txt", "pairs.txt"}

// matrixCommand adds to s, for each machine read that has them, the rate
// of the whole levlab matrix command beside edlib's a pair a call.
func matrixCommand(r *rep, s *section) {
	for machine, on := range benchMachines(r) {
		if text := matrixText(benchMedians(r.d.bench[machine], pairsFiles)); text != "" {
			s.p("Many pairs as a user runs them%s (make bench-results): %s", on, text)
		}
	}
}

// matrixText says what BenchmarkMatrixCommand and BenchmarkManyPairs'
// edlib measured; "" without both.
func matrixText(med map[string]map[string]float64) string {
	all, ed := med["MatrixCommand/all"]["GCUPS"], med["ManyPairs/edlib/first40"]["GCUPS"]
	if all == 0 || ed == 0 {
		return ""
	}
	return fmt.Sprintf("levlab matrix of 800 × 800 random DNA strings of 500–1,000 bp, the whole command on two workers (reading, 640,000 pairs, their lines), reached %s GCUPS, %s edlib's %s GCUPS a pair a call on one thread.",
		num(all), times(all/ed), num(ed))
}
