package experiments

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/progrun"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/match"
)

// ErrSkipped is wrapped by Measure's error when a point cannot run on this
// machine (no GPU, a peer not built in); the runner records why instead of
// failing.
var ErrSkipped = errors.New("skipped")

// Measure times one repetition of point p on inputs a and b, dispatching
// on p.Kind: a Distance point runs as one lev.Distance call with p's
// algorithm, workers, tile and block size (the last two unless 0), ctx,
// and for fullmatrix a matrix limit of fullMatrixShare percent of this
// machine's memory; a value lev refuses (a negative tile, workers > 1 for
// a sequential algorithm) is an error, not a silent default. A Peer point
// runs as one call of its function and takes no parameters: workers 0 or
// 1, no tile, no block. A Matching point (a is the text, b the pattern) is
// timed as measureMatches says, with the same clock and memory statistics.
// Only a Matching point may have a GPU ratio or ranks.
//
// Seconds is the wall time of that call alone, taken with time.Now and
// time.Since around it. Outside the clock, before it, the heap is collected
// (so no repetition pays for an earlier one's garbage) and
// runtime.ReadMemStats is read, and again after it: AllocBytes is the
// growth of TotalAlloc in between, the heap the call allocated (plus
// whatever other goroutines allocated meanwhile; the runner has none busy).
// AllocSeconds, Computed, Ran and RanWorkers come from lev.Stats
// (fullmatrix measures the allocation of its matrix apart; Computed is
// the cells the algorithm computed, where Cells is the matrix's size);
// for a peer, Ran is its name, RanWorkers 1 and Computed 0.
//
// The error wraps ErrSkipped when the point cannot run here: a GPU
// algorithm without a usable GPU (it also wraps cudaext.ErrUnavailable and
// says why), a peer not built in, or a fullmatrix matrix larger than this
// machine allows (it also wraps lev.ErrTooLarge).
func Measure(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
	if p.Kind != Matching && (p.GPURatio != 0 || p.Ranks != 0) {
		return Measurement{}, fmt.Errorf("experiments: %s: gpu ratio %g and ranks %d are pattern-matching parameters of a %s point (both must be 0)",
			p.Algorithm, p.GPURatio, p.Ranks, p.Kind)
	}
	if err := ctx.Err(); err != nil {
		return Measurement{}, fmt.Errorf("experiments: %s: %w", p.Algorithm, err)
	}
	switch p.Kind {
	case Distance:
		return measureDistance(ctx, p, a, b)
	case Matching:
		return measureMatches(ctx, p, a, b)
	case Peer:
		pe, ok := peers[p.Algorithm]
		if !ok {
			return Measurement{}, fmt.Errorf("experiments: peer %q is unknown; valid: %s", p.Algorithm, strings.Join(Peers(), ", "))
		}
		return measurePeer(p, pe, a, b)
	case Pairs, PeerPairs:
		return measurePairs(ctx, p, PairSet(a))
	case Suggest, SuggestLoop:
		return measureSuggest(ctx, p, PairSet(a), PairSet(b))
	case Alignment:
		return measureAlign(ctx, p, a, b)
	}
	return Measurement{}, fmt.Errorf("experiments: %s: %w", p.Algorithm, kindNames.Unknown(p.Kind))
}

// measureDistance times one lev.Distance call; see Measure.
func measureDistance(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
	alg, err := lev.ParseAlgorithm(p.Algorithm)
	if err != nil {
		if _, ok := peers[p.Algorithm]; ok {
			return Measurement{}, fmt.Errorf("experiments: %q is a peer: its point has Kind Peer: %w", p.Algorithm, err)
		}
		if _, merr := match.ParseAlgorithm(p.Algorithm); merr == nil {
			return Measurement{}, fmt.Errorf("experiments: %q counts matches: its point has Kind Matching: %w", p.Algorithm, err)
		}
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}

	var st lev.Stats
	opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(p.Workers), lev.WithContext(ctx), lev.WithStats(&st)}
	// Zero is the default; anything else, negative too, goes to lev, which
	// names what it refuses.
	if p.Tile != 0 {
		opts = append(opts, lev.WithTile(p.Tile))
	}
	if p.Block != 0 {
		opts = append(opts, lev.WithBlockSize(p.Block))
	}
	if alg == lev.FullMatrix {
		opts = append(opts, lev.WithMatrixLimit(FullMatrixLimit()))
	}

	clk := startClock()
	d, err := lev.Distance(a, b, opts...)
	elapsed, alloc := clk.stop()

	switch {
	case errors.Is(err, cudaext.ErrUnavailable):
		return Measurement{}, fmt.Errorf("%w: %w", ErrSkipped, err)
	case errors.Is(err, lev.ErrTooLarge):
		return Measurement{}, fmt.Errorf("%w: %w (an experiment may take %d%% of this machine's memory); tworow computes the same distance in O(n) memory",
			ErrSkipped, err, fullMatrixShare)
	case err != nil:
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}
	return Measurement{
		Seconds:      elapsed,
		AllocSeconds: st.AllocSeconds,
		Distance:     d,
		Computed:     st.Computed,
		AllocBytes:   alloc,
		CPUSeconds:   clk.cpu,
		Ran:          st.Algorithm.String(),
		RanWorkers:   st.Workers,
	}, nil
}

// AlignAlgorithm is the Algorithm of an Alignment point.
const AlignAlgorithm = "align"

// measureAlign times one lev.Align call with p's workers; see Measure.
// Distance is the alignment's, Computed the cells of its passes and
// pieces; Ran is "align".
func measureAlign(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
	if p.Algorithm != AlignAlgorithm || p.Tile != 0 || p.Block != 0 {
		return Measurement{}, fmt.Errorf("experiments: an alignment point is algorithm %q with workers alone, not %q with tile %d and block %d",
			AlignAlgorithm, p.Algorithm, p.Tile, p.Block)
	}
	var st lev.Stats
	clk := startClock()
	al, err := lev.Align(a, b, lev.WithWorkers(p.Workers), lev.WithContext(ctx), lev.WithStats(&st))
	elapsed, alloc := clk.stop()
	if err != nil {
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}
	return Measurement{
		Seconds:    elapsed,
		Distance:   al.Distance,
		Computed:   st.Computed,
		AllocBytes: alloc,
		CPUSeconds: clk.cpu,
		Ran:        AlignAlgorithm,
		RanWorkers: st.Workers,
	}, nil
}

// measurePeer times one call of a peer; see Measure.
func measurePeer(p Point, pe peer, a, b []byte) (Measurement, error) {
	if p.Workers > 1 || p.Workers < 0 || p.Tile != 0 || p.Block != 0 {
		return Measurement{}, fmt.Errorf("experiments: %s is a sequential peer with no parameters: workers = %d (want 0 or 1), tile = %d, block = %d (want 0)",
			p.Algorithm, p.Workers, p.Tile, p.Block)
	}
	// The Go peers count runes: on anything but ASCII they would answer
	// another question than lev's byte distance.
	if !ascii(a) || !ascii(b) {
		return Measurement{}, fmt.Errorf("experiments: %s: the inputs must be ASCII (the peers count runes, lev counts bytes)", p.Algorithm)
	}
	if pe.mu != nil {
		pe.mu.Lock()
		defer pe.mu.Unlock()
	}

	clk := startClock()
	d, err := pe.distance(a, b)
	elapsed, alloc := clk.stop()

	if err != nil {
		return Measurement{}, err
	}
	return Measurement{
		Seconds:    elapsed,
		Distance:   d,
		AllocBytes: alloc,
		CPUSeconds: clk.cpu,
		Ran:        p.Algorithm,
		RanWorkers: 1,
	}, nil
}

func ascii(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fullMatrixShare is the percentage of this machine's memory a fullmatrix
// point may take: above lev's default of half, since report 000's Listing 2
// at 50k (4.7 GiB of uint16 cells) must run on an 8 GiB machine, below all
// of it, so that the run is refused rather than swapped or killed.
const fullMatrixShare = 75

// FullMatrixLimit is the bytes a fullmatrix point may allocate:
// fullMatrixShare percent of the physical memory (lev's default limit is
// half of it). Measure refuses a larger matrix.
func FullMatrixLimit() int64 { return lev.DefaultMatrixLimit() / 50 * fullMatrixShare }

// gib writes a byte count in GiB for people.
func gib(x int64) string {
	return fmt.Sprintf("%.1f GiB", float64(x)/(1<<30))
}

// clock is Measure's clock: the heap collected and read before, so that no
// repetition pays for an earlier one's garbage, then the wall time and the
// heap allocated (TotalAlloc's growth) until stop, and in cpu the
// process's processor time over the same span (0 where the system does
// not say).
type clock struct {
	before runtime.MemStats
	start  time.Time
	cpu0   float64
	cpuOK  bool
	cpu    float64 // set by stop
}

func startClock() *clock {
	c := &clock{}
	runtime.GC()
	runtime.ReadMemStats(&c.before)
	c.cpu0, c.cpuOK = progrun.SelfCPU()
	c.start = time.Now()
	return c
}

// stop returns the seconds since the start and the bytes allocated, and
// sets c.cpu.
func (c *clock) stop() (seconds float64, alloc int64) {
	elapsed := time.Since(c.start)
	if cpu1, ok := progrun.SelfCPU(); ok && c.cpuOK {
		c.cpu = max(0, cpu1-c.cpu0)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return elapsed.Seconds(), int64(after.TotalAlloc - c.before.TotalAlloc)
}
