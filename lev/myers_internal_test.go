package lev

import (
	"context"
	"fmt"
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
				bundle := r.IntN(4) // units of 1 to 3 groups, or the pass's choice
				c := &config{ctx: context.Background(), workers: w, tile: tile, noBand: noBand, bundle: bundle}
				got, err := myersDistance(a, b, c, w)
				if err != nil || got != want {
					t.Fatalf("it %d: %d×%d, σ %d, workers %d, tile %d, units of %d, noBand %v: got %d, %v; want %d",
						it, len(a), len(b), sigma, w, tile, bundle, noBand, got, err, want)
				}
			}
		}
	}
}

// TestMyersPassWorkers: a pass runs no more workers than GOMAXPROCS and
// its groups, on one boundary row whatever their number.
func TestMyersPassWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	a := dpRandSeq[uint8](r, 3000, 4, 0) // 12 groups of four strips
	b := dpRandSeq[uint8](r, 2000, 4, 0)
	want := dpReference(a, b)
	for _, c := range []struct{ procs, asked, ran int }{{2, 64, 2}, {8, 64, 8}, {16, 64, 12}, {16, 3, 3}} {
		prev := runtime.GOMAXPROCS(c.procs)
		ps := &myersPass[uint8]{p: a, t: b, m: len(a), n: len(b), sigma: 4, band: band{lo: len(a) + len(b), hi: len(a) + len(b)},
			workers: c.asked, chunk: 64, ctx: context.Background(), kernel: kernelGo}
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

// TestMyersKernels runs the same passes with every kernel this CPU has;
// each must give the reference distance.
func TestMyersKernels(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(4, 4))
	for it := range myersIterations(300) {
		a, b := myersPair(r, 3000, []int{2, 4, 26, 256}[it%4], it%4 == 1)
		want := dpReference(a, b)
		tile, noBand := 1+r.IntN(700), it%2 == 0
		for _, k := range availableKernels() {
			c := &config{ctx: context.Background(), tile: tile, noBand: noBand, kernel: k}
			got, err := myersDistance(a, b, c, 1+it%3)
			if err != nil || got != want {
				t.Fatalf("it %d: %d×%d, kernel %s, tile %d, noBand %v: got %d, %v; want %d",
					it, len(a), len(b), k, tile, noBand, got, err, want)
			}
		}
	}
}

// TestMyersKernelsAgree cross-checks each kernel against advanceSteps, the
// schedule one strip at a time, bit for bit: the same boundary deltas out
// and the same state after, for groups of every number of strips (a short
// group's missing strips run as advance runs them, padded to the width),
// runs of columns from none to a few hundred (a third of them below 64,
// where a whole kernel's ramps meet), arbitrary incoming deltas and
// match tables of up to 256 symbols.
func TestMyersKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for it := range myersIterations(3000) {
		sigma := []int{2, 4, 26, 256}[it%4]
		rows := dpRandSeq[uint8](r, 1+r.IntN(maxStrips*wordBits), sigma, 0)
		ncols := r.IntN(300)
		if it%3 == 0 {
			ncols = r.IntN(2 * maxStrips) // ramps alone, or ramps and a few steps
		}
		cols := dpRandSeq[uint8](r, ncols, sigma, 0)
		hin := make([]uint8, len(cols))
		for j := range hin {
			hin[j] = uint8(r.IntN(3)) // 0, hPlus or hMinus
		}
		for _, k := range availableKernels() {
			if err := kernelAgrees(k, r.IntN(4), rows, cols, hin, sigma); err != nil {
				t.Fatalf("it %d: %v", it, err)
			}
		}
	}
}

// kernelAgrees runs kernel k over cols from a group loaded with rows and
// compares the deltas out and the state after with advanceSteps', bit for
// bit. The group's width is the pick'th (mod their count) of the widths
// the kernel runs that hold rows in one group; a kernel that rows this
// short do not run is not run (nil).
func kernelAgrees(k myersKernel, pick int, rows, cols, hin []uint8, sigma int) error {
	kw, _ := kernelFor[uint8](k, len(rows))
	if kw != k {
		return nil // rows this short run another kernel
	}
	var fit []int // the widths the kernel runs that hold rows in one group
	for _, w := range kernelWidths(k) {
		if len(rows) <= w*wordBits {
			fit = append(fit, w)
		}
	}
	if len(fit) == 0 {
		return nil // the kernel's groups are shorter: rows is two
	}
	width := fit[pick%len(fit)]
	got, want := newGroup(k, width, sigma), newGroup(k, width, sigma)
	load(got, rows)
	load(want, rows)
	hout := make([]uint8, len(cols))
	advance(got, cols, hin, hout)
	ref := make([]uint8, len(cols))
	var cp, cm [maxStrips]uint64
	strips := width
	if want.strips == 1 || len(cols) < width && k == kernelGo {
		strips = want.strips // advance runs advanceSteps alone (steps); vector kernels run every step
	}
	advanceSteps(want, cols, hin, ref, 0, len(cols)+strips-1, strips, &cp, &cm)
	if got.pv != want.pv || got.mv != want.mv || string(hout) != string(ref) {
		return fmt.Errorf("kernel %s, width %d, %d rows, %d columns, σ %d: state or deltas differ from advanceSteps\ngot  pv %x mv %x\nwant pv %x mv %x",
			k, width, len(rows), len(cols), sigma, got.pv, got.mv, want.pv, want.mv)
	}
	return nil
}

// FuzzMyersKernel is TestMyersKernelsAgree driven by the fuzzer: an
// alphabet of sigma symbols (2 to 256, from sigmaByte), rows (1 to 2,048)
// and columns (0 to 599) of the lengths it gives, drawn from seed, then
// the fuzzer's own bytes over the start of each, and the incoming deltas
// from seed; every kernel this CPU has, at the width pick chooses.
func FuzzMyersKernel(f *testing.F) {
	f.Add(uint8(2), uint8(0), uint64(1), uint16(300), uint16(40), []byte("ACGT"), []byte("TTGA"))
	f.Add(uint8(24), uint8(1), uint64(2), uint16(660), uint16(8), []byte("levenshtein"), []byte("distance"))
	f.Add(uint8(3), uint8(0), uint64(3), uint16(350), uint16(120), []byte("GATTACA"), []byte("CAT"))
	f.Add(uint8(254), uint8(3), uint64(4), uint16(2047), uint16(5), []byte{0, 255, 7}, []byte{255, 1})
	f.Fuzz(func(t *testing.T, sigmaByte, pick uint8, seed uint64, nrows, ncols uint16, rowBytes, colBytes []byte) {
		sigma := 2 + int(sigmaByte)%255
		r := rand.New(rand.NewPCG(seed, uint64(nrows)<<16|uint64(ncols)))
		rows := dpRandSeq[uint8](r, 1+int(nrows)%(maxStrips*wordBits), sigma, 0)
		cols := dpRandSeq[uint8](r, int(ncols)%600, sigma, 0)
		for i := range min(len(rows), len(rowBytes)) {
			rows[i] = uint8(int(rowBytes[i]) % sigma)
		}
		for j := range min(len(cols), len(colBytes)) {
			cols[j] = uint8(int(colBytes[j]) % sigma)
		}
		hin := make([]uint8, len(cols))
		for j := range hin {
			hin[j] = uint8(r.IntN(3)) // 0, hPlus or hMinus
		}
		for _, k := range availableKernels() {
			if err := kernelAgrees(k, int(pick), rows, cols, hin, sigma); err != nil {
				t.Fatal(err)
			}
		}
	})
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
