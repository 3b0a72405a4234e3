package match_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/levlab/levlab/match"
)

// TestCountManyPatternsBounded: the tables of many patterns (about 12 KiB
// each: match words, the shifted word, the q-gram bitmap) are built for a
// batch at a time, not for every pattern at once, so that the heap a call
// takes is bounded by a batch, not by the patterns; the counts across the
// batches' edges are each pattern's alone.
func TestCountManyPatternsBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	text := make([]byte, 4096)
	for i := range text {
		text[i] = "ACGT"[rng.IntN(4)]
	}
	pats := make([][]byte, 20000)
	for i := range pats {
		at := rng.IntN(len(text) - 12)
		pats[i] = append([]byte(nil), text[at:at+12]...)
		pats[i][rng.IntN(12)] = "ACGT"[rng.IntN(4)]
	}
	for _, mode := range []match.Mode{match.Window, match.Occurrence} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, err := match.Count(text, pats, 1, match.WithMode(mode), match.WithWorkers(2))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		// 20,000 patterns' tables at once would be over 200 MiB.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%s: Count of %d patterns allocated %d MiB, want a batch's tables at a time (< 32 MiB)", mode, len(pats), alloc>>20)
		}
		for _, i := range []int{0, 1, 1023, 1024, 1025, 4095, 4096, 4097, 19999} {
			one, err := match.Count(text, pats[i:i+1], 1, match.WithMode(mode))
			if err != nil || one[0] != got[i] {
				t.Errorf("%s: pattern %d counted %d among the others, %d alone (%v)", mode, i, got[i], one[0], err)
			}
		}
	}
}
