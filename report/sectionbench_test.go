package report

import (
	"reflect"
	"strings"
	"testing"

	"github.com/levlab/levlab/records"
)

// TestBenchmarks reads the fixture's bench/lev.txt: one table, the sizes
// in order whatever the file's, each cell the median time and throughput
// of the repetitions.
func TestBenchmarks(t *testing.T) {
	md := render(t, Options{Results: fixture, Format: FormatMarkdown})
	_, sec, ok := strings.Cut(md, "## Benchmarks: the library timed by go test")
	if !ok {
		t.Fatalf("no Benchmarks section:\n%s", md)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	for _, want := range []string{
		"**BenchmarkDistance (lev.txt, commit 0123456789ab, date 2026-01-02)**",
		"| setting | n = 10,000 | n = 30,000 |",
		"| myers, 1 worker | 2.00 ms (50.0 matrix Gcells/s) | 9.00 ms (100 matrix Gcells/s) |",
		"| tworow, 1 worker | 80.0 ms (1.25 matrix Gcells/s) |  |",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("Benchmarks section lacks %q:\n%s", want, sec)
		}
	}
}

func TestBenchSetting(t *testing.T) {
	for _, tc := range []struct{ name, bench, setting, col string }{
		{"Distance/alg=myers/n=10000/workers=2", "Distance", "myers, 2 workers", "n = 10,000"},
		{"Distance/alg=myers/kernel=avx512/n=10000/workers=1", "Distance", "myers, AVX-512 kernel, 1 worker", "n = 10,000"},
		{"CountMatches/mode=window/alg=apm-fast/n=1048576/workers=1", "CountMatches", "window mode, apm-fast, 1 worker", "n = 1,048,576"},
		{"MyersKernel/avx2", "MyersKernel", "avx2", "time"},
		{"ManyPairs/lev/max=-1/workers=2", "ManyPairs", "lev, no cap, 2 workers", "time"},
		{"MatrixCommand/max=10", "MatrixCommand", "capped at 10", "time"},
		{"MatrixCommand/all", "MatrixCommand", "every pair", "time"},
		{"GPU/alg=cuda-fast/n=10000/block=128", "GPU", "cuda-fast, 128 threads a block", "n = 10,000"},
	} {
		bench, setting, col, _ := benchSetting(tc.name)
		if bench != tc.bench || setting != tc.setting || col != tc.col {
			t.Errorf("benchSetting(%q) = %q, %q, %q; want %q, %q, %q", tc.name, bench, setting, col, tc.bench, tc.setting, tc.col)
		}
	}
}

// TestBenchMetrics: a cell shows each metric its results carry, in
// benchMetrics' order, as a command's benchmark reports them.
func TestBenchMetrics(t *testing.T) {
	f := records.BenchFile{Path: "distance.txt", Results: []records.BenchResult{
		{Name: "DistanceCommand/case=dna/n=50000/prog=levlab", Values: map[string]float64{"ns/op": 15e6, "MB": 9.5, "compute-s": 0.0089}},
		{Name: "DistanceCommand/case=dna/n=50000/prog=levlab", Values: map[string]float64{"ns/op": 17e6, "MB": 9.5, "compute-s": 0.0093}},
		{Name: "DistanceCommand/case=dna/n=50000/prog=edlib-aligner", Values: map[string]float64{"ns/op": 93e6, "MB": 3.3, "compute-s": 0.088}},
	}}
	tb := benchTable(f, "")
	want := [][]string{
		{"Random DNA, levlab", "16.0 ms\ncompute 9.10 ms, 9.50 MiB peak resident"},
		{"Random DNA, edlib-aligner", "93.0 ms\ncompute 88.0 ms, 3.30 MiB peak resident"},
	}
	if !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("rows = %q, want %q", tb.Rows, want)
	}
}
