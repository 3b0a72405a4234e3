package records

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// A machine's benchmark output lives beside its runs:
//
//	<root>/<machine>/bench/*.txt   go test -bench output, one file a package
//
// in the Go benchmark format (golang.org/design/14313-benchmark-format):
// "key: value" configuration lines — goos, goarch, pkg and cpu from go
// test, and those the writer adds, such as commit and command — then a
// line per benchmark run. make bench-results writes them.

// BenchFolder is the folder of a machine's benchmark output.
const BenchFolder = "bench"

// BenchPath returns the folder of a machine's benchmark output under root.
func BenchPath(root, machine string) string { return filepath.Join(root, machine, BenchFolder) }

// A BenchFile is one file of benchmark output.
type BenchFile struct {
	Path    string
	Config  map[string]string // the configuration lines, last value of a key
	Results []BenchResult     // in file order; a benchmark run -count times has that many
}

// A BenchResult is one line of benchmark output.
type BenchResult struct {
	// Name is the benchmark's name without "Benchmark" and the
	// GOMAXPROCS suffix: "Distance/alg=myers/n=10000/workers=1".
	Name  string
	Procs int // the GOMAXPROCS suffix, 1 when there is none
	Iters int64
	// Values maps each unit to its value: "ns/op", "MB/s", "GCUPS",
	// "B/op", "allocs/op", ….
	Values map[string]float64
}

// ReadBench reads a file of benchmark output. Lines that are neither
// configuration nor results (PASS, ok, test logs) are skipped; a result
// line that does not parse is an error naming the file and line.
func ReadBench(path string) (BenchFile, error) {
	fh, err := openRegular(path)
	if err != nil {
		return BenchFile{}, err
	}
	defer fh.Close()
	f := BenchFile{Path: path, Config: map[string]string{}}
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "Benchmark") {
			r, err := parseBenchLine(line)
			if err != nil {
				return BenchFile{}, fmt.Errorf("records: %s:%d: %w", path, n, err)
			}
			f.Results = append(f.Results, r)
			continue
		}
		if key, value, ok := strings.Cut(line, ":"); ok && key != "" && !strings.ContainsFunc(key, func(r rune) bool {
			return r == ' ' || r == '\t' || (r >= 'A' && r <= 'Z')
		}) {
			f.Config[key] = strings.TrimSpace(value)
		}
	}
	if err := sc.Err(); err != nil {
		return BenchFile{}, fmt.Errorf("records: %s: %w", path, err)
	}
	return f, nil
}

// parseBenchLine parses "BenchmarkName-P  iters  v1 unit1  v2 unit2 …".
func parseBenchLine(line string) (BenchResult, error) {
	fields := strings.Fields(line)
	if len(fields) < 4 || len(fields)%2 != 0 {
		return BenchResult{}, fmt.Errorf("benchmark line %q: want a name, iterations and value-unit pairs", line)
	}
	r := BenchResult{Name: strings.TrimPrefix(fields[0], "Benchmark"), Procs: 1, Values: map[string]float64{}}
	if i := strings.LastIndexByte(r.Name, '-'); i >= 0 {
		if p, err := strconv.Atoi(r.Name[i+1:]); err == nil && p > 0 {
			r.Name, r.Procs = r.Name[:i], p
		}
	}
	iters, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil || iters <= 0 {
		return BenchResult{}, fmt.Errorf("benchmark line %q: iterations %q is not a positive integer", line, fields[1])
	}
	r.Iters = iters
	for i := 2; i < len(fields); i += 2 {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			return BenchResult{}, fmt.Errorf("benchmark line %q: value %q is not a number", line, fields[i])
		}
		r.Values[fields[i+1]] = v
	}
	return r, nil
}
