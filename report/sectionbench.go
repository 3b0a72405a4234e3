package report

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/levlab/levlab/report/internal/document"
	"github.com/levlab/levlab/report/internal/runs"

	"github.com/levlab/levlab/records"
)

// sectionBenchmarks shows, for each machine read, its go test -bench
// output (records.Benches; make bench-results writes it): the library's
// own timings, regenerated rather than copied by hand.
func sectionBenchmarks(r *runs.Set) document.Section {
	s := document.Section{ID: SectionBenchmarks, Title: "Benchmarks: the library timed by go test"}
	shown := false
	for machine, on := range benchMachines(r) {
		for _, f := range r.Bench[machine] {
			if slices.Contains(scaleOutFiles, filepath.Base(f.Path)) {
				continue // in Beyond the reports
			}
			if t := benchTable(f, on); t != nil {
				// A benchmark table is for looking things up, and its
				// numbers are quoted where the report uses them: its rows
				// on a click (on paper, its caption alone).
				t.Folded = true
				if !shown {
					s.P("Each table is one file of go test -bench output, the median of its repetitions (ns/op) and, below it, the benchmark's throughput or memory: " + matrixRate + " the benchmark's GCUPS metric, MB/s the text's bytes a second, Gbp/s as Terms says, compute-s the seconds of computing a whole command reports for itself (its start and its reading left out), MiB peak resident a whole command's largest resident memory (the benchmarks' metric named MB, in units of 2²⁰ bytes). The command make bench-results measures them again on the machine it runs on. The tables are raw detail: in HTML each opens with a click, and Markdown and TeX hold them whole; paper leaves this section out, as Method says; the sections above quote what they measured.")
					shown = true
				}
				s.Add(t)
			}
		}
	}
	s.Screen = shown
	if !shown {
		s.P("None of the machines read has benchmark output: make bench-results writes it, to results/<machine>/bench/.")
	}
	return s
}

// benchTable pivots a file's results: a row per setting (the name's k=v
// parts but n), a column per n, each cell the median time and the median
// throughput. A file without results gives nil.
func benchTable(f records.BenchFile, on string) *document.Table {
	type cell struct {
		ns   []float64
		rate map[string][]float64 // by metric, those of benchMetrics
	}
	var benches, rows, cols []string
	var ns []int
	cells := map[[2]string]*cell{}
	for _, res := range f.Results {
		bench, row, col, n := benchSetting(res.Name)
		if !slices.Contains(benches, bench) {
			benches = append(benches, bench)
		}
		row = bench + ": " + row
		if !slices.Contains(rows, row) {
			rows = append(rows, row)
		}
		if !slices.Contains(cols, col) {
			cols, ns = append(cols, col), append(ns, n)
		}
		c := cells[[2]string{row, col}]
		if c == nil {
			c = &cell{rate: map[string][]float64{}}
			cells[[2]string{row, col}] = c
		}
		c.ns = append(c.ns, res.Values["ns/op"])
		for _, u := range benchMetrics {
			if v, ok := res.Values[u]; ok {
				c.rate[u] = append(c.rate[u], v)
			}
		}
	}
	if len(rows) == 0 {
		return nil
	}
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return ns[a] - ns[b] })
	// One benchmark in the file: its name heads the table, not every row.
	caption := "Benchmark" + strings.Join(benches, ", Benchmark") + on + " (" + filepath.Base(f.Path)
	for _, k := range []string{"commit", "date"} {
		if v := f.Config[k]; v != "" {
			caption += ", " + k + " " + v
		}
	}
	caption += ")"
	t := &document.Table{Caption: caption, Head: []string{"setting"}}
	for _, i := range order {
		t.Head = append(t.Head, cols[i])
	}
	for _, row := range rows {
		label := row
		if len(benches) == 1 {
			label = strings.TrimPrefix(row, benches[0]+": ")
		}
		line := []string{label}
		for _, i := range order {
			c := cells[[2]string{row, cols[i]}]
			if c == nil {
				line = append(line, "")
				continue
			}
			var ms []string
			for _, u := range benchMetrics {
				if r := c.rate[u]; len(r) > 0 {
					ms = append(ms, metric(u, runs.Median(r)))
				}
			}
			v := document.Dur(runs.Median(c.ns) / 1e9)
			if len(ms) > 0 {
				v += "\n" + strings.Join(ms, ", ")
			}
			line = append(line, v)
		}
		t.Rows = append(t.Rows, line)
	}
	return t
}

// benchMetrics are the metrics a cell shows beneath its time, in order:
// throughput, a command's own account of its computation, memory.
var benchMetrics = []string{"GCUPS", "MB/s", "Gbp/s", "compute-s", "MB"}

// metric is how a cell shows value v of metric u: compute-s is the
// computation alone as a command reports it (BenchmarkDistanceCommand's),
// MB alone a command's peak resident memory.
func metric(u string, v float64) string {
	switch u {
	case "compute-s":
		return "compute " + document.Dur(v)
	case "MB":
		return residentText(v) + " peak resident"
	}
	return document.Num(v) + " " + benchMetricName(u)
}

// benchSetting splits a benchmark name, "Distance/alg=myers/n=10000/workers=1",
// into the benchmark ("Distance"), its setting ("myers, workers 1"), its
// column ("n = 10,000", or "time" without an n) and n (0 without one).
func benchSetting(name string) (bench, setting, col string, n int) {
	parts := strings.Split(name, "/")
	var label []string
	col = "time"
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		switch {
		case !ok && p == "all":
			label = append(label, "every pair")
		case !ok:
			label = append(label, p)
		case k == "n":
			if x, err := strconv.Atoi(v); err == nil {
				n, col = x, "n = "+document.Count(x)
				continue
			}
			label = append(label, p)
		default:
			label = append(label, benchWords(k, v))
		}
	}
	return parts[0], strings.Join(label, ", "), col, n
}

// benchWords says a benchmark's key=value in words: "capped at 10" for
// max=10, "1 worker", "AVX-512 kernel", "window mode", "DNA 1% diverged".
func benchWords(k, v string) string {
	x, err := strconv.Atoi(v)
	isNum := err == nil
	switch {
	case k == "alg", k == "prog":
		return v
	case k == "max" && isNum && x < 0:
		return "no cap"
	case k == "max" && isNum:
		return "capped at " + document.Count(x)
	case k == "workers" && isNum:
		return workersN(x)
	case k == "block" && isNum:
		return document.Count(x) + " threads a block"
	case k == "kernel":
		if name, ok := map[string]string{"go": "Go", "avx2": "AVX2", "avx512": "AVX-512"}[v]; ok {
			return name + " kernel"
		}
		return v + " kernel"
	case k == "mode":
		return v + " mode"
	case k == "diverged" && isNum:
		return "DNA " + v + "% diverged"
	case k == "path":
		if words, ok := map[string]string{"lanes": "in lanes", "lanes-avx2": "in lanes, AVX2", "each": "a pattern at a time", "edlib-hw": "edlib infix mode, 8 patterns"}[v]; ok {
			return words
		}
	case k == "case":
		for _, ac := range alignCases {
			if ac.c == v {
				return ac.name
			}
		}
	}
	return k + " " + v
}
