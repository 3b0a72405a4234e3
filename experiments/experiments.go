// Package experiments holds the tables and figures of the course reports
// behind levlab as data — what each one varies, at which sizes, on which
// inputs — and one runner that times them and appends one CSV record per
// repetition to results/.
//
// An Experiment is a name, its source (the report file and its table or
// figure), and the grid of Points it times at each Scale. The runner makes
// each point's inputs (outside the timing), warms up, times N repetitions
// and writes Records; an interrupted run keeps every finished record and
// resumes where it stopped.
package experiments

import (
	"fmt"
	"strings"
)

// Scale selects the sizes an experiment runs at.
type Scale string

const (
	// Quick finishes in minutes on 2 cores: what tests and
	// `levlab reproduce` run.
	Quick Scale = "quick"
	// Paper uses the reports' own sizes: what the committed results come
	// from.
	Paper Scale = "paper"
)

// Scales lists every scale.
func Scales() []Scale { return []Scale{Quick, Paper} }

// ParseScale returns the scale with the given name.
func ParseScale(s string) (Scale, error) {
	for _, sc := range Scales() {
		if string(sc) == s {
			return sc, nil
		}
	}
	return "", fmt.Errorf("experiments: scale %q is unknown; valid: quick, paper", s)
}

// Point is one configuration an experiment times: an algorithm (a lev
// algorithm name, or a peer: "agnivade", "ka-weihe", "edlib"), its
// parameters, and the inputs (a case and two lengths).
type Point struct {
	Algorithm string
	Workers   int     // 0: the algorithm's default
	Tile      int     // 0: the algorithm's default
	Block     int     // CUDA threads per block; 0: default
	GPURatio  float64 // pattern matching: share of positions sent to CUDA
	Ranks     int     // pattern matching: MPI ranks; 0: not distributed
	Case      string  // how the inputs are made, e.g. "random", "identical"
	LenA      int
	LenB      int
}

// Key identifies a point's records within an experiment, for resuming.
func (p Point) Key() string {
	return fmt.Sprintf("%s|w%d|t%d|b%d|g%g|r%d|%s|%d|%d",
		p.Algorithm, p.Workers, p.Tile, p.Block, p.GPURatio, p.Ranks, p.Case, p.LenA, p.LenB)
}

// Measurement is what one timed repetition of a point yields.
type Measurement struct {
	Seconds      float64 // the whole call
	AllocSeconds float64 // the part spent allocating, where measured apart
	Distance     int
	Matches      int64 // pattern matching: total matches
	AllocBytes   int64 // heap bytes allocated during the call
	Ran          string
	RanWorkers   int
}

// Experiment is one table or figure of a report, as data.
type Experiment struct {
	// Name is the stable identifier, e.g. "s000-table1".
	Name string
	// Source names the report file and its table or figure, e.g.
	// "000_f95d38889c436586.txt Table 1".
	Source string
	// Title says what it shows, in a line.
	Title string
	// Points returns the grid timed at a scale.
	Points func(Scale) []Point
}

// Record is one CSV row: one timed repetition of one point, or one row
// saying why a point was skipped. Field order is the column order.
type Record struct {
	Experiment   string  `csv:"experiment"`
	Source       string  `csv:"source"`
	Scale        string  `csv:"scale"`
	Algorithm    string  `csv:"algorithm"`
	Ran          string  `csv:"ran"`         // what auto resolved to; else the algorithm
	Workers      int     `csv:"workers"`     // as the point asks (0: the default)
	RanWorkers   int     `csv:"ran_workers"` // as it ran
	Tile         int     `csv:"tile"`
	Block        int     `csv:"block"`
	GPURatio     float64 `csv:"gpu_ratio"`
	Ranks        int     `csv:"ranks"`
	Case         string  `csv:"case"`
	LenA         int     `csv:"len_a"`
	LenB         int     `csv:"len_b"`
	Rep          int     `csv:"rep"`    // 1..N; 0 on a skipped row
	Status       string  `csv:"status"` // "ok" or "skipped"
	Note         string  `csv:"note"`   // why skipped
	Seconds      float64 `csv:"seconds"`
	AllocSeconds float64 `csv:"alloc_seconds"`
	Cells        int64   `csv:"cells"`
	GCUPS        float64 `csv:"gcups"`
	Distance     int     `csv:"distance"`
	Matches      int64   `csv:"matches"`
	AllocBytes   int64   `csv:"alloc_bytes"` // heap bytes allocated by the call: its working memory
	CPU          string  `csv:"cpu"`
	Cores        int     `csv:"cores"`
	GPU          string  `csv:"gpu"`
	GoVersion    string  `csv:"go_version"`
	Commit       string  `csv:"commit"`
	Timestamp    string  `csv:"timestamp"` // RFC 3339, UTC
}

// Status values of a Record.
const (
	StatusOK      = "ok"
	StatusSkipped = "skipped"
)

// Published is one number a report published, in results/published/*.csv,
// so that the report can set it beside ours.
type Published struct {
	Source     string  `csv:"source"`     // report file, e.g. "000_f95d38889c436586.txt"
	Table      string  `csv:"table"`      // e.g. "Table 1", "Figure 5", "slide: CPU vs GPU"
	Experiment string  `csv:"experiment"` // our experiment it belongs beside
	Algorithm  string  `csv:"algorithm"`  // the closest lev algorithm name
	Workers    int     `csv:"workers"`
	Tile       int     `csv:"tile"`
	Block      int     `csv:"block"`
	Case       string  `csv:"case"`
	LenA       int     `csv:"len_a"`
	LenB       int     `csv:"len_b"`
	Metric     string  `csv:"metric"` // "seconds", "speedup", "speedup_min", …
	Value      float64 `csv:"value"`
	Machine    string  `csv:"machine"` // the report's machine, as it gives it
	Note       string  `csv:"note"`    // the report's own words where a number needs them
}

// Lookup returns the experiments with the given names, in the order given;
// no names means every experiment.
func Lookup(names []string) ([]Experiment, error) {
	all := All()
	if len(names) == 0 {
		return all, nil
	}
	byName := make(map[string]Experiment, len(all))
	known := make([]string, len(all))
	for i, e := range all {
		byName[e.Name] = e
		known[i] = e.Name
	}
	out := make([]Experiment, 0, len(names))
	for _, n := range names {
		e, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("experiments: %q is unknown; valid: %s", n, strings.Join(known, ", "))
		}
		out = append(out, e)
	}
	return out, nil
}
