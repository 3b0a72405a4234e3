package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// ErrSkipped is wrapped by Measure's error when a point cannot run on this
// machine (no GPU, a peer not built in); the runner records why instead of
// failing.
var ErrSkipped = errors.New("skipped")

// Measure times one repetition of point p on inputs a and b.
//
// p.Algorithm is a lev algorithm name (lev.ParseAlgorithm), a peer's
// (Peers), or a pattern-matching algorithm, "apm-naive" or "apm-fast": then
// a is the text, b the pattern, and the point is timed as measureMatches
// says, with the same clock and memory statistics as below. A lev algorithm runs as one lev.Distance call with p's
// algorithm, workers, tile and block size (the last two unless 0), ctx,
// and for fullmatrix a matrix limit of fullMatrixShare percent of this
// machine's memory; a value lev refuses (a negative tile, workers > 1 for
// a sequential algorithm) is an error, not a silent default. A peer runs
// as one call of its function and takes no parameters: workers 0 or 1, no
// tile, no block.
//
// Seconds is the wall time of that call alone, taken with time.Now and
// time.Since around it. Outside the clock, before it, the heap is collected
// (so no repetition pays for an earlier one's garbage) and
// runtime.ReadMemStats is read, and again after it: AllocBytes is the
// growth of TotalAlloc in between, the heap the call allocated (plus
// whatever other goroutines allocated meanwhile; the runner has none busy).
// AllocSeconds, Ran and RanWorkers come from lev.Stats (fullmatrix measures
// the allocation of its matrix apart); for a peer, Ran is its name and
// RanWorkers 1.
//
// The error wraps ErrSkipped when the point cannot run here: a GPU
// algorithm without a usable GPU (it also wraps cudaext.ErrUnavailable and
// says why), a peer not built in, or a fullmatrix matrix larger than this
// machine allows.
func Measure(ctx context.Context, p Point, a, b []byte) (Measurement, error) {
	if isMatchAlgorithm(p.Algorithm) {
		return measureMatches(ctx, p, a, b)
	}
	if p.GPURatio != 0 || p.Ranks != 0 {
		return Measurement{}, fmt.Errorf("experiments: %s: gpu ratio %g and ranks %d are pattern-matching parameters; Measure times distances (both must be 0)", p.Algorithm, p.GPURatio, p.Ranks)
	}
	if err := ctx.Err(); err != nil {
		return Measurement{}, fmt.Errorf("experiments: %s: %w", p.Algorithm, err)
	}
	if pe, ok := peers[p.Algorithm]; ok {
		return measurePeer(p, pe, a, b)
	}
	alg, err := lev.ParseAlgorithm(p.Algorithm)
	if err != nil {
		return Measurement{}, fmt.Errorf("experiments: algorithm %q is neither a lev algorithm nor a peer (%s): %w",
			p.Algorithm, strings.Join(Peers(), ", "), err)
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
		need, limit := matrixBytes(len(a), len(b)), fullMatrixLimit()
		if need > limit {
			return Measurement{}, fmt.Errorf("%w: fullmatrix: needs %s for its %d×%d matrix, more than the %s (%d%% of this machine's memory) an experiment may take; tworow computes the same distance in O(n) memory",
				ErrSkipped, gib(need), len(a)+1, len(b)+1, gib(limit), fullMatrixShare)
		}
		opts = append(opts, lev.WithMatrixLimit(limit))
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	d, err := lev.Distance(a, b, opts...)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)

	if err != nil {
		if errors.Is(err, cudaext.ErrUnavailable) {
			return Measurement{}, fmt.Errorf("%w: %w", ErrSkipped, err)
		}
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}
	return Measurement{
		Seconds:      elapsed.Seconds(),
		AllocSeconds: st.AllocSeconds,
		Distance:     d,
		AllocBytes:   int64(after.TotalAlloc - before.TotalAlloc),
		Ran:          st.Algorithm.String(),
		RanWorkers:   st.Workers,
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

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	d, err := pe.distance(a, b)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)

	if err != nil {
		return Measurement{}, err
	}
	return Measurement{
		Seconds:    elapsed.Seconds(),
		Distance:   d,
		AllocBytes: int64(after.TotalAlloc - before.TotalAlloc),
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

// fullMatrixLimit is fullMatrixShare percent of the physical memory: lev's
// default limit is half of it.
func fullMatrixLimit() int64 { return lev.DefaultMatrixLimit() / 50 * fullMatrixShare }

// matrixBytes is the size of fullmatrix's matrix for lengths m and n:
// (m+1)(n+1) cells of the narrowest unsigned type that holds max(m, n), as
// lev's fullmatrix allocates it; math.MaxInt64 where that overflows.
func matrixBytes(m, n int) int64 {
	size := int64(8)
	switch longest := max(m, n); {
	case longest <= math.MaxUint16:
		size = 2
	case int64(longest) <= math.MaxUint32:
		size = 4
	}
	rows, cols := int64(m)+1, int64(n)+1
	if rows > math.MaxInt64/cols/size {
		return math.MaxInt64
	}
	return rows * cols * size
}

// gib writes a byte count in GiB for people.
func gib(x int64) string {
	return fmt.Sprintf("%.1f GiB", float64(x)/(1<<30))
}
