package lev

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestTrimPass: a trimmed pass of threshold t has the distance d, and
// says so, exactly when t ≥ d, and says it has not when t < d — for pairs
// of 1,200 to 30,000 symbols from identical to unrelated, over 2 to 256
// symbols, every kernel, 1 to 3 workers, chunks from 7 columns (groups
// waiting on one another mid-row) to the whole row. The distance is the
// full DP's up to 3,000 symbols, the band-free Myers pass's beyond.
func TestTrimPass(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(41, 7))
	iters := 80
	if raceEnabled || testing.Short() {
		iters = 16
	}
	for it := range iters {
		sigma := []int{2, 4, 26, 256}[it%4]
		n := 1200 + r.IntN([]int{1800, 8000, 29000}[it%3])
		if raceEnabled {
			n = min(n, 6000)
		}
		a := dpRandSeq[uint8](r, n, sigma, 0)
		var b []byte
		switch it % 5 {
		case 0: // unrelated
			b = dpRandSeq[uint8](r, 1+r.IntN(n+n/4), sigma, 0)
		case 1: // a block moved: the path leaves the diagonal far
			cut := r.IntN(n)
			b = append(append([]byte{}, a[cut:]...), a[:cut]...)
		default: // 0.1 % to 40 % of edits
			b = dpMutate(r, a, r.IntN(1+n*[]int{1, 50, 400}[it%3]/1000), sigma)
		}
		ta, tb := trimCommon(a, b)
		if len(ta) > len(tb) {
			ta, tb = tb, ta
		}
		if len(ta) == 0 {
			continue
		}
		var d int
		if len(a) <= 3000 && len(b) <= 3000 {
			d = dpReference(a, b)
		} else {
			var err error
			if d, err = myersDistance(a, b, &config{ctx: context.Background(), noBand: true}, 1); err != nil {
				t.Fatal(err)
			}
		}
		kernel := availableKernels()[r.IntN(len(availableKernels()))]
		workers := 1 + r.IntN(3)
		tile := []int{0, 7, 300, 5000}[r.IntN(4)]
		for _, th := range []int{d, d - 1, d + 1 + r.IntN(1+d), max(d, len(tb)-len(ta)) * 2} {
			if th < len(tb)-len(ta) {
				continue // below |m−n|: no pass is asked for
			}
			what := fmt.Sprintf("it %d: %d×%d, σ %d, kernel %s, workers %d, tile %d, t %d, d %d", it, len(ta), len(tb), sigma, kernel, workers, tile, th, d)
			ps := &myersPass[uint8]{p: ta, t: tb, m: len(ta), n: len(tb), sigma: alphabetSize(ta, tb),
				workers: workers, chunk: myersChunk(bandFor(len(ta), len(tb), th), len(tb), workers, tile),
				ctx: context.Background(), kernel: kernel}
			v, ok, err := trimPass(ps, th)
			switch {
			case err != nil:
				t.Fatalf("%s: %v", what, err)
			case ok != (th >= d):
				t.Fatalf("%s: within t %v, want %v (value %d)", what, ok, th >= d, v)
			case ok && v != d:
				t.Fatalf("%s: %d, want %d", what, v, d)
			}
		}
	}
}

// TestDistanceSimilarLong: the distance of long similar pairs, which
// takes the trimmed pass, equals the band-free pass's, for every
// algorithm that runs it.
func TestDistanceSimilarLong(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 41))
	for it := range 6 {
		a := dpRandSeq[uint8](r, 20000+r.IntN(20000), 4, 0)
		b := dpMutate(r, a, len(a)*[]int{1, 5, 15}[it%3]/100, 4)
		want, err := myersDistance(a, b, &config{ctx: context.Background(), noBand: true}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []Algorithm{Auto, Myers, MyersParallel} {
			w := 2
			if alg == Myers {
				w = 1
			}
			if got, err := Distance(a, b, WithAlgorithm(alg), WithWorkers(w)); err != nil || got != want {
				t.Errorf("it %d: %s of %d×%d: %d, %v; want %d", it, alg, len(a), len(b), got, err, want)
			}
		}
	}
}

// TestDistanceCappedLong: under WithMax a long pair takes the trimmed pass
// where the cap is wider than the narrow band (of threshold k, or of the
// narrow pass's value where the cap is far wider), else the cap's band:
// the distance where it is within k, else k+1, as the band-free pass says,
// on 1 and 2 workers; and a cap far wider than the narrow band costs no
// more cells than no cap (the band of cost k, as before, cost up to three
// times as many on these pairs).
func TestDistanceCappedLong(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 43))
	for it := range 8 {
		a := dpRandSeq[uint8](r, 20000+r.IntN(10000), 4, 0)
		var b []byte
		if it%4 == 3 {
			b = dpRandSeq[uint8](r, len(a)-r.IntN(200), 4, 0) // unrelated
		} else {
			b = dpMutate(r, a, len(a)*[]int{1, 5, 15}[it%3]/100, 4)
		}
		d, err := myersDistance(a, b, &config{ctx: context.Background(), noBand: true}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			var free Stats
			if _, err := Distance(a, b, WithWorkers(w), WithStats(&free)); err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{d / 2, d - 1, d, d + 1, 2 * d, len(a) - 1} {
				if k < abs(len(a)-len(b)) || k < 0 || k >= len(a) {
					continue
				}
				want := min(d, k+1)
				var st Stats
				got, err := Distance(a, b, WithMax(k), WithWorkers(w), WithStats(&st))
				if err != nil || got != want {
					t.Errorf("it %d: %d×%d (d = %d), WithMax(%d), %d workers: %d, %v; want %d", it, len(a), len(b), d, k, w, got, err, want)
				}
				if wide := 16 * (abs(len(a)-len(b)) + 2*trimBandRows); k >= wide && st.Computed > free.Computed {
					t.Errorf("it %d: %d×%d (d = %d), WithMax(%d), %d workers: %d cells computed, more than the %d without a cap", it, len(a), len(b), d, k, w, st.Computed, free.Computed)
				}
			}
		}
	}
}
