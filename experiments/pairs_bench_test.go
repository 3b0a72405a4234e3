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
	rng := rand.New(rand.NewPCG(seed, 0x5e7))
	set := make([][]byte, n)
	for i := range set {
		set[i] = random(rng, 500+rng.IntN(501), acgt)
	}
	return set
}

// BenchmarkManyPairs times 800 × 800 random DNA strings of 500–1000 bp,
// every string of one set against every one of the other, side by side
// in one run: lev.Cross on one worker and every core, with a cap of 10
// (no pair is that close), and edlib a pair a call on the first 40
// strings of the first set against the whole second (32,000 pairs: its
// rate is per pair, so a share tells it). GCUPS counts each pair's
// len·len. With -tags edlib.
//
//	go test -tags edlib -run '^$' -bench ManyPairs -benchtime 3x ./experiments
func BenchmarkManyPairs(b *testing.B) {
	x, y := readSet(800, 1), readSet(800, 2)
	cells := func(xs [][]byte) float64 {
		var c float64
		for _, s := range xs {
			for _, t := range y {
				c += float64(len(s) * len(t))
			}
		}
		return c
	}
	all := cells(x)
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
		b.ReportMetric(cells(some)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
	})
}
