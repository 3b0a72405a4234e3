package experiments

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/match"
)

// reportsDir is where the reports are, relative to this package's directory
// (the repository root's ../shared/seeds).
var reportsDir = filepath.Join("..", "..", "shared", "seeds")

var reportFileName = regexp.MustCompile(`\b\d{3}_[0-9a-f]{16}\.txt\b`)

// TestCatalog checks every experiment as data: names, sources, titles, and
// every point of both scales.
func TestCatalog(t *testing.T) {
	seeds := true
	if _, err := os.Stat(reportsDir); errors.Is(err, fs.ErrNotExist) {
		seeds = false
		t.Logf("%s is absent: not checking that the sources name existing reports", reportsDir)
	}
	all := All()
	if len(all) == 0 {
		t.Fatal("All() is empty")
	}
	names := map[string]bool{}
	validName := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, e := range all {
		if names[e.Name] {
			t.Errorf("experiment %q appears twice", e.Name)
		}
		names[e.Name] = true
		if !validName.MatchString(e.Name) {
			t.Errorf("experiment name %q is not lowercase words joined by '-'", e.Name)
		}
		if e.Title == "" {
			t.Errorf("%s: no title", e.Name)
		}
		files := reportFileName.FindAllString(e.Source, -1)
		if len(files) == 0 {
			t.Errorf("%s: source %q names no report file", e.Name, e.Source)
		}
		for _, f := range files {
			if !seeds {
				break
			}
			if _, err := os.Stat(filepath.Join(reportsDir, f)); err != nil {
				t.Errorf("%s: source names %s, which is not in %s: %v", e.Name, f, reportsDir, err)
			}
		}
		if e.Points == nil {
			t.Errorf("%s: Points is nil", e.Name)
			continue
		}
		for _, s := range Scales() {
			pts := e.Points(s)
			if len(pts) == 0 {
				t.Errorf("%s: no points at scale %s", e.Name, s)
			}
			keys := map[string]bool{}
			for _, p := range pts {
				if keys[p.Key()] {
					t.Errorf("%s/%s: point %s appears twice", e.Name, s, p.Key())
				}
				keys[p.Key()] = true
				if err := checkCatalogPoint(p); err != nil {
					t.Errorf("%s/%s: %v", e.Name, s, err)
				}
			}
		}
		if pts := e.Points("huge"); pts != nil {
			t.Errorf("%s: an unknown scale gave %d points, want none", e.Name, len(pts))
		}
	}
	// Report 003's experiments, with match.Count.
	for _, n := range []string{"s003-ratio", "s003-ranks"} {
		if !names[n] {
			t.Errorf("%s is not in the catalog", n)
		}
	}
}

// checkCatalogPoint says what is wrong with a catalog point, if anything.
func checkCatalogPoint(p Point) error {
	if !slices.Contains(Cases(), p.Case) && p.Case != CaseWords {
		return fmt.Errorf("point %s: case %q is unknown", p.Key(), p.Case)
	}
	if p.LenA <= 0 || (p.LenB <= 0 && p.Case != CaseWords) {
		return fmt.Errorf("point %s: lengths must be positive", p.Key())
	}
	if (p.Case == CaseIdentical || p.Case == CasePartial || p.Case == CaseDiverged) && p.LenA != p.LenB {
		return fmt.Errorf("point %s: case %s needs equal lengths", p.Key(), p.Case)
	}
	if p.Kind == Alignment {
		if p.Algorithm != AlignAlgorithm || p.Workers < 1 || p.Workers > lev.MaxWorkers || p.Tile != 0 || p.Block != 0 || p.GPURatio != 0 || p.Ranks != 0 {
			return fmt.Errorf("point %s: an alignment point is algorithm %s on 1 to %d workers, no tile, block, ratio or ranks", p.Key(), AlignAlgorithm, lev.MaxWorkers)
		}
		return nil
	}
	if p.Kind == Suggest || p.Kind == SuggestLoop {
		if _, err := lev.ParseAlgorithm(p.Algorithm); err != nil || p.Case != CaseWords || p.LenA < 1 || p.LenB != 0 ||
			p.Tile != 0 || p.Block != 0 || p.GPURatio != 0 || p.Ranks != 0 || (p.Kind == SuggestLoop && p.Workers != 1) {
			return fmt.Errorf("point %s: a suggest point names a lev algorithm, case words, typos in LenA, and no tile, block, ratio or ranks (the loop one worker)", p.Key())
		}
		return nil
	}
	if p.Kind == Pairs || p.Kind == PeerPairs {
		_, lerr := lev.ParseAlgorithm(p.Algorithm)
		_, peer := peers[p.Algorithm]
		if (p.Kind == Pairs && lerr != nil) || (p.Kind == PeerPairs && !peer) || p.Case != CaseDNA ||
			p.Tile != 0 || p.Block != 0 || p.GPURatio != 0 || p.Ranks != 0 || (p.Kind == PeerPairs && p.Workers != 1) {
			return fmt.Errorf("point %s: a many-pairs point names a lev algorithm (pairs) or a peer on one worker (peer-pairs), case dna, and no tile, block, ratio or ranks", p.Key())
		}
		return nil
	}
	if p.Kind == Matching {
		if _, err := match.ParseAlgorithm(p.Algorithm); err != nil {
			return fmt.Errorf("point %s: a matching point names no match algorithm: %v", p.Key(), err)
		}
		// Window counts of a pattern (LenB) in a text (LenA) on the CPU,
		// a GPU share, or simulated ranks of CPU workers.
		if p.Workers < 1 || p.Workers > match.MaxWorkers || p.Tile != 0 || p.Block != 0 ||
			p.GPURatio < 0 || p.GPURatio > 1 || p.Ranks < 0 || (p.Ranks > 0 && p.GPURatio != 0) || p.LenB > p.LenA {
			return fmt.Errorf("point %s: a pattern-matching point takes 1 to %d workers, no tile or block, a gpu ratio in [0, 1] or ranks, and a pattern no longer than the text",
				p.Key(), match.MaxWorkers)
		}
		return nil
	}
	if p.GPURatio != 0 || p.Ranks != 0 {
		return fmt.Errorf("point %s: a gpu ratio or ranks in a distance experiment", p.Key())
	}
	if p.Kind == Peer {
		if _, ok := peers[p.Algorithm]; !ok {
			return fmt.Errorf("point %s: a peer point names no peer", p.Key())
		}
		if p.Workers != 1 || p.Tile != 0 || p.Block != 0 {
			return fmt.Errorf("point %s: a peer takes 1 worker and no tile or block", p.Key())
		}
		return nil
	}
	alg, err := lev.ParseAlgorithm(p.Algorithm)
	if err != nil {
		return fmt.Errorf("point %s: a distance point names no lev algorithm: %v", p.Key(), err)
	}
	switch {
	case alg.GPU():
		if p.Workers != 0 || p.Tile != 0 {
			return fmt.Errorf("point %s: a GPU algorithm takes no workers or tile", p.Key())
		}
	case alg.Parallel():
		if p.Workers < 1 || p.Workers > lev.MaxWorkers || p.Block != 0 {
			return fmt.Errorf("point %s: a parallel CPU algorithm needs 1 to %d workers and no block", p.Key(), lev.MaxWorkers)
		}
	default:
		if p.Workers != 1 || p.Tile != 0 || p.Block != 0 {
			return fmt.Errorf("point %s: a sequential algorithm takes 1 worker and no tile or block", p.Key())
		}
	}
	if p.Tile < 0 || p.Block < 0 || p.Block > lev.MaxBlockSize {
		return fmt.Errorf("point %s: tile or block out of range", p.Key())
	}
	// The catalog's full matrices have uint16 cells (lengths up to 65535,
	// fullmatrix.go) and stay under 5 GiB, so that report 000's 50k runs
	// on an 8 GiB machine.
	if alg == lev.FullMatrix {
		cells := int64(p.LenA+1) * int64(p.LenB+1)
		if max(p.LenA, p.LenB) > math.MaxUint16 || 2*cells > 5<<30 {
			return fmt.Errorf("point %s: the full matrix would take %s; the catalog keeps its lengths within 65535 and it under 5 GiB", p.Key(), gib(2*cells))
		}
	}
	return nil
}

// A costModel says how fast each algorithm runs, to budget the grids: billions
// of cells per second per worker (up to the cores), and fixed costs.
type costModel struct {
	gcups       map[string]float64 // per worker for parallel CPU algorithms
	perDiagonal float64            // seconds per antidiagonal: diagonal's barrier, a CUDA launch
	perTile     float64            // seconds per tile of tiled and tiled-barrier
	perPoint    float64            // seconds per repetition: the GC and memory statistics of Measure
}

// measuredSpeeds are the speeds seen on the 2-core machine the budget is for
// (tiled ≈ 1.75 GCUPS on 2 workers, diagonal ≈ 0.56).
var measuredSpeeds = costModel{
	gcups: map[string]float64{
		"fullmatrix": 0.85, "tworow": 0.95, "diagonal": 0.28, "tiled": 0.875, "tiled-barrier": 0.875,
		"myers": 100, "myers-parallel": 50, "auto": 100,
		"agnivade": 0.4, "ka-weihe": 6, "edlib": 25,
		"cuda-diagonal": 20, "cuda-matrix": 10, "cuda-fast": 100,
		// Pattern matching: cells are text bytes × pattern bytes; apm-fast
		// counted 10^7 bytes against 22 in 0.09 s on one worker.
		"apm-fast": 2.4, "apm-naive": 0.005,
		// lev.Align aligned 100k × 100k random DNA in 0.19 s on 2 workers.
		"align": 50,
	},
	perDiagonal: 2e-6,
	perTile:     0.5e-6,
	perPoint:    0.5e-3,
}

// generousSpeeds are slower than anything seen on a shared 2-core machine.
var generousSpeeds = costModel{
	gcups: map[string]float64{
		"fullmatrix": 0.5, "tworow": 0.6, "diagonal": 0.15, "tiled": 0.5, "tiled-barrier": 0.4,
		"myers": 20, "myers-parallel": 10, "auto": 10,
		"agnivade": 0.25, "ka-weihe": 3, "edlib": 10,
		"cuda-diagonal": 5, "cuda-matrix": 2, "cuda-fast": 20,
		"apm-fast": 0.5, "apm-naive": 0.002, "align": 10,
	},
	perDiagonal: 10e-6,
	perTile:     2e-6,
	perPoint:    2e-3,
}

// seconds is the modelled time of one repetition of p on a machine with
// the given cores.
func (sp costModel) seconds(p Point, cores int) float64 {
	cells := float64(p.LenA) * float64(p.LenB)
	g, ok := sp.gcups[p.Algorithm]
	if !ok {
		panic("no speed for " + p.Algorithm)
	}
	t := sp.perPoint
	alg, err := lev.ParseAlgorithm(p.Algorithm)
	isLev := err == nil
	if isLev && alg.Parallel() && !alg.GPU() && p.Algorithm != "auto" {
		g *= float64(min(p.Workers, cores))
	}
	t += cells / (g * 1e9)
	diagonals := float64(p.LenA + p.LenB)
	switch p.Algorithm {
	case "diagonal", "cuda-diagonal", "cuda-matrix":
		t += diagonals * sp.perDiagonal
	case "tiled", "tiled-barrier":
		side := p.Tile
		if side == 0 {
			side = 512
		}
		tiles := math.Ceil(float64(p.LenA)/float64(side)) * math.Ceil(float64(p.LenB)/float64(side))
		t += tiles*sp.perTile + diagonals/float64(side)*sp.perDiagonal
	}
	return t
}

// estimate is the modelled time of an experiment at a scale with the
// runner's default 10 repetitions and a warm-up.
func (sp costModel) estimate(e Experiment, s Scale, cores int) float64 {
	var total float64
	for _, p := range e.Points(s) {
		total += 11 * sp.seconds(p, cores)
	}
	return total
}

// TestQuickBudget checks that the whole quick scale, 10 repetitions and a
// warm-up per point, stays well under 3 minutes on 2 cores, even at speeds
// below any seen; with -v it logs every experiment's estimates at both
// scales.
func TestQuickBudget(t *testing.T) {
	const budget = 150 // seconds
	var quick, slow, paper float64
	for _, e := range All() {
		q, g, p := measuredSpeeds.estimate(e, Quick, 2), generousSpeeds.estimate(e, Quick, 2), measuredSpeeds.estimate(e, Paper, 2)
		t.Logf("%-14s quick %4d points %6.1f s (generous %6.1f s)   paper %4d points %7.1f s",
			e.Name, len(e.Points(Quick)), q, g, len(e.Points(Paper)), p)
		quick, slow, paper = quick+q, slow+g, paper+p
	}
	t.Logf("%-14s quick %18.1f s (generous %6.1f s)   paper %19.1f s (%.0f min)", "all", quick, slow, paper, paper/60)
	if slow > budget {
		t.Errorf("the quick scale would take %.0f s at the generous speeds, more than the %d s budget", slow, budget)
	}
}

func TestWorkerSweep(t *testing.T) {
	c := cores()
	for _, tc := range []struct {
		max  int
		want []int
	}{
		{1, []int{1}},
		{4, []int{1, 2, 3, 4}},
		{8, []int{1, 2, 3, 4, 5, 6, 7, 8}},
	} {
		if got := workerSweep(tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("workerSweep(%d) = %v, want %v", tc.max, got, tc.want)
		}
	}
	got := workerSweep(64)
	if got[0] != 1 || got[len(got)-1] != 64 || !slices.IsSorted(got) || len(got) > 16 {
		t.Errorf("workerSweep(64) = %v: want 1 to 64, sorted, at most 16 counts", got)
	}
	if c <= 64 && !slices.Contains(got, c) {
		t.Errorf("workerSweep(64) = %v lacks the %d cores", got, c)
	}
}
