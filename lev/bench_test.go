package lev_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// Environment variables that add the long benchmarks; without them
// go test -bench . ./lev finishes in a few minutes.
const (
	// bench1MEnv=1 adds n=1000000 for myers and myers-parallel (tens of
	// seconds per run).
	bench1MEnv = "LEVLAB_BENCH_1M"
	// benchFullMatrixEnv=1 runs fullmatrix at n=50000, which allocates a
	// 50001×50001 matrix of uint16: 5 GB.
	benchFullMatrixEnv = "LEVLAB_BENCH_FULLMATRIX"
)

// benchInputs returns the two random ACGT strings of length n that every
// benchmark of that size uses, generated once, outside any timed loop, from
// a fixed seed so that runs compare (benchstat) on the same inputs.
func benchInputs(n int) (a, b []byte) {
	in := benchCase(n)
	return in.a, in.b
}

type benchIn struct {
	a, b []byte
	want func() (int, error) // their distance, by auto on every core, computed once
}

var benchCases sync.Map // n -> *benchIn

func benchCase(n int) *benchIn {
	if in, ok := benchCases.Load(n); ok {
		return in.(*benchIn)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 0x1e7))
	in := &benchIn{a: levtest.RandomBytes(rng, n, levtest.DNA), b: levtest.RandomBytes(rng, n, levtest.DNA)}
	in.want = sync.OnceValues(func() (int, error) {
		return lev.Distance(in.a, in.b)
	})
	got, _ := benchCases.LoadOrStore(n, in)
	return got.(*benchIn)
}

// benchWorkers returns the worker counts an algorithm is timed with: 1 for a
// sequential one; 1, 2 and GOMAXPROCS for a parallel one.
func benchWorkers(alg lev.Algorithm) []int {
	if !alg.Parallel() {
		return []int{1}
	}
	w := []int{1, 2, runtime.GOMAXPROCS(0)}
	slices.Sort(w)
	return slices.Compact(w)
}

// BenchmarkDistance times every CPU algorithm, and the peers agnivade and
// ka-weihe beside them, on two random ACGT strings of equal length n, as
// alg=NAME/n=SIZE/workers=W; myers and myers-parallel once per vector
// kernel this CPU runs, as alg=NAME/kernel=go|avx2|avx512/n=SIZE/workers=W.
// It reports GCUPS: billions of DP cells (n·n) per second, whatever the
// algorithm does inside.
//
// fullmatrix at n=50000 needs LEVLAB_BENCH_FULLMATRIX=1 (5 GB), and
// n=1000000 for myers and myers-parallel needs LEVLAB_BENCH_1M=1.
func BenchmarkDistance(b *testing.B) {
	sizes := []int{1000, 10_000, 30_000, 50_000}
	for _, alg := range lev.Algorithms() {
		if alg.GPU() {
			continue
		}
		algSizes := sizes
		if (alg == lev.Myers || alg == lev.MyersParallel) && os.Getenv(bench1MEnv) == "1" {
			algSizes = append(slices.Clone(sizes), 1_000_000)
		}
		// Myers' algorithms once per kernel this CPU runs, named by it.
		kernels := []string{""}
		if alg == lev.Myers || alg == lev.MyersParallel {
			kernels = lev.MyersKernels()
		}
		for _, k := range kernels {
			name, opts := "alg="+alg.String(), []lev.Option{lev.WithAlgorithm(alg)}
			if k != "" {
				name += "/kernel=" + k
				opts = append(opts, lev.WithMyersKernel(k))
			}
			for _, n := range algSizes {
				for _, w := range benchWorkers(alg) {
					b.Run(fmt.Sprintf("%s/n=%d/workers=%d", name, n, w), func(b *testing.B) {
						if alg == lev.FullMatrix && n >= 50_000 && os.Getenv(benchFullMatrixEnv) != "1" {
							b.Skipf("fullmatrix at n=%d allocates %d MiB: set %s=1", n, (n+1)*(n+1)*2>>20, benchFullMatrixEnv)
						}
						x, y := benchInputs(n)
						opts := append(slices.Clone(opts), lev.WithWorkers(w))
						benchDistance(b, n, func() (int, error) { return lev.Distance(x, y, opts...) })
					})
				}
			}
		}
	}
	for _, p := range peers {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("alg=%s/n=%d/workers=1", p.name, n), func(b *testing.B) {
				x, y := benchInputs(n)
				sx, sy := string(x), string(y)
				benchDistance(b, n, func() (int, error) { return p.distance(sx, sy), nil })
			})
		}
	}
}

// BenchmarkGPU times the GPU algorithms, as alg=NAME/n=SIZE/block=B:
// cuda-fast at report 000's Table 2 sizes and 1M (the targets: 150k in 50
// ms, 1M in 1 s on an H200), cuda-diagonal at Table 2's sizes and block
// sizes, cuda-matrix at 10k. Besides GCUPS it reports the kernel time
// alone (compute-s, CUDA events) and, for the launch-bound kernels, the
// time per launch (us/launch). It skips where no GPU is usable (fails
// under LEVLAB_REQUIRE_GPU=1).
func BenchmarkGPU(b *testing.B) {
	type run struct {
		alg    lev.Algorithm
		sizes  []int
		blocks []int
	}
	runs := []run{
		{lev.CUDAFast, []int{10_000, 50_000, 150_000, 1_000_000}, []int{128}},
		{lev.CUDADiagonal, []int{10_000, 50_000, 150_000}, []int{128, 256, 512, 1024}},
		{lev.CUDAMatrix, []int{10_000}, []int{256}},
	}
	for _, r := range runs {
		for _, n := range r.sizes {
			for _, blk := range r.blocks {
				b.Run(fmt.Sprintf("alg=%s/n=%d/block=%d", r.alg, n, blk), func(b *testing.B) {
					if _, err := lev.Distance([]byte("a"), []byte("b"), lev.WithAlgorithm(r.alg)); err != nil {
						if os.Getenv(levtest.RequireGPUEnv) == "1" {
							b.Fatal(err)
						}
						b.Skip(err)
					}
					x, y := benchInputs(n)
					var st lev.Stats
					var compute, perLaunch float64
					calls := 0
					benchDistance(b, n, func() (int, error) {
						d, err := lev.Distance(x, y, lev.WithAlgorithm(r.alg), lev.WithBlockSize(blk), lev.WithStats(&st))
						compute += st.GPU.ComputeSeconds
						calls++
						perLaunch = st.GPU.PerLaunch()
						return d, err
					})
					b.ReportMetric(compute/float64(calls), "compute-s")
					if r.alg != lev.CUDAFast {
						b.ReportMetric(perLaunch*1e6, "us/launch")
					}
				})
			}
		}
	}
}

// BenchmarkGPUPairs times every pair i < j of 2,000 random DNA strings of
// 500–1000 bp (1,999,000 pairs) through lev.All, as alg=NAME/workers=W:
// cuda-fast's many-pairs job on the GPU beside auto on one worker and
// every core, in one run. TCUPS counts every pair's len·len cells (matrix
// cells a second); compute-s is the GPU's kernel time alone. It skips
// cuda-fast where no GPU is usable (fails under LEVLAB_REQUIRE_GPU=1).
func BenchmarkGPUPairs(b *testing.B) {
	set := benchSet(2000, 7)
	var cells float64
	for i := range set {
		for j := i + 1; j < len(set); j++ {
			cells += float64(len(set[i]) * len(set[j]))
		}
	}
	var want int64
	for _, r := range []struct {
		alg     lev.Algorithm
		workers int
	}{{lev.CUDAFast, 0}, {lev.Auto, 1}, {lev.Auto, runtime.GOMAXPROCS(0)}} {
		b.Run(fmt.Sprintf("alg=%s/workers=%d", r.alg, r.workers), func(b *testing.B) {
			if r.alg.GPU() {
				if _, err := lev.Distance([]byte("a"), []byte("b"), lev.WithAlgorithm(r.alg)); err != nil {
					if os.Getenv(levtest.RequireGPUEnv) == "1" {
						b.Fatal(err)
					}
					b.Skip(err)
				}
			}
			var st lev.Stats
			var compute float64
			for b.Loop() {
				var sum int64
				err := lev.All(set, func(p lev.Pair) error { sum += int64(p.Distance); return nil },
					lev.WithAlgorithm(r.alg), lev.WithWorkers(r.workers), lev.WithStats(&st))
				if err != nil {
					b.Fatal(err)
				}
				if want == 0 {
					want = sum
				} else if sum != want {
					b.Fatalf("the distances sum to %d, another run's to %d", sum, want)
				}
				compute += st.GPU.ComputeSeconds
			}
			b.ReportMetric(cells*float64(b.N)/b.Elapsed().Seconds()/1e12, "TCUPS")
			if r.alg.GPU() {
				b.ReportMetric(compute/float64(b.N), "compute-s")
			}
		})
	}
}

// benchDistance times distance, which computes the distance of the two
// strings of length n, reports GCUPS, and checks the answer against auto.
func benchDistance(b *testing.B, n int, distance func() (int, error)) {
	b.Helper()
	b.ReportAllocs()
	var d, iters int
	var err error
	for b.Loop() {
		if d, err = distance(); err != nil {
			b.Fatal(err)
		}
		iters++
	}
	// b.Loop leaves b.N to the framework: count the iterations here.
	cells := float64(n) * float64(n)
	b.ReportMetric(cells*float64(iters)/b.Elapsed().Seconds()/1e9, "GCUPS")

	want, err := benchCase(n).want()
	if err != nil {
		b.Fatalf("myers, for the expected answer: %v", err)
	}
	if d != want {
		b.Fatalf("distance %d, but myers says %d", d, want)
	}
}

// benchSet returns n random ACGT strings of 500 to 1000 bp from a fixed
// seed: the many-pairs workload (reads against reads).
func benchSet(n int, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 0x9a1))
	set := make([][]byte, n)
	for i := range set {
		set[i] = levtest.RandomBytes(rng, 500+rng.IntN(501), levtest.DNA)
	}
	return set
}

// BenchmarkCross times every string of one set of 200 random DNA strings
// (500–1000 bp) against every one of another, as max=K/workers=W (K −1:
// no cap). GCUPS counts every pair's len(a)·len(b) cells.
func BenchmarkCross(b *testing.B) {
	x, y := benchSet(200, 1), benchSet(200, 2)
	var cells float64
	for _, s := range x {
		for _, t := range y {
			cells += float64(len(s) * len(t))
		}
	}
	for _, k := range []int{-1, 10} {
		for _, w := range benchWorkers(lev.MyersParallel) {
			b.Run(fmt.Sprintf("max=%d/workers=%d", k, w), func(b *testing.B) {
				opts := []lev.Option{lev.WithWorkers(w)}
				if k >= 0 {
					opts = append(opts, lev.WithMax(k))
				}
				for b.Loop() {
					if err := lev.Cross(x, y, func(lev.Pair) error { return nil }, opts...); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(cells*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
			})
		}
	}
}

// BenchmarkDistanceCapped times Distance under WithMax, as
// pair=NAME/max=K/workers=W: a 1M × 1M DNA pair 1% diverged under a cap
// five times its distance, and two random 100k DNA strings under a cap
// below their distance (the answer k+1). GCUPS counts the n·n cells.
func BenchmarkDistanceCapped(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 0xca9))
	big := levtest.RandomBytes(rng, 1_000_000, levtest.DNA)
	ra, rb := benchInputs(100_000)
	for _, c := range []struct {
		name string
		a, b []byte
		k    int
	}{
		{"similar1pct-1M", big, levtest.Diverge(rng, big, 10, levtest.DNA), 50_000},
		{"random-100k", ra, rb, 10_000},
	} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("pair=%s/max=%d/workers=%d", c.name, c.k, w), func(b *testing.B) {
				for b.Loop() {
					if _, err := lev.Distance(c.a, c.b, lev.WithMax(c.k), lev.WithWorkers(w)); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(c.a))*float64(len(c.b))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
			})
		}
	}
}
