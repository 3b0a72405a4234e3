package lev

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/option"
)

// ErrInvalidOption is wrapped by every error about a bad option value. It
// is match.ErrInvalidOption too.
var ErrInvalidOption = option.ErrInvalid

// ErrTooLarge is wrapped by the error of a computation that would need
// more memory than it may use: FullMatrix's matrix over WithMatrixLimit,
// or over what ulimit -v or the cgroup's memory limit leaves this process.
// Nothing is allocated before it is returned.
var ErrTooLarge = errors.New("too large")

// MaxWorkers is the largest worker count accepted.
const MaxWorkers = 4096

// MaxBlockSize is the largest CUDA block size accepted.
const MaxBlockSize = 1024

// Option sets how a distance is computed. Options that an algorithm does not
// use (a tile size for tworow, say) are ignored, except WithWorkers(n > 1)
// on a sequential algorithm, which is an error rather than a silent
// single-threaded run. GPU algorithms size their launches themselves and
// ignore the worker count. A nil Option is ignored.
type Option func(*config)

type config struct {
	alg         Algorithm
	workers     int // as given: 0 means GOMAXPROCS
	tile        int // 0: the algorithm's default
	block       int // 0: the algorithm's default
	ctx         context.Context
	matrixLimit int64       // bytes FullMatrix may allocate
	noBand      bool        // Myers: compute every cell (tests and experiments)
	kernel      myersKernel // Myers: the kernel asked for (tests; Auto otherwise)
	capped      bool        // WithMax was given
	maxD        int         // WithMax's k
	top         int         // WithTop's n; 0: every pair (Cross, All)
	stats       *Stats
	fastModel   *cudaext.FastSchedule // tests: cuda-fast runs cudaext.FastModel instead of the GPU
	ranks       Ranks                 // WithRanks: the processes computing one distance together
	bundle      int                   // tests: groups a unit of Myers' pipeline; 0: the pass chooses
	option.Errs
}

// Stats receives what a call did, for callers that record runs (the
// experiments, the command line's --json).
type Stats struct {
	// Algorithm is the algorithm that ran: what Auto resolved to.
	Algorithm Algorithm
	// Workers is the number of workers it was given (1 for a sequential
	// algorithm, GOMAXPROCS for a worker count of 0); an algorithm with
	// fewer units of work than workers leaves the rest idle.
	Workers int
	// AllocSeconds is the part of the call spent allocating and
	// initialising the algorithm's main structure, where it is measured
	// apart: FullMatrix's matrix (the allocation and its first row and
	// column; pages the system maps lazily are touched later, during the
	// computation). For a GPU algorithm, its device allocations (and
	// cuda-matrix's initialisation). 0 where not measured.
	AllocSeconds float64
	// GPU is what a GPU algorithm's job measured: allocation, copies and
	// computation apart, launches. Zero for CPU algorithms.
	GPU cudaext.Timing
	// Kernel is the loop Myers and MyersParallel ran their word strips
	// with, as this CPU and the input chose it: "avx512" (eight strips a
	// ZMM register, up to four registers a group), "avx2" (four a YMM
	// register, one or two a group; also AVX-512's choice for patterns of
	// 65 to 256 symbols), or "go" (portable: other CPUs, the
	// purego build tag, texts of more than 256 distinct runes, and patterns
	// of one strip, at most 64 symbols once the common prefix and suffix
	// are gone). Empty for the other algorithms and where no strip ran (an
	// empty or trimmed away input).
	Kernel string
	// Computed is the cells of the DP matrix the call computed, a cell
	// computed by two passes counted twice: the work its time bought,
	// where m·n, the matrix's size, may be far more. For an m×n pair:
	//   - FullMatrix, TwoRow, Diagonal, Tiled, TiledBarrier and the GPU
	//     algorithms: m·n, the whole matrix, under WithMax too;
	//   - Myers, MyersParallel and Auto: 64 cells a step of a 64-row word
	//     over a column (the pattern's last word, partial, counts 64),
	//     summed over each group's strips and the columns it ran, in
	//     every pass: the narrow first pass, then the band or the trimmed
	//     exact pass (myerstrim.go); under WithMax the same, the trimmed
	//     pass's threshold at most k (the band of cost k alone where the
	//     shorter is under 1,024 symbols, or over ranks); under WithoutBand
	//     every word over every column. Here m
	//     and n are the lengths once the common prefix and suffix are
	//     dropped, m the shorter: at most ⌈m/64⌉·64·n a pass, and for
	//     similar sequences a small part of m·n. The same on any workers;
	//     under WithRanks every rank's cells, the same figure on each;
	//   - Align: every pass of its splits (its levels cost about two
	//     passes together), and m·n for each piece small enough for a DP
	//     with a traceback; the same on any workers;
	//   - Cross and All: the sum over their pairs, the same on any
	//     workers: a pair in a lane of the block kernel ⌈m/64⌉·64·n (m
	//     the query's length; a shorter text's padding in its lane not
	//     counted), a pair under a cap the words of its band up to the
	//     column where it stops, any other pair what Distance counts.
	// 0 where no kernel ran: an empty sequence, lengths further apart than
	// WithMax's k, and for the bit-parallel algorithms a sequence the
	// common prefix and suffix use up (equal ones). Counted a pass, a
	// group or a run of columns at a time, never a cell at a time, so that
	// counting costs the kernels nothing. After an error it means nothing.
	Computed int64
}

// count adds cells to the Stats of c, if it has any: the cells a kernel
// computed (Stats.Computed).
func (c *config) count(cells int64) {
	if c.stats != nil {
		c.stats.Computed += cells
	}
}

// WithAlgorithm chooses the algorithm; the default is Auto.
func WithAlgorithm(a Algorithm) Option {
	return func(c *config) {
		if !algorithmNames.Valid(a) {
			c.Set(algorithmNames.Unknown(a))
			return
		}
		c.alg = a
	}
}

// WithWorkers sets the number of goroutines of a parallel algorithm. If n is
// 0 it is ignored and GOMAXPROCS is used; n must be in [0, 4096].
func WithWorkers(n int) Option {
	return func(c *config) {
		if c.Workers(n, MaxWorkers) {
			c.workers = n
		}
	}
}

// WithTile sets the tile side in cells for Tiled and TiledBarrier, and the
// column-chunk width for MyersParallel and CUDAFast (Algorithm.TakesTile).
// It must be positive; other algorithms ignore it.
func WithTile(n int) Option {
	return func(c *config) {
		if n <= 0 {
			c.Fail("tile = %d must be positive", n)
			return
		}
		c.tile = n
	}
}

// WithBlockSize sets the CUDA threads per block, in [1, 1024]; CPU
// algorithms ignore it.
func WithBlockSize(n int) Option {
	return func(c *config) {
		if n <= 0 || n > MaxBlockSize {
			c.Fail("block size = %d is out of range [1, %d]", n, MaxBlockSize)
			return
		}
		c.block = n
	}
}

// WithContext makes the computation stop promptly, returning an error that
// wraps ctx.Err(), once ctx is done. Every parallel algorithm then leaves no
// goroutine behind.
func WithContext(ctx context.Context) Option {
	return func(c *config) {
		if ctx == nil {
			c.Fail("context is nil")
			return
		}
		c.ctx = ctx
	}
}

// WithMatrixLimit sets how many bytes FullMatrix may allocate for its
// matrix; the default is half the machine's physical memory (4 GiB where
// that is unknown). A larger matrix is an error wrapping ErrTooLarge, not
// an allocation; so is one over what ulimit -v or the cgroup's memory
// limit leaves, whatever this limit says.
func WithMatrixLimit(bytes int64) Option {
	return func(c *config) {
		if bytes <= 0 {
			c.Fail("matrix limit = %d bytes must be positive", bytes)
			return
		}
		c.matrixLimit = bytes
	}
}

// WithoutBand makes Myers and MyersParallel compute every cell instead of
// the Ukkonen band, for measuring the raw kernels; the distance is the same.
// In Cross and All it makes Auto's block kernel compute every cell of
// every pair too, a cap then applied after.
func WithoutBand() Option {
	return func(c *config) { c.noBand = true }
}

// WithStats makes the call fill in *s (it is reset first).
func WithStats(s *Stats) Option {
	return func(c *config) {
		if s == nil {
			c.Fail("stats is nil")
			return
		}
		c.stats = s
	}
}

// WithMax caps the distance at k ≥ 0: a result of k+1 means "more than
// k", and the work stops as soon as that is certain. Distance then returns
// the exact distance when it is at most k, else k+1: at once when the
// lengths differ by more than k; Myers and MyersParallel (and Auto)
// compute only the cells a path of cost k can reach, at most Ukkonen's
// band of cost k, O(⌈m/64⌉·k) words a column, and fewer as the values
// rise (a trimmed pass: where the shorter has 1,024 symbols or more, not
// over ranks); other algorithms compute the distance whole and cap it.
// Cross and All give only the pairs within k, each pair stopping early
// (see the block kernel); Matrix writes k+1 for the others.
func WithMax(k int) Option {
	return func(c *config) {
		if k < 0 {
			c.Fail("max = %d must be >= 0 (the largest distance wanted)", k)
			return
		}
		c.capped, c.maxD = true, k
	}
}

// WithTop makes Cross and All give each query only its n ≥ 1 nearest
// targets, by distance, then index (with WithMax, the nearest within it).
// Distance and Matrix refuse it.
func WithTop(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.Fail("top = %d must be >= 1 (the nearest targets a query keeps)", n)
			return
		}
		c.top = n
	}
}

// capK is the cap, or −1 without one.
func (c *config) capK() int {
	if c.capped {
		return c.maxD
	}
	return -1
}

// Check returns the error Distance and DistanceString return for opts
// before they look at their inputs, whatever the inputs: a bad option or
// options that do not go together (wrapping ErrInvalidOption), a GPU
// algorithm where no GPU is usable, a context already done; nil where
// they would compute. It computes nothing; for a GPU algorithm it loads
// the CUDA driver, as Distance does.
func Check(opts ...Option) error {
	c, err := newConfig(opts)
	if err != nil {
		return err
	}
	// The inputs choose only between Myers and MyersParallel for Auto,
	// which ready treats alike (but for the name a done context's error
	// gives): empty ones stand for any.
	return ready(c.resolve(0, 0), c)
}

// parseOptions applies opts to a new config: the checks of each option,
// not of how they go together.
func parseOptions(opts []Option) (*config, error) {
	c := &config{Errs: option.Errs{Pkg: "lev"}, ctx: context.Background(), matrixLimit: defaultMatrixLimit()}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.Err != nil {
		return nil, c.Err
	}
	return c, nil
}

// newConfig is the config of one distance.
func newConfig(opts []Option) (*config, error) {
	c, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	if c.top > 0 {
		return nil, fmt.Errorf("lev: %w: top = %d: one distance has no nearest; WithTop is for Cross and All", ErrInvalidOption, c.top)
	}
	if c.ranks != nil && !c.alg.SpansRanks() {
		return nil, fmt.Errorf("lev: %w: ranks: %s computes in one process; WithRanks is for %s", ErrInvalidOption, c.alg, algorithmsThat(Algorithm.SpansRanks))
	}
	if !impls[c.alg].parallel && c.workers > 1 {
		return nil, fmt.Errorf("lev: %w: %s is sequential: workers = %d is not allowed (0 or 1)", ErrInvalidOption, c.alg, c.workers)
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	if !impls[c.alg].parallel {
		c.workers = 1
	}
	return c, nil
}

// resolved returns c for a run of the concrete algorithm alg (what Auto
// resolved to): a copy, so that the config as given stays as it was, with
// one worker where alg is sequential.
func (c *config) resolved(alg Algorithm) *config {
	rc := *c
	rc.alg = alg
	if !impls[alg].parallel {
		rc.workers = 1
	}
	return &rc
}
