package experiments

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/shard"
	"github.com/levlab/levlab/match"
)

// MatchK is the edit budget of report 003's experiments. The report does
// not say which k its figures used (its code compares the distance with an
// "aproxFactor"); 2 is about a tenth of its 22-byte pattern.
const MatchK = 2

// measureMatches times one repetition of a pattern-matching point: the
// count of the windows of text matching pattern within MatchK edits
// (report 003's window mode), as one match.Count call with p's
// algorithm, workers and GPU ratio, or, when p.Ranks > 0, as p.Ranks
// simulated MPI ranks (countRanks). See Measure for what is timed and how
// memory is measured; Matches is the count, Distance 0.
func measureMatches(ctx context.Context, p Point, text, pattern []byte) (Measurement, error) {
	alg, err := match.ParseAlgorithm(p.Algorithm)
	if err != nil {
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}
	if p.Tile != 0 || p.Block != 0 || p.Ranks < 0 {
		return Measurement{}, fmt.Errorf("experiments: %s counts matches: tile = %d and block = %d (want 0), ranks = %d (want >= 0)",
			p.Algorithm, p.Tile, p.Block, p.Ranks)
	}
	if p.Ranks > 0 && p.GPURatio != 0 {
		return Measurement{}, fmt.Errorf("experiments: %s: simulated ranks count on the CPU only; gpu ratio = %g (want 0)", p.Algorithm, p.GPURatio)
	}
	opts := []match.Option{
		match.WithMode(match.Window), match.WithAlgorithm(alg), match.WithWorkers(p.Workers),
		match.WithGPURatio(p.GPURatio), match.WithContext(ctx),
	}
	pats := [][]byte{pattern}
	// The workers as run: per rank where there are ranks (each rank's
	// call has the same).
	st := match.Stats{Workers: p.Workers}
	if st.Workers == 0 {
		st.Workers = runtime.GOMAXPROCS(0)
	}
	if p.Ranks == 0 {
		opts = append(opts, match.WithStats(&st))
	}

	clk := startClock()
	var counts []int64
	if p.Ranks == 0 {
		counts, err = match.Count(text, pats, MatchK, opts...)
	} else {
		counts, err = countRanks(text, pats, MatchK, p.Ranks, opts)
	}
	elapsed, alloc := clk.stop()

	if err != nil {
		if errors.Is(err, cudaext.ErrUnavailable) {
			return Measurement{}, fmt.Errorf("%w: %w", ErrSkipped, err)
		}
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}
	ran := alg
	if ran == match.Auto {
		ran = match.Fast // match's documented choice
	}
	return Measurement{
		Seconds:    elapsed,
		Matches:    counts[0],
		AllocBytes: alloc,
		CPUSeconds: clk.cpu,
		Ran:        ran.String(),
		RanWorkers: st.Workers,
	}, nil
}

// countRanks is the in-process stand-in for levlab match under mpirun with
// the given ranks: the text is cut into that many parts (internal/shard,
// window mode), each with its len(longest)−1 shadow bytes; each "rank" is a
// goroutine that copies its part into a buffer of its own — what reading
// it from the file does under mpirun — and counts the part's positions with one
// match.Count call (WithRange) and opts' workers; rank 0's caller sums
// the counts. All ranks run at once, so ranks × workers goroutines share
// the machine's cores as MPI processes on one machine would. What it does
// not have is MPI itself: no process start, no message passing.
func countRanks(text []byte, pats [][]byte, k, ranks int, opts []match.Option) ([]int64, error) {
	longest := 0
	for _, p := range pats {
		longest = max(longest, len(p))
	}
	counts := make([][]int64, ranks)
	errs := make([]error, ranks)
	var wg sync.WaitGroup
	for r := range ranks {
		part, err := shard.Window(len(text), ranks, r, longest)
		if err != nil {
			return nil, err
		}
		wg.Go(func() {
			mine := slices.Clone(text[part.Start:part.End])
			counts[r], errs[r] = match.Count(mine, pats, k, append(slices.Clip(opts), match.WithRange(part.From, part.To))...)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sum := make([]int64, len(pats))
	for _, c := range counts {
		for i, n := range c {
			sum[i] += n
		}
	}
	return sum, nil
}
