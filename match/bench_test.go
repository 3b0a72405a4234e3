package match_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/levlab/levlab/internal/edlib"
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

// manyBench is BenchmarkCountMany's input, made once: 100 MB of random
// ACGT and 96 random patterns of 24.
var manyBench = sync.OnceValues(func() ([]byte, [][]byte) {
	rng := rand.New(rand.NewPCG(96, 24))
	text := levtest.RandomBytes(rng, 100_000_000, levtest.DNA)
	pats := make([][]byte, 96)
	for i := range pats {
		pats[i] = levtest.RandomBytes(rng, 24, levtest.DNA)
	}
	return text, pats
})

// BenchmarkCountMany times many patterns over one text, Sassy2's setting
// (Beeloo and Groot Koerkamp, Bioinformatics 2026: 96 patterns of 24,
// k = 3): Count of the 96 patterns over 100 MB of random DNA, on 1 and 2
// workers, in each mode, by the lane path (path=lanes, what Count runs)
// and by the per-pattern path it replaced (path=each: a pattern at a time,
// its q-gram filter, then Myers' scan), by the AVX2 lanes on one worker
// where AVX-512 would run (path=lanes-avx2: two registers a group, two
// groups stepped together), and, with -tags edlib, edlib's
// infix mode a pattern a call on the first 8 patterns (path=edlib-hw,
// one thread, about 7 s; it finds each pattern's best distance and its
// ends, not every end within k). The
// throughput is text bytes times patterns per second (SetBytes); "Gbp/s"
// is the same in 10⁹ symbols a second.
//
//	go test -tags edlib -run '^$' -bench CountMany -benchtime 1x ./match
func BenchmarkCountMany(b *testing.B) {
	text, pats := manyBench()
	const k = 3
	work := float64(len(text)) * float64(len(pats))
	for _, mode := range []match.Mode{match.Occurrence, match.Window} {
		for _, path := range []string{"lanes", "each"} {
			for _, w := range []int{1, 2} {
				b.Run(fmt.Sprintf("mode=%s/path=%s/workers=%d", mode, path, w), func(b *testing.B) {
					if path == "each" {
						defer match.SetLanes(0)()
					}
					var got []int64
					for b.Loop() {
						var err error
						if got, err = match.Count(text, pats, k, match.WithMode(mode), match.WithWorkers(w)); err != nil {
							b.Fatal(err)
						}
					}
					var sum int64
					for _, c := range got {
						sum += c
					}
					b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gbp/s")
					b.ReportMetric(float64(sum), "matches")
				})
			}
		}
	}
	b.Run("mode=occurrence/path=lanes-avx2/workers=1", func(b *testing.B) {
		restore, ok := match.NoAVX512Lanes()
		defer restore()
		if !ok {
			b.Skip("no AVX2")
		}
		var got []int64
		for b.Loop() {
			var err error
			if got, err = match.Count(text, pats, k, match.WithMode(match.Occurrence), match.WithWorkers(1)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gbp/s")
		b.ReportMetric(float64(len(got)), "patterns")
	})
	b.Run("mode=occurrence/path=edlib-hw/workers=1", func(b *testing.B) {
		if !edlib.Built {
			b.Skip("edlib: built without -tags edlib")
		}
		first := pats[:8]
		work := float64(len(text)) * float64(len(first))
		found := 0
		for b.Loop() {
			found = 0
			for _, p := range first {
				best, _, err := edlib.SearchHW(p, text, k)
				if err != nil {
					b.Fatal(err)
				}
				if best >= 0 {
					found++
				}
			}
		}
		b.ReportMetric(work*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gbp/s")
		b.ReportMetric(float64(found), "patterns-found")
	})
}
