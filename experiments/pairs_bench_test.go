package experiments

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/levlab/levlab/lev"
)

// readSet returns n random ACGT strings of 500 to 1000 bp from seed: the
// issue's all-against-all workload.
func readSet(n int, seed uint64) [][]byte {
	return randomSet(n, seed, 500, 1000, acgt)
}

// randomSet returns n random strings of lo to hi symbols of alphabet from
// seed.
func randomSet(n int, seed uint64, lo, hi int, alphabet string) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 0x5e7))
	set := make([][]byte, n)
	for i := range set {
		set[i] = random(rng, lo+rng.IntN(hi-lo+1), alphabet)
	}
	return set
}

// textSet returns n random UTF-8 strings of 100 to 200 runes from seed,
// of 26 letters, 10 accented ones (two bytes each in UTF-8) and a space.
func textSet(n int, seed uint64) []string {
	letters := []rune("abcdefghijklmnopqrstuvwxyzäöüßéèêàçñ ")
	rng := rand.New(rand.NewPCG(seed, 0x7e7))
	set := make([]string, n)
	for i := range set {
		r := make([]rune, 100+rng.IntN(101))
		for j := range r {
			r[j] = letters[rng.IntN(len(letters))]
		}
		set[i] = string(r)
	}
	return set
}

// crossCells is the cells of every pair of xs against ys: the sum of
// len·len, in symbols.
func crossCells[S any](xs, ys [][]S) float64 {
	var c float64
	for _, s := range xs {
		for _, t := range ys {
			c += float64(len(s) * len(t))
		}
	}
	return c
}

// BenchmarkManyPairs times 800 × 800 random DNA strings of 500–1000 bp,
// every string of one set against every one of the other, side by side
// in one run: lev.Cross on one worker and every core, with a cap of 10
// (no pair is that close), and edlib a pair a call on the first 40
// strings of the first set against the whole second (32,000 pairs: its
// rate is per pair, so a share tells it). GCUPS counts each pair's
// len·len. With -tags edlib. Beside them, lev.Cross on one worker on
// short strings and on UTF-8 text (lev-short, lev-text).
//
//	go test -tags edlib -run '^$' -bench ManyPairs -benchtime 3x ./experiments
func BenchmarkManyPairs(b *testing.B) {
	x, y := readSet(800, 1), readSet(800, 2)
	all := crossCells(x, y)
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		for _, k := range []int{-1, 10} {
			b.Run(fmt.Sprintf("lev/max=%d/workers=%d", k, w), func(b *testing.B) {
				opts := []lev.Option{lev.WithWorkers(w)}
				if k >= 0 {
					opts = append(opts, lev.WithMax(k))
				}
				for b.Loop() {
					if err := lev.Cross(x, y, func(lev.Pair) error { return nil }, opts...); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(all*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
			})
		}
	}
	// Per core on short strings and on text, the settings StringZilla
	// publishes rates for: 5,000 × 5,000 DNA of 100–200 bp, and 2,000 ×
	// 2,000 UTF-8 strings of 100–200 runes counted in runes (CrossStrings).
	sx, sy := randomSet(5000, 3, 100, 200, acgt), randomSet(5000, 4, 100, 200, acgt)
	b.Run("lev-short/max=-1/workers=1", func(b *testing.B) {
		for b.Loop() {
			if err := lev.Cross(sx, sy, func(lev.Pair) error { return nil }, lev.WithWorkers(1)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(crossCells(sx, sy)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
	})
	tx, ty := textSet(2000, 5), textSet(2000, 6)
	runes := func(set []string) [][]rune {
		out := make([][]rune, len(set))
		for i, s := range set {
			out[i] = []rune(s)
		}
		return out
	}
	b.Run("lev-text/max=-1/workers=1", func(b *testing.B) {
		for b.Loop() {
			if err := lev.CrossStrings(tx, ty, func(lev.Pair) error { return nil }, lev.WithWorkers(1)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(crossCells(runes(tx), runes(ty))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
	})
	b.Run("edlib/first40", func(b *testing.B) {
		if !edlibBuilt {
			b.Skip("edlib is not built in: run with -tags edlib")
		}
		some := x[:40]
		for b.Loop() {
			for _, s := range some {
				for _, t := range y {
					if _, err := edlibDistance(s, t); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.ReportMetric(crossCells(some, y)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
	})
}
