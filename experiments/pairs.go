package experiments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
)

// measurePairs times every pair i < j of set: one lev.All call with p's
// algorithm and workers (Pairs), or the peer called a pair at a time
// (PeerPairs, one worker). Distance is the sum of the distances, a
// checksum the two kinds must agree on; Matches the pairs; Cells
// Σ len(set[i])·len(set[j]); Computed the cells lev computed (0 for a
// peer). See Measure for the clock and the memory.
func measurePairs(ctx context.Context, p Point, set [][]byte) (Measurement, error) {
	if p.Tile != 0 || p.Block != 0 {
		return Measurement{}, fmt.Errorf("experiments: %s over many pairs: tile = %d and block = %d (want 0)", p.Algorithm, p.Tile, p.Block)
	}
	var sum, pairs, cells, computed int64
	var run func() error
	ran, workers := p.Algorithm, 1
	switch p.Kind {
	case Pairs:
		alg, err := lev.ParseAlgorithm(p.Algorithm)
		if err != nil {
			return Measurement{}, fmt.Errorf("experiments: %w", err)
		}
		var st lev.Stats
		opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(p.Workers), lev.WithContext(ctx), lev.WithStats(&st)}
		run = func() error {
			err := lev.All(set, func(q lev.Pair) error {
				sum, pairs = sum+int64(q.Distance), pairs+1
				return nil
			}, opts...)
			workers, computed = st.Workers, st.Computed
			return err
		}
	default:
		pe, ok := peers[p.Algorithm]
		if !ok {
			return Measurement{}, fmt.Errorf("experiments: peer %q is unknown; valid: %s", p.Algorithm, strings.Join(Peers(), ", "))
		}
		if p.Workers > 1 {
			return Measurement{}, fmt.Errorf("experiments: %s is a sequential peer: workers = %d (want 0 or 1)", p.Algorithm, p.Workers)
		}
		run = func() error {
			if pe.mu != nil {
				pe.mu.Lock()
				defer pe.mu.Unlock()
			}
			for i := range set {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("canceled: %w", err)
				}
				for j := i + 1; j < len(set); j++ {
					d, err := pe.distance(set[i], set[j])
					if err != nil {
						return err
					}
					sum, pairs = sum+int64(d), pairs+1
				}
			}
			return nil
		}
	}
	for i := range set {
		for j := i + 1; j < len(set); j++ {
			cells += int64(len(set[i])) * int64(len(set[j]))
		}
	}
	clk := startClock()
	err := run()
	elapsed, alloc := clk.stop()
	switch {
	case errors.Is(err, cudaext.ErrUnavailable), errors.Is(err, ErrSkipped):
		return Measurement{}, fmt.Errorf("%w: %w", ErrSkipped, err)
	case err != nil:
		return Measurement{}, fmt.Errorf("experiments: %s: %w", p.Algorithm, err)
	}
	return Measurement{
		Seconds:    elapsed,
		Distance:   int(sum),
		Matches:    pairs,
		Cells:      cells,
		Computed:   computed,
		AllocBytes: alloc,
		CPUSeconds: clk.cpu,
		Ran:        ran,
		RanWorkers: workers,
	}, nil
}

// SuggestK is the edits a spelling suggestion may take in the suggest
// experiment: the typos are one edit from a word.
const SuggestK = 1

// measureSuggest times spelling suggestions, the words within SuggestK
// edits of each typo, counted in runes: one lev.CrossStrings call with
// WithMax(SuggestK) and p's workers (Suggest), or lev.DistanceString on
// every typo and word, one worker (SuggestLoop). Matches is the
// suggestions found, Distance the sum of their distances (the two kinds
// must agree), Cells Σ runes(typo)·runes(word), Computed the cells lev
// counted (Suggest; 0 for the loop of calls).
func measureSuggest(ctx context.Context, p Point, typoSet, wordSet [][]byte) (Measurement, error) {
	if p.Tile != 0 || p.Block != 0 {
		return Measurement{}, fmt.Errorf("experiments: %s over spelling suggestions: tile = %d and block = %d (want 0)", p.Algorithm, p.Tile, p.Block)
	}
	alg, err := lev.ParseAlgorithm(p.Algorithm)
	if err != nil {
		return Measurement{}, fmt.Errorf("experiments: %w", err)
	}
	typos, words := asStrings(typoSet), asStrings(wordSet)
	var cells, found, sum, computed int64
	var tr, wr int64
	for _, t := range typos {
		tr += int64(utf8.RuneCountInString(t))
	}
	for _, w := range words {
		wr += int64(utf8.RuneCountInString(w))
	}
	cells = tr * wr
	workers := 1
	var run func() error
	switch p.Kind {
	case Suggest:
		var st lev.Stats
		opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(p.Workers), lev.WithMax(SuggestK), lev.WithContext(ctx), lev.WithStats(&st)}
		run = func() error {
			err := lev.CrossStrings(typos, words, func(q lev.Pair) error {
				found, sum = found+1, sum+int64(q.Distance)
				return nil
			}, opts...)
			workers, computed = st.Workers, st.Computed
			return err
		}
	default:
		if p.Workers > 1 {
			return Measurement{}, fmt.Errorf("experiments: the obvious loop runs on one worker: workers = %d (want 0 or 1)", p.Workers)
		}
		opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(1)}
		run = func() error {
			for _, t := range typos {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("canceled: %w", err)
				}
				for _, w := range words {
					d, err := lev.DistanceString(t, w, opts...)
					if err != nil {
						return err
					}
					if d <= SuggestK {
						found, sum = found+1, sum+int64(d)
					}
				}
			}
			return nil
		}
	}
	clk := startClock()
	err = run()
	elapsed, alloc := clk.stop()
	if err != nil {
		return Measurement{}, fmt.Errorf("experiments: %s: %w", p.Kind, err)
	}
	return Measurement{
		Seconds:    elapsed,
		Distance:   int(sum),
		Matches:    found,
		Cells:      cells,
		Computed:   computed,
		AllocBytes: alloc,
		CPUSeconds: clk.cpu,
		Ran:        p.Algorithm,
		RanWorkers: workers,
	}, nil
}

func asStrings(set [][]byte) []string {
	out := make([]string, len(set))
	for i, s := range set {
		out[i] = string(s)
	}
	return out
}
