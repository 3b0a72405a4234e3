package lev

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
)

// myersIterations scales a test's number of random pairs down under the
// race detector, which the parallel pipeline still meets on every input.
func myersIterations(n int) int {
	if raceEnabled || testing.Short() {
		return max(1, n/8)
	}
	return n
}

// myersPair draws a random pair over sigma symbols, every other one a
// mutation of the first, so that both distant and close pairs (narrow
// bands, long common runs) are covered.
func myersPair(r *rand.Rand, maxLen, sigma int, close bool) ([]byte, []byte) {
	a := dpRandSeq[uint8](r, 1+r.IntN(maxLen), sigma, 0)
	if close {
		return a, dpMutate(r, a, r.IntN(1+len(a)/10), sigma)
	}
	return a, dpRandSeq[uint8](r, 1+r.IntN(maxLen), sigma, 0)
}

func TestMyersRandom(t *testing.T) {
	// The pipeline caps its workers at GOMAXPROCS: raised here, 3 and 8
	// workers share one boundary row on any machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	r := rand.New(rand.NewPCG(1, 1))
	for it := range myersIterations(2000) {
		sigma := []int{2, 4, 26, 256}[it%4]
		a, b := myersPair(r, 900, sigma, it%3 == 0)
		want := dpReference(a, b)
		for _, w := range []int{1, 2, 3, 8} {
			for _, noBand := range []bool{false, true} {
				tile := []int{0, 1, 5, 64}[r.IntN(4)]
				c := &config{ctx: context.Background(), workers: w, tile: tile, noBand: noBand}
				got, err := myersDistance(a, b, c, w)
				if err != nil || got != want {
					t.Fatalf("it %d: %d×%d, σ %d, workers %d, tile %d, noBand %v: got %d, %v; want %d",
						it, len(a), len(b), sigma, w, tile, noBand, got, err, want)
				}
			}
		}
	}
}

// TestMyersPassWorkers: a pass runs no more workers than GOMAXPROCS and
// its groups, on one boundary row whatever their number.
func TestMyersPassWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	a := dpRandSeq[uint8](r, 3000, 4, 0) // 12 groups
	b := dpRandSeq[uint8](r, 2000, 4, 0)
	want := dpReference(a, b)
	for _, c := range []struct{ procs, asked, ran int }{{2, 64, 2}, {8, 64, 8}, {16, 64, 12}, {16, 3, 3}} {
		prev := runtime.GOMAXPROCS(c.procs)
		ps := &myersPass[uint8]{p: a, t: b, m: len(a), n: len(b), sigma: 4, band: band{lo: len(a) + len(b), hi: len(a) + len(b)},
			workers: c.asked, chunk: 64, ctx: context.Background()}
		got, err := ps.run()
		runtime.GOMAXPROCS(prev)
		if err != nil || got != want || ps.workers != c.ran || len(ps.bound) != len(b)+1 {
			t.Errorf("GOMAXPROCS %d, %d workers asked: distance %d (%v), want %d; ran %d workers, want %d; boundary of %d bytes",
				c.procs, c.asked, got, err, want, ps.workers, c.ran, len(ps.bound))
		}
	}
}

// TestMyersBand runs single passes with bounds below, at and above the
// distance: a bound at least the distance must give it exactly, any bound
// an upper bound (the cost of a real path).
func TestMyersBand(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for it := range myersIterations(300) {
		sigma := []int{2, 4, 26}[it%3]
		p, q := myersPair(r, 2500, sigma, it%2 == 0)
		want := dpReference(p, q)
		if len(p) > len(q) {
			p, q = q, p
		}
		m, n := len(p), len(q)
		for _, w := range []int{1, 2, 3} {
			for _, u := range []int{n - m, n - m + 1, want - 1, want, want + 3, n} {
				if u < n-m {
					continue
				}
				ps := &myersPass[uint8]{p: p, t: q, m: m, n: n, sigma: 256, band: bandFor(m, n, u),
					workers: w, chunk: 1 + r.IntN(300), ctx: context.Background()}
				got, err := ps.run()
				if err != nil {
					t.Fatal(err)
				}
				if got < want || u >= want && got != want {
					t.Fatalf("it %d: %d×%d, workers %d, bound %d: got %d, want %d", it, m, n, w, u, got, want)
				}
			}
		}
	}
}

// TestMyersPortableMatchesAVX2 runs the same passes with the AVX2 kernel
// and the portable loop; both must give the reference distance.
func TestMyersPortableMatchesAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU: only the portable loop runs")
	}
	r := rand.New(rand.NewPCG(4, 4))
	for it := range myersIterations(200) {
		a, b := myersPair(r, 3000, []int{2, 4, 26, 256}[it%4], it%4 == 1)
		want := dpReference(a, b)
		for _, avx := range []bool{true, false} {
			useAVX2 = avx
			c := &config{ctx: context.Background(), tile: 1 + r.IntN(700), noBand: it%2 == 0}
			got, err := myersDistance(a, b, c, 1+it%3)
			useAVX2 = true
			if err != nil || got != want {
				t.Fatalf("it %d, avx2 %v: got %d, %v; want %d", it, avx, got, err, want)
			}
		}
	}
}

// TestMyersWideAlphabet runs the portable loop on rune codes beyond a byte.
func TestMyersWideAlphabet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for it := range myersIterations(100) {
		a := dpRandSeq[uint32](r, 1+r.IntN(1500), 1000, 0)
		b := dpMutate(r, a, r.IntN(200), 1000)
		want := dpReference(a, b)
		c := &config{ctx: context.Background()}
		if got, err := myersDistance(a, b, c, 1+it%2); err != nil || got != want {
			t.Fatalf("it %d: got %d, %v; want %d", it, got, err, want)
		}
	}
}
