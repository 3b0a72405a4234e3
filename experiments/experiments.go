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
	"context"
	"fmt"
	"strings"

	"github.com/levlab/levlab/internal/option"
	"github.com/levlab/levlab/records"
)

// Scale selects the sizes an experiment runs at.
type Scale string

const (
	// Quick finishes in minutes on 2 cores: what tests and
	// `levlab reproduce` run.
	Quick Scale = records.ScaleQuick
	// Paper uses the reports' own sizes: what the committed results come
	// from.
	Paper Scale = records.ScalePaper
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

// Kind says what a point measures, and so what its Algorithm names; Measure
// dispatches on it. The zero value is Distance.
type Kind uint8

const (
	// Distance ("distance") is a lev algorithm (lev.ParseAlgorithm) on two
	// sequences: one lev.Distance call.
	Distance Kind = iota
	// Matching ("matching") is a match algorithm (match.ParseAlgorithm)
	// counting report 003's windows of a pattern (the second input) in a
	// text (the first) within MatchK edits: one match.Count call, or one
	// per simulated rank.
	Matching
	// Peer ("peer") is another project's distance, named as Peers lists
	// them: one call of it.
	Peer
	// Pairs ("pairs") is a lev algorithm on every pair of a set of LenA
	// strings (PairSet): one lev.All call.
	Pairs
	// PeerPairs ("peer-pairs") is a peer on every pair of the same set: a
	// call of it a pair, in a loop.
	PeerPairs
	// Suggest ("suggest") is spelling suggestions: LenA typos against a
	// word list (case words), the words within SuggestK edits of each,
	// one lev.CrossStrings call with WithMax(SuggestK).
	Suggest
	// SuggestLoop ("suggest-loop") finds the same suggestions the obvious
	// way: lev.DistanceString on every typo and word, keeping those within
	// SuggestK.
	SuggestLoop
	// Alignment ("align") is lev.Align on two sequences: one call, the
	// edits and the distance. Its Algorithm is "align" (Align runs its
	// own), which sets its records apart from a Distance point's on the
	// same inputs.
	Alignment

	numKinds
)

var kindNames = option.NewNames[Kind]("experiments", "Kind", "kind", "distance", "matching", "peer", "pairs", "peer-pairs", "suggest", "suggest-loop", "align")

// String returns the kind's name, e.g. "matching".
func (k Kind) String() string { return kindNames.String(k) }

// Point is one configuration an experiment times: what kind of measurement
// it is, an algorithm of that kind, its parameters, and the inputs (a case
// and two lengths).
type Point struct {
	Kind      Kind
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

// Key identifies a point's records within an experiment, for resuming. The
// kind is not part of it: within an experiment an algorithm's name says it
// (a record file holds no kind).
func (p Point) Key() string {
	return fmt.Sprintf("%s|w%d|t%d|b%d|g%g|r%d|%s|%d|%d",
		p.Algorithm, p.Workers, p.Tile, p.Block, p.GPURatio, p.Ranks, p.Case, p.LenA, p.LenB)
}

// Measurement is what one timed repetition of a point yields.
type Measurement struct {
	Seconds      float64 // the whole call
	AllocSeconds float64 // the part spent allocating, where measured apart
	Distance     int     // many pairs: the sum of every pair's
	Matches      int64   // pattern matching: total matches; many pairs: the pairs
	Cells        int64   // many pairs: Σ len·len over the pairs (else LenA·LenB)
	Computed     int64   // the DP cells lev computed (lev.Stats.Computed); 0 where it counts none: peers, programs, matching
	AllocBytes   int64   // heap bytes allocated during the call
	CPUSeconds   float64 // processor time, user and system: a command's and its waited children's, a call's the process's; 0: not measured
	Ran          string
	RanWorkers   int
	// ReadFrom is, for an implementation of one's own that shares its
	// runs with others (spec.SharedRuns), the one whose run of the program
	// this repetition was read from; "" where it ran the program itself.
	ReadFrom string
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
	// Inputs, when set, makes a point's inputs in place of the package's
	// Inputs; Measure, when set, times a repetition in place of the
	// package's Measure. An experiment of one's own sets both (FromSpec).
	Inputs  func(Point) (a, b []byte, err error)
	Measure func(ctx context.Context, p Point, a, b []byte) (Measurement, error)
	// MadeBy, when set, says what makes a point's records (Record.MadeBy):
	// a resumed run refuses a file whose records of a point were made by
	// something else, rather than count them as this run's. An
	// experiment of one's own sets it (FromSpec); the reports' leave it
	// nil, their code being the commit.
	MadeBy func(Point) string
}

// Record is one CSV row of results; see package records.
type Record = records.Record

// Published is one number a report published; see package records.
type Published = records.Published

// Status values of a Record.
const (
	StatusOK      = records.StatusOK
	StatusSkipped = records.StatusSkipped
	StatusFailed  = records.StatusFailed
)

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
