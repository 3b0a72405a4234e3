package match_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/match"
)

// refPositions lists the positions refWindow or refOccurrence counts.
func refPositions(mode match.Mode, text, p []byte, k int) []int {
	var out []int
	for j := range text {
		var c int64
		if mode == match.Window {
			c = refWindow(text, p, k, j, j+1)
		} else {
			c = refOccurrence(text, p, k, j, j+1)
		}
		if c > 0 {
			out = append(out, j)
		}
	}
	return out
}

// TestPositions: every mode, algorithm and worker count gives the
// reference's positions, in order, on random texts with matches planted
// and on texts where nearly every position matches; a range gives those in
// it.
func TestPositions(t *testing.T) {
	rng := levtest.NewRand(t)
	ms, ns := []int{1, 5, 22, 64, 70}, []int{0, 1, 700, 2000}
	if matchRace {
		ms, ns = []int{1, 22, 70}, []int{0, 1, 400} // the race detector is for the hand-over
	}
	for _, m := range ms {
		for _, n := range append(ns, m+3) {
			text := levtest.RandomBytes(rng, n, levtest.DNA)
			pats := randomPatterns(rng, text, m, levtest.DNA)
			for _, p := range pats {
				for _, k := range []int{0, 2, m / 2, m + 1} {
					for _, mode := range matchModes {
						want := refPositions(mode, text, p, k)
						for _, alg := range []match.Algorithm{match.Naive, match.Fast} {
							for _, w := range []int{1, 3} {
								var got []int
								err := match.Positions(text, p, k, func(j int) error {
									got = append(got, j)
									return nil
								}, match.WithMode(mode), match.WithAlgorithm(alg), match.WithWorkers(w))
								if err != nil || !slices.Equal(got, want) {
									t.Fatalf("m=%d n=%d k=%d %s %s workers=%d: %v\n got %v\nwant %v", m, n, k, mode, alg, w, err, got, want)
								}
							}
						}
						if n > 10 {
							var got []int
							err := match.Positions(text, p, k, func(j int) error { got = append(got, j); return nil },
								match.WithMode(mode), match.WithRange(3, n-5))
							inRange := slices.DeleteFunc(slices.Clone(want), func(j int) bool { return j < 3 || j >= n-5 })
							if err != nil || !slices.Equal(got, inRange) {
								t.Fatalf("m=%d n=%d k=%d %s, range [3, %d): %v\n got %v\nwant %v", m, n, k, mode, n-5, err, got, inRange)
							}
						}
					}
				}
			}
		}
	}
}

// TestPositionsStops: fn's error ends the search and comes back as it is,
// fn called no more; a canceled context is an error naming it; bad
// arguments are refused.
func TestPositionsStops(t *testing.T) {
	rng := levtest.NewRand(t)
	text := levtest.RandomBytes(rng, 200_000, levtest.DNA)
	p := []byte("ACGT")
	enough := errors.New("enough")
	calls := 0
	err := match.Positions(text, p, 1, func(int) error {
		calls++
		if calls == 10 {
			return enough
		}
		return nil
	}, match.WithWorkers(2))
	if err != enough || calls != 10 {
		t.Errorf("fn's error: %v after %d calls; want %v after 10", err, calls, enough)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err = match.Positions(text, p, 1, func(int) error { cancel(); return nil }, match.WithContext(ctx), match.WithWorkers(2))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v; want context.Canceled", err)
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"nil fn", match.Positions(text, p, 1, nil)},
		{"empty pattern", match.Positions(text, nil, 1, func(int) error { return nil })},
		{"k < 0", match.Positions(text, p, -1, func(int) error { return nil })},
		{"gpu ratio", match.Positions(text, p, 1, func(int) error { return nil }, match.WithGPURatio(0.5))},
	} {
		if !errors.Is(c.err, match.ErrInvalidOption) {
			t.Errorf("%s: %v; want ErrInvalidOption", c.name, c.err)
		}
	}
}

func ExamplePositions() {
	text := []byte("the cat sat on the mat")
	match.Positions(text, []byte("cat"), 1, func(j int) error {
		fmt.Print(j, " ")
		return nil
	}, match.WithMode(match.Occurrence))
	fmt.Println()
	// Output: 5 6 7 10 21
}
