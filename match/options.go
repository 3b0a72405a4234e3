package match

import (
	"context"
	"fmt"
	"runtime"

	"github.com/levlab/levlab/internal/option"
)

// ErrInvalidOption is wrapped by every error about a bad option value or
// argument. It is lev.ErrInvalidOption too.
var ErrInvalidOption = option.ErrInvalid

// MaxWorkers is the largest worker count accepted.
const MaxWorkers = 4096

// Option sets how Count counts. A nil Option is ignored.
type Option func(*config)

type config struct {
	mode      Mode
	alg       Algorithm
	workers   int // as given: 0 means GOMAXPROCS
	ctx       context.Context
	gpuRatio  float64
	rangeSet  bool // WithRange was given
	rangeFrom int
	rangeTo   int
	stats     *Stats
	option.Errs
}

// Stats receives what a call did, for callers that record runs.
type Stats struct {
	// Workers is the number of goroutines it was given (GOMAXPROCS for a
	// worker count of 0); a text with fewer chunks than workers leaves the
	// rest idle.
	Workers int
}

// WithMode chooses what Count counts; the default is Window.
func WithMode(m Mode) Option {
	return func(c *config) {
		if !modeNames.Valid(m) {
			c.Set(modeNames.Unknown(m))
			return
		}
		c.mode = m
	}
}

// WithAlgorithm chooses how Count counts; the default is Auto.
func WithAlgorithm(a Algorithm) Option {
	return func(c *config) {
		if !algorithmNames.Valid(a) {
			c.Set(algorithmNames.Unknown(a))
			return
		}
		c.alg = a
	}
}

// WithWorkers sets the number of goroutines over the positions. If n is 0
// it is ignored and GOMAXPROCS is used; n must be in [0, 4096].
func WithWorkers(n int) Option {
	return func(c *config) {
		if c.Workers(n, MaxWorkers) {
			c.workers = n
		}
	}
}

// WithContext makes Count stop once ctx is done: every worker stops within
// about pollWork units of its work, whatever the pattern's length or k, and
// Count returns no counts and an error wrapping ctx.Err(); the GPU's share
// runs to its end.
func WithContext(ctx context.Context) Option {
	return func(c *config) {
		if ctx == nil {
			c.Fail("context is nil")
			return
		}
		c.ctx = ctx
	}
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

// WithGPURatio sends the share r ∈ [0, 1] of the positions of each pattern
// to the GPU (cudaext.CountWindows), the rest to the goroutines, both at
// once, as report 003 split its positions between CUDA and OpenMP. The GPU
// takes the first round(r·N) of the N positions. Window mode only. r = 0
// (the default) never touches the GPU; with r > 0 a GPU failure is the
// call's error, never a silent fallback to the CPU.
func WithGPURatio(r float64) Option {
	return func(c *config) {
		if !(r >= 0 && r <= 1) { // NaN fails both
			c.Fail("gpu ratio = %v is out of range [0, 1]", r)
			return
		}
		c.gpuRatio = r
	}
}

// WithRange makes Count count only the positions j in [from, to) of the
// text; the text outside is read as context (the windows starting before
// to in window mode, the substrings ending in the range in occurrence
// mode). The default is the whole text. to > len(text) is an error of
// Count.
//
// This is what distribution over processes relies on: in window mode the
// count over [lo, hi) of text equals that of text[lo:min(hi+len(p)−1, n)]
// over [0, hi−lo); in occurrence mode that of
// text[max(0, lo−(len(p)+k)):hi] over the last hi−lo positions.
func WithRange(from, to int) Option {
	return func(c *config) {
		if from < 0 || from > to {
			c.Fail("range [%d, %d) is invalid: want 0 <= from <= to", from, to)
			return
		}
		c.rangeSet, c.rangeFrom, c.rangeTo = true, from, to
	}
}

func newConfig(opts []Option) (*config, error) {
	c := &config{Errs: option.Errs{Pkg: "match"}, ctx: context.Background()}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.Err != nil {
		return nil, c.Err
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	return c, nil
}

// newMatcher checks Count's (or Positions') arguments and options and
// returns the call's matcher: k capped at the longest pattern, the range,
// the kernel of the mode and algorithm.
func newMatcher(text []byte, patterns [][]byte, k int, opts []Option) (*matcher, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	switch {
	case k < 0:
		return nil, fmt.Errorf("match: %w: k = %d must be >= 0", ErrInvalidOption, k)
	case len(patterns) == 0:
		return nil, fmt.Errorf("match: %w: no patterns: want at least one", ErrInvalidOption)
	case c.gpuRatio > 0 && c.mode != Window:
		return nil, fmt.Errorf("match: %w: gpu ratio = %v with mode %s: the GPU share is for window mode only (use ratio 0)",
			ErrInvalidOption, c.gpuRatio, c.mode)
	}
	longest := 0
	for i, p := range patterns {
		if len(p) == 0 {
			return nil, fmt.Errorf("match: %w: pattern %d is empty: want at least one byte", ErrInvalidOption, i)
		}
		longest = max(longest, len(p))
	}
	// Every position matches once k ≥ len(p) (in window mode a window is at
	// most len(p) long, in occurrence mode the empty substring is len(p)
	// edits away): a larger k counts the same and cannot overflow the
	// kernels' arithmetic.
	k = min(k, longest)
	from, to := 0, len(text)
	if c.rangeSet {
		if c.rangeTo > len(text) {
			return nil, fmt.Errorf("match: %w: range [%d, %d) ends past the text's length %d", ErrInvalidOption, c.rangeFrom, c.rangeTo, len(text))
		}
		from, to = c.rangeFrom, c.rangeTo
	}
	if c.stats != nil {
		*c.stats = Stats{Workers: c.workers}
	}
	if err := c.ctx.Err(); err != nil {
		return nil, fmt.Errorf("match: canceled: %w", err)
	}
	alg := c.alg
	if alg == Auto {
		alg = Fast
	}
	return &matcher{
		text: text, k: k, from: from, to: to, c: c,
		kernel: kernels[c.mode][alg],
		naive:  alg == Naive,
	}, nil
}
