package match_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/match"
)

// matchBenchText returns n random ACGT bytes from a fixed seed, made once.
var matchBenchText = sync.OnceValue(func() []byte {
	return levtest.RandomBytes(rand.New(rand.NewPCG(3, 22)), 1<<24, levtest.DNA)
})

// BenchmarkCountMatches times report 003's setting: random ACGT text, one
// pattern of 22, k = 2. Throughput is text bytes per second for the one
// pattern (SetBytes: the work is linear in the text). apm-naive runs on the
// smaller text only: it does len(p)² cells per position.
//
//	go test -run '^$' -bench Count -benchtime 3x ./match
func BenchmarkCountMatches(b *testing.B) {
	all := matchBenchText()
	pattern := [][]byte{levtest.RandomBytes(rand.New(rand.NewPCG(4, 22)), 22, levtest.DNA)}
	const k = 2
	for _, mode := range []match.Mode{match.Window, match.Occurrence} {
		for _, alg := range []match.Algorithm{match.Naive, match.Fast} {
			for _, n := range []int{1 << 20, 1 << 24} {
				if alg == match.Naive && n > 1<<20 {
					continue
				}
				for _, w := range []int{1, 2} {
					text := all[:n]
					name := fmt.Sprintf("mode=%s/alg=%s/n=%d/workers=%d", mode, alg, n, w)
					b.Run(name, func(b *testing.B) {
						opts := []match.Option{match.WithMode(mode), match.WithAlgorithm(alg), match.WithWorkers(w)}
						b.SetBytes(int64(n))
						b.ReportAllocs()
						var got []int64
						for b.Loop() {
							var err error
							if got, err = match.Count(text, pattern, k, opts...); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(got[0]), "matches")
					})
				}
			}
		}
	}
}
