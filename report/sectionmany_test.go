package report

import (
	"strings"
	"testing"
)

// TestManyText: what BenchmarkCountMany measured is said with the lanes
// beside a pattern at a time and edlib, each as a factor, Sassy2's figure
// said to be the paper's; nothing without the lanes on one worker.
func TestManyText(t *testing.T) {
	if got := manyText(nil); got != "" {
		t.Errorf("no results: %q, want nothing", got)
	}
	med := map[string]map[string]float64{
		"CountMany/mode=occurrence/path=lanes/workers=1":      {"Gbp/s": 9},
		"CountMany/mode=occurrence/path=lanes/workers=2":      {"Gbp/s": 18},
		"CountMany/mode=occurrence/path=each/workers=1":       {"Gbp/s": 2.5},
		"CountMany/mode=occurrence/path=each/workers=2":       {"Gbp/s": 5},
		"CountMany/mode=occurrence/path=edlib-hw/workers=1":   {"Gbp/s": 0.12},
		"CountMany/mode=occurrence/path=lanes-avx2/workers=1": {"Gbp/s": 4.5},
		"CountMany/mode=window/path=lanes/workers=1":          {"Gbp/s": 1},
	}
	got := manyText(med)
	for _, want := range []string{"scans 9.00 Gbp/s", "and 18.0 on two", "With AVX2 instead, two 256-bit registers a group of sixteen, it scans 4.50 on one worker", "2.50 Gbp/s on one worker (the lanes 3.60× as fast)", "0.120 Gbp/s (the lanes on one worker 75.0× as fast", "the paper's figure, on its authors' machine, over real reads and with a filter of its own; another tool, text and machine, so no ratio is drawn."} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	delete(med, "CountMany/mode=occurrence/path=lanes/workers=1")
	if got := manyText(med); got != "" {
		t.Errorf("without the lanes on one worker: %q, want nothing", got)
	}
}

// TestMatrixText: the whole matrix command's rate beside edlib's, as a
// factor; nothing without either.
func TestMatrixText(t *testing.T) {
	med := map[string]map[string]float64{
		"MatrixCommand/all":       {"GCUPS": 175},
		"ManyPairs/edlib/first40": {"GCUPS": 15},
	}
	if got, want := matrixText(med), "reached 175 matrix Gcells/s, 11.7× edlib's 15.0 one pair per call on one thread (two workers against one thread; edlib's rate is of the first 40 strings against all 800, first40"; !strings.Contains(got, want) {
		t.Errorf("missing %q in:\n%s", want, got)
	}
	// Worker for worker beside two workers against one thread.
	med["ManyPairs/lev/max=-1/workers=1"] = map[string]float64{"GCUPS": 90}
	if got, want := matrixText(med), "(two workers against one thread; on one worker, in process (lev.Cross), 6.00×; edlib's rate"; !strings.Contains(got, want) {
		t.Errorf("missing %q in:\n%s", want, got)
	}
	// And the whole command on one worker, before the call in process.
	med["MatrixCommand/workers=1"] = map[string]float64{"GCUPS": 120}
	if got, want := matrixText(med), "(two workers against one thread; the whole command on one worker 120 matrix Gcells/s, 8.00×; on one worker, in process (lev.Cross), 6.00×; edlib's rate"; !strings.Contains(got, want) {
		t.Errorf("missing %q in:\n%s", want, got)
	}
	delete(med, "ManyPairs/edlib/first40")
	if got := matrixText(med); got != "" {
		t.Errorf("without edlib: %q, want nothing", got)
	}
}

// TestSimilarText: similar pairs' times beside edlib's, as factors, at
// each divergence measured; nothing without levlab's.
func TestSimilarText(t *testing.T) {
	if got := similarText(nil); got != "" {
		t.Errorf("no results: %q, want nothing", got)
	}
	med := map[string]map[string]float64{
		"SimilarCommand/diverged=1/n=1000000/prog=levlab-myers-1-worker":            {"compute-s": 0.1},
		"SimilarCommand/diverged=1/n=1000000/prog=levlab-myers-parallel-2-workers":  {"compute-s": 0.08},
		"SimilarCommand/diverged=1/n=1000000/prog=edlib-aligner":                    {"compute-s": 1.0},
		"SimilarCommand/diverged=15/n=1000000/prog=levlab-myers-1-worker":           {"compute-s": 0.9},
		"SimilarCommand/diverged=1/n=10000000/prog=levlab-myers-parallel-2-workers": {"compute-s": 3.8, "MB": 53},
	}
	got := similarText(med)
	for _, want := range []string{"At 1 %, levlab took 100 ms on one worker (10.0× as fast as edlib) and 80.0 ms on two (12.5×), edlib-aligner 1.00 s", "At 15 %, levlab took 900 ms on one worker.", "10M × 10M at 1 % took 3.80 s on two workers, 53.0 MiB"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestOnePairText: one pair's computation beside edlib-aligner's, and
// the widest kernel's narrowest and widest groups, as factors; nothing
// without either.
func TestOnePairText(t *testing.T) {
	if got := onePairText(nil); got != "" {
		t.Errorf("no results: %q, want nothing", got)
	}
	med := map[string]map[string]float64{
		"DistanceCommand/case=dna/n=1000000/prog=levlab":            {"compute-s": 0.8, "ns/op": 0.9e9, "MB": 17},
		"DistanceCommand/case=dna/n=1000000/prog=edlib-aligner":     {"compute-s": 24},
		"DistanceCommand/case=dna/n=1000000/prog=levlab-one-worker": {"compute-s": 1.6},
		"MyersKernel/kernel=avx512/strips=8":                        {"GCUPS": 80},
		"MyersKernel/kernel=avx512/strips=16":                       {"GCUPS": 150},
		"MyersKernel/kernel=avx512/strips=32":                       {"GCUPS": 200},
		"MyersKernel/kernel=avx2/strips=4":                          {"GCUPS": 30},
		"MyersKernel/kernel=avx2/strips=8":                          {"GCUPS": 54},
	}
	got := onePairText(med)
	for _, want := range []string{"1M × 1M random DNA in 800 ms of computing on two workers (levlab distance, 17.0 MiB resident), 1.60 s on one, edlib-aligner 24.0 s on one thread (30.0× as fast on two workers against one thread, 15.0× on one worker)",
		"the avx512 kernel alone, on one worker, 80.0 matrix Gcells/s with 8 strips in one register, 200 with 32 in 4 registers (2.50×)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "avx2") {
		t.Errorf("the AVX2 kernel said beside the wider one:\n%s", got)
	}
	delete(med, "MyersKernel/kernel=avx512/strips=8")
	delete(med, "MyersKernel/kernel=avx512/strips=16")
	if got := onePairText(med); !strings.Contains(got, "the avx2 kernel alone, on one worker, 30.0 matrix Gcells/s with 4 strips in one register, 54.0 with 8 in 2 registers (1.80×)") {
		t.Errorf("with one AVX-512 width, the AVX2 kernel's widths: got\n%s", got)
	}
}

// TestShortAndText: the per-core rates on short strings and text are said
// only where both were measured, each beside what it ran, and text called
// slower only where it is.
func TestShortAndText(t *testing.T) {
	med := map[string]map[string]float64{
		"ManyPairs/lev-short/max=-1/workers=1": {"GCUPS": 114.3},
		"ManyPairs/lev-text/max=-1/workers=1":  {"GCUPS": 36.66},
	}
	got := shortAndText(med)
	for _, want := range []string{"100–200 bp at 114 matrix Gcells/s", "counted in runes) at 36.7"} {
		if !strings.Contains(got, want) {
			t.Errorf("shortAndText = %q, want %q in it", got, want)
		}
	}
	if !strings.Contains(got, "Text is slower") {
		t.Errorf("text slower than short strings: the reason not given in %q", got)
	}
	med["ManyPairs/lev-text/max=-1/workers=1"]["GCUPS"] = 120
	if got := shortAndText(med); strings.Contains(got, "Text is slower") {
		t.Errorf("text faster than short strings, yet said slower: %q", got)
	}
	delete(med, "ManyPairs/lev-text/max=-1/workers=1")
	if got := shortAndText(med); got != "" {
		t.Errorf("without text: %q, want nothing", got)
	}
}
