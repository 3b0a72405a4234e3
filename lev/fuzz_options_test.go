package lev_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// FuzzOptions fuzzes the options that size a loop — the tile (or a Myers
// pipeline's chunk), the workers, the cap and the top — with any int, not
// only the strings: every call either refuses an option out of its range
// with an error wrapping ErrInvalidOption, or answers exactly; none
// panics. Distance runs every CPU algorithm, Align and Cross run too.
func FuzzOptions(f *testing.F) {
	huge := []int{math.MaxInt, math.MaxInt - 1, math.MaxInt/2 + 1, math.MinInt, math.MaxInt32, 1 << 40}
	for i, h := range huge {
		f.Add([]byte("kitten sitting on a mat"), []byte("sitting kitten on the mat"), h, i, -1, 0)
		f.Add([]byte("ACGTACGTTGCA"), []byte("ACGTTGCAACGT"), 3, 2, h, h)
		f.Add([]byte("abc"), []byte("abd"), 1, h, h, 1)
	}
	f.Add([]byte(""), []byte("x"), 0, 0, 0, 0)
	f.Add([]byte("x"), []byte(""), -1, -1, -2, -1)
	f.Add([]byte("abcdef"), []byte("badcfe"), 2, lev.MaxWorkers, 2, 2)
	f.Add([]byte("abcdef"), []byte("badcfe"), 2, lev.MaxWorkers+1, 2, 2)

	f.Fuzz(func(t *testing.T, a, b []byte, tile, workers, k, top int) {
		a, b = a[:min(len(a), 256)], b[:min(len(b), 256)]
		want := levtest.Reference(a, b)
		capped := func(d int) int {
			if k >= 0 && d > k {
				return k + 1
			}
			return d
		}
		// -1 leaves the cap out, 0 the top: the defaults.
		opts := []lev.Option{lev.WithTile(tile), lev.WithWorkers(workers)}
		if k != -1 {
			opts = append(opts, lev.WithMax(k))
		}
		inRange := tile > 0 && workers >= 0 && workers <= lev.MaxWorkers && k >= -1
		check := func(what string, valid bool, err error, got, want int) {
			t.Helper()
			switch {
			case err != nil && !errors.Is(err, lev.ErrInvalidOption):
				t.Errorf("%s(%q, %q) tile %d, workers %d, max %d, top %d: %v", what, a, b, tile, workers, k, top, err)
			case err != nil && valid:
				t.Errorf("%s(%q, %q) tile %d, workers %d, max %d, top %d: refused options in range: %v", what, a, b, tile, workers, k, top, err)
			case err == nil && !valid:
				t.Errorf("%s(%q, %q) tile %d, workers %d, max %d, top %d: took options out of range", what, a, b, tile, workers, k, top)
			case err == nil && got != want:
				t.Errorf("%s(%q, %q) tile %d, workers %d, max %d, top %d = %d, want %d", what, a, b, tile, workers, k, top, got, want)
			}
		}
		for _, alg := range lev.Algorithms() {
			if alg.GPU() {
				continue
			}
			d, err := lev.Distance(a, b, append(opts, lev.WithAlgorithm(alg))...)
			check(alg.String(), inRange && (alg.Parallel() || workers <= 1), err, d, capped(want))
		}
		al, err := lev.Align(a, b, opts...)
		check("Align", inRange, err, al.Distance, capped(want))

		n := 0
		pairOpts := opts
		if top != 0 {
			n = top
			pairOpts = append(slices.Clone(opts), lev.WithTop(top))
		}
		set := [][]byte{a, b}
		got, err := collect(func(fn func(lev.Pair) error) error { return lev.Cross(set, set, fn, pairOpts...) })
		ok := 0
		if err == nil && top >= 0 {
			if ref := refPairs(set, set, false, k, n); slices.Equal(got, ref) {
				ok = 1
			}
		}
		check("Cross", inRange && top >= 0, err, ok, 1)
	})
}
