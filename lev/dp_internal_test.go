package lev

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/levlab/levlab/internal/sysmem"
)

// dpReference is the textbook Wagner–Fischer recurrence over the whole
// matrix, with a branch as written in the reports: the answer every DP
// kernel must match.
func dpReference[S symbol](a, b []S) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				d[i][j] = d[i-1][j-1]
			} else {
				d[i][j] = 1 + min(d[i-1][j-1], d[i-1][j], d[i][j-1])
			}
		}
	}
	return d[len(a)][len(b)]
}

// dpKernel names one of the kernels of this file's algorithms, and whether
// workers and tiles mean anything to it.
type dpKernel struct {
	name     string
	parallel bool
	tiles    bool
	variant  bool // another cell type of a kernel above: fewer option sets
	bytes    kernel[uint8]
	wide     kernel[uint32]
}

var dpKernels = []dpKernel{
	{name: "fullmatrix", bytes: fullMatrix[uint8], wide: fullMatrix[uint32]},
	{name: "tworow", bytes: twoRow[uint8], wide: twoRow[uint32]},
	{name: "diagonal", parallel: true, bytes: diagonal[uint8], wide: diagonal[uint32]},
	{name: "tiled", parallel: true, tiles: true, bytes: tiled[uint8], wide: tiled[uint32]},
	{name: "tiled-barrier", parallel: true, tiles: true, bytes: tiledBarrier[uint8], wide: tiledBarrier[uint32]},
	// The wide-cell instantiations, which only sequences of 2^31 symbols
	// would reach otherwise.
	{name: "fullmatrix/uint32-cells", variant: true, bytes: fullMatrixCells[uint8, uint32], wide: fullMatrixCells[uint32, uint32]},
	{name: "fullmatrix/uint64-cells", variant: true, bytes: fullMatrixCells[uint8, uint64], wide: fullMatrixCells[uint32, uint64]},
	{name: "tworow/int64-cells", variant: true, bytes: twoRowCells[uint8, int64], wide: twoRowCells[uint32, int64]},
	{name: "diagonal/int64-cells", variant: true, parallel: true, bytes: diagonalCells[uint8, int64], wide: diagonalCells[uint32, int64]},
	{name: "tiled/int64-cells", variant: true, parallel: true, tiles: true, bytes: tiledCells[uint8, int64], wide: tiledCells[uint32, int64]},
	{name: "tiled-barrier/int64-cells", variant: true, parallel: true, tiles: true, bytes: tiledBarrierCells[uint8, int64], wide: tiledBarrierCells[uint32, int64]},
}

func dpConfig(workers, tile int) *config {
	return &config{ctx: context.Background(), workers: workers, tile: tile, matrixLimit: 1 << 30}
}

// dpRandSeq returns n symbols drawn uniformly from the first sigma codes,
// offset so that wide symbols use more than the low byte.
func dpRandSeq[S symbol](r *rand.Rand, n, sigma int, offset S) []S {
	s := make([]S, n)
	for i := range s {
		s[i] = S(r.IntN(sigma)) + offset
	}
	return s
}

// dpMutate returns a copy of s with about k random edits, so that pairs
// with small distances (long common runs) are covered as well as random ones.
func dpMutate[S symbol](r *rand.Rand, s []S, k, sigma int) []S {
	out := append([]S(nil), s...)
	for range k {
		pos := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			out = append(out[:pos], append([]S{S(r.IntN(sigma))}, out[pos:]...)...)
		case 1:
			if pos < len(out) {
				out = append(out[:pos], out[pos+1:]...)
			}
		default:
			if pos < len(out) {
				out[pos] = S(r.IntN(sigma))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, s[0])
	}
	return out
}

func dpCheck[S symbol](t *testing.T, k kernel[S], a, b []S, want int, c *config, what string) {
	t.Helper()
	ac, bc := append([]S(nil), a...), append([]S(nil), b...)
	got, err := k(a, b, c)
	if err != nil {
		t.Fatalf("%s: len %d×%d: %v", what, len(a), len(b), err)
	}
	if got != want {
		t.Fatalf("%s: len %d×%d: got %d, want %d\na=%v\nb=%v", what, len(a), len(b), got, want, a, b)
	}
	for i := range a {
		if a[i] != ac[i] {
			t.Fatalf("%s: a changed at %d", what, i)
		}
	}
	for i := range b {
		if b[i] != bc[i] {
			t.Fatalf("%s: b changed at %d", what, i)
		}
	}
}

// dpOptionSets returns the (workers, tile) pairs a kernel is tried with.
func dpOptionSets(k dpKernel) [][2]int {
	if !k.parallel {
		return [][2]int{{1, 0}}
	}
	workers, tiles := []int{1, 2, 3, 8, 64}, []int{1, 2, 3, 7, 64, 0, 100000}
	if k.variant {
		workers, tiles = []int{1, 3}, []int{3, 64}
	}
	var sets [][2]int
	for _, w := range workers {
		if !k.tiles {
			sets = append(sets, [2]int{w, 0})
			continue
		}
		for _, tile := range tiles {
			if w == 64 && tile < 7 {
				continue // slow (a 64-party barrier per cell), and covered by w = 8
			}
			sets = append(sets, [2]int{w, tile})
		}
	}
	return sets
}

func TestDPFixed(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"kitten", "sitting", 3},
		{"sitting", "kitten", 3},
		{"x", "x", 0},
		{"x", "y", 1},
		{"a", "abc", 2},
		{"flaw", "lawn", 2},
		{"intention", "execution", 5},
		{"abc", "abc", 0},
		{strings.Repeat("a", 65), strings.Repeat("a", 64), 1},
		{strings.Repeat("ab", 70), strings.Repeat("ba", 70), 2},
	}
	for _, k := range dpKernels {
		for _, opt := range dpOptionSets(k) {
			for _, tc := range cases {
				got, err := k.bytes([]byte(tc.a), []byte(tc.b), dpConfig(opt[0], opt[1]))
				if err != nil || got != tc.want {
					t.Errorf("%s workers=%d tile=%d: (%q, %q) = %d, %v; want %d", k.name, opt[0], opt[1], tc.a, tc.b, got, err, tc.want)
				}
			}
		}
	}
}

func TestDPRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	type pair[S symbol] struct {
		a, b  []S
		want  int
		sigma int
	}
	r := rand.New(rand.NewPCG(seed, 1))
	perAlphabet := 10
	if testing.Short() {
		perAlphabet = 4
	}
	var bytePairs []pair[uint8]
	var widePairs []pair[uint32]
	for _, sigma := range []int{2, 4, 26, 256} {
		for range perAlphabet {
			la, lb := 1+r.IntN(300), 1+r.IntN(300)
			if r.IntN(4) == 0 {
				lb = 1 + r.IntN(8) // very unequal
			}
			a := dpRandSeq[uint8](r, la, sigma, 0)
			b := dpRandSeq[uint8](r, lb, sigma, 0)
			if r.IntN(3) == 0 {
				b = dpMutate(r, a, r.IntN(10), sigma)
			}
			bytePairs = append(bytePairs, pair[uint8]{a, b, dpReference(a, b), sigma})
			aw := dpRandSeq[uint32](r, la, sigma, 1<<20)
			bw := dpRandSeq[uint32](r, lb, sigma, 1<<20)
			widePairs = append(widePairs, pair[uint32]{aw, bw, dpReference(aw, bw), sigma})
		}
	}
	for _, k := range dpKernels {
		t.Run(k.name, func(t *testing.T) {
			for _, opt := range dpOptionSets(k) {
				c := dpConfig(opt[0], opt[1])
				what := fmt.Sprintf("workers=%d tile=%d", opt[0], opt[1])
				for _, p := range bytePairs {
					dpCheck(t, k.bytes, p.a, p.b, p.want, c, what+fmt.Sprintf(" sigma=%d bytes", p.sigma))
					dpCheck(t, k.bytes, p.b, p.a, p.want, c, what+fmt.Sprintf(" sigma=%d bytes swapped", p.sigma))
				}
				for _, p := range widePairs {
					dpCheck(t, k.wide, p.a, p.b, p.want, c, what+fmt.Sprintf(" sigma=%d wide", p.sigma))
				}
			}
		})
	}
}

// TestDPLong runs a few pairs of some thousand symbols, where the tile and
// slice edges fall inside the sequences many times, including lengths one
// off a multiple of the tile.
func TestDPLong(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	lengths := [][2]int{{2000, 1999}, {1025, 2049}, {5000, 300}, {257, 3000}}
	if testing.Short() {
		lengths = lengths[:1]
	}
	for _, l := range lengths {
		a := dpRandSeq[uint8](r, l[0], 4, 'A')
		b := dpRandSeq[uint8](r, l[1], 4, 'A')
		near := dpMutate(r, a, 40, 4)
		wantFar, wantNear := dpReference(a, b), dpReference(a, near)
		for _, k := range dpKernels[:5] {
			for _, opt := range [][2]int{{1, 0}, {2, 0}, {3, 256}, {4, 63}} {
				if !k.parallel && opt[0] > 1 {
					continue
				}
				what := fmt.Sprintf("%s workers=%d tile=%d", k.name, opt[0], opt[1])
				dpCheck(t, k.bytes, a, b, wantFar, dpConfig(opt[0], opt[1]), what)
				dpCheck(t, k.bytes, a, near, wantNear, dpConfig(opt[0], opt[1]), what+" near")
			}
		}
	}
}

func TestDPTwoRowOrientation(t *testing.T) {
	// The row runs along the shorter sequence, whichever argument it is.
	r := rand.New(rand.NewPCG(3, 5))
	for _, l := range [][2]int{{1, 1000}, {63, 500}, {64, 65}, {200, 200}} {
		a := dpRandSeq[uint8](r, l[0], 4, 0)
		b := dpRandSeq[uint8](r, l[1], 4, 0)
		want := dpReference(a, b)
		dpCheck(t, twoRow[uint8], a, b, want, dpConfig(1, 0), "tworow")
		dpCheck(t, twoRow[uint8], b, a, want, dpConfig(1, 0), "tworow swapped")
	}
}

func TestDPDiagonalSplit(t *testing.T) {
	for _, w := range []int{1, 2, 3, 7, 64} {
		for lo := 1; lo < 40; lo += 13 {
			for end := lo; end < lo+300; end += 7 {
				prev := lo
				for id := 0; id <= w; id++ {
					x := diagonalSplit(lo, end, id, w)
					if x < prev || x > end {
						t.Fatalf("split(%d, %d, %d, %d) = %d after %d", lo, end, id, w, x, prev)
					}
					if id > 0 && id < w && x != lo && x != end && x%diagonalAlign != 0 {
						t.Fatalf("split(%d, %d, %d, %d) = %d is not aligned", lo, end, id, w, x)
					}
					prev = x
				}
				if prev != end {
					t.Fatalf("splits of [%d, %d) by %d end at %d", lo, end, w, prev)
				}
			}
		}
	}
}

func TestDPMatrixLimit(t *testing.T) {
	a := make([]byte, 1000)
	b := make([]byte, 2000)
	c := dpConfig(1, 0)
	c.matrixLimit = 1000 * 2000 // less than 1001×2001 uint16 cells
	_, err := fullMatrix(a, b, c)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: err = %v, want ErrTooLarge", err)
	}
	for _, want := range []string{"1001×2001", "3.8 MiB", "1.9 MiB", "WithMatrixLimit", "tworow"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	c.matrixLimit = 1001 * 2001 * 2
	if d, err := fullMatrix(a, b, c); err != nil || d != 1000 {
		t.Fatalf("at the limit: %d, %v", d, err)
	}

	// Sizes whose products overflow: refused, never allocated.
	for _, mn := range [][2]int{{math.MaxInt, math.MaxInt}, {math.MaxInt, 2}, {1 << 33, 1 << 31}} {
		_, err := matrixCells(mn[0], mn[1], 8, math.MaxInt64)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("matrixCells(%d, %d): err = %v", mn[0], mn[1], err)
		}
	}
	if n, err := matrixCells(50000, 50000, 2, 4<<30); err == nil {
		t.Errorf("50001² uint16 cells fit in 4 GiB: %d", n)
	} else if !strings.Contains(err.Error(), "4.7 GiB") || !strings.Contains(err.Error(), "4.0 GiB") {
		t.Errorf("error %q does not give the sizes", err)
	}
}

// TestDPCancel cancels runs midway and checks that each kernel returns
// promptly with an error wrapping context.Canceled and leaves no goroutine.
func TestDPCancel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	a := dpRandSeq[uint8](r, 20000, 4, 0)
	b := dpRandSeq[uint8](r, 20000, 4, 0)
	for _, k := range dpKernels[:5] {
		for _, w := range []int{1, 2, 8} {
			if !k.parallel && w > 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/workers=%d", k.name, w), func(t *testing.T) {
				before := runtime.NumGoroutine()
				ctx, cancel := context.WithCancel(context.Background())
				c := dpConfig(w, 64)
				c.ctx = ctx
				type result struct {
					d   int
					err error
				}
				done := make(chan result, 1)
				a, b := a, b
				if k.name == "fullmatrix" {
					b = b[:4000] // 160 MB of matrix, not 800
				}
				go func() {
					d, err := k.bytes(a, b, c)
					done <- result{d, err}
				}()
				time.Sleep(20 * time.Millisecond)
				cancel()
				start := time.Now()
				var res result
				select {
				case res = <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("no return 10s after cancel")
				}
				if wait := time.Since(start); wait > time.Second {
					t.Errorf("returned %v after cancel", wait)
				}
				if !errors.Is(res.err, context.Canceled) {
					t.Fatalf("err = %v (d = %d), want context.Canceled", res.err, res.d)
				}
				dpWaitGoroutines(t, before)
			})
		}
	}
}

// dpCountdown is a context that becomes canceled at the n-th look at its
// Done channel: it cancels a run at a point fixed by the run itself, not by
// the clock.
type dpCountdown struct {
	context.Context
	left atomic.Int64
	once sync.Once
	done chan struct{}
}

func newDPCountdown(n int64) *dpCountdown {
	c := &dpCountdown{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *dpCountdown) Done() <-chan struct{} {
	if c.left.Add(-1) <= 0 {
		c.once.Do(func() { close(c.done) })
	}
	return c.done
}

func (c *dpCountdown) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func TestDPCanceledMidway(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	a := dpRandSeq[uint8](r, 3000, 4, 0)
	b := dpRandSeq[uint8](r, 2500, 4, 0)
	for _, k := range dpKernels[:5] {
		for _, w := range []int{1, 2, 5} {
			if !k.parallel && w > 1 {
				continue
			}
			before := runtime.NumGoroutine()
			c := dpConfig(w, 50)
			c.ctx = newDPCountdown(4)
			if d, err := k.bytes(a, b, c); !errors.Is(err, context.Canceled) {
				t.Errorf("%s workers=%d: %d, %v; want context.Canceled", k.name, w, d, err)
			}
			dpWaitGoroutines(t, before)
		}
	}
}

func TestDPCanceledBefore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := make([]byte, 3000)
	b := make([]byte, 3000)
	b[0] = 1
	for _, k := range dpKernels[:5] {
		for _, w := range []int{1, 3} {
			c := dpConfig(w, 0)
			c.ctx = ctx
			before := runtime.NumGoroutine()
			if _, err := k.bytes(a, b, c); !errors.Is(err, context.Canceled) {
				t.Errorf("%s workers=%d: err = %v, want context.Canceled", k.name, w, err)
			}
			dpWaitGoroutines(t, before)
		}
	}
}

// dpWaitGoroutines fails unless the goroutine count comes back to before.
// The kernels join their goroutines before returning, but the runtime may
// take a moment to retire the test's own helper goroutines.
func dpWaitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

func TestBarrierPhases(t *testing.T) {
	for _, n := range []int{1, 2, 3, runtime.GOMAXPROCS(0) + 5, 64} {
		b := newBarrier(n)
		const phases = 300
		var arrived [phases]atomic.Int32
		var wg sync.WaitGroup
		var bad atomic.Int32
		for id := range n {
			wg.Go(func() {
				for p := range phases {
					arrived[p].Add(1)
					if !b.wait() {
						bad.Add(1)
						return
					}
					// Past the barrier of phase p, every party has
					// arrived at it.
					if got := arrived[p].Load(); got != int32(n) {
						bad.Add(1)
					}
					if id == 0 && p%50 == 0 {
						runtime.Gosched()
					}
				}
			})
		}
		wg.Wait()
		if bad.Load() != 0 {
			t.Fatalf("n=%d: %d parties passed a barrier early", n, bad.Load())
		}
	}
}

func TestBarrierAbort(t *testing.T) {
	for _, n := range []int{2, 5, 64} {
		b := newBarrier(n)
		var wg sync.WaitGroup
		var released atomic.Int32
		for range n - 1 {
			wg.Go(func() {
				if !b.wait() {
					released.Add(1)
				}
			})
		}
		time.Sleep(10 * time.Millisecond)
		b.abort()
		wg.Wait()
		if released.Load() != int32(n-1) {
			t.Fatalf("n=%d: %d of %d waiters saw the abort", n, released.Load(), n-1)
		}
		if b.wait() {
			t.Fatal("wait after abort reported true")
		}
	}
}

// BenchmarkDPKernels measures the DP kernels on random ACGT sequences; run
// it with a small -benchtime (e.g. 3x): a 30k×30k run takes about a second.
func BenchmarkDPKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{10000, 30000} {
		x := dpRandSeq[uint8](r, n, 4, 'A')
		y := dpRandSeq[uint8](r, n, 4, 'A')
		for _, k := range dpKernels[1:5] {
			for _, w := range []int{1, 2} {
				if !k.parallel && w > 1 {
					continue
				}
				tiles := []int{0}
				if k.tiles && n == 30000 {
					tiles = []int{128, 256, 512, 1024}
				}
				for _, tile := range tiles {
					name := fmt.Sprintf("alg=%s/n=%d/workers=%d", k.name, n, w)
					if k.tiles {
						name += fmt.Sprintf("/tile=%d", tile)
					}
					b.Run(name, func(b *testing.B) {
						b.ReportAllocs()
						c := dpConfig(w, tile)
						for b.Loop() {
							if _, err := k.bytes(x, y, c); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
					})
				}
			}
		}
	}
}

func TestFitsCeiling(t *testing.T) {
	bound := func(b sysmem.Bound) func() sysmem.Bound { return func() sysmem.Bound { return b } }
	const gib = 1 << 30
	if err := fitsCeiling(40000, 40000, 3200080002, bound(sysmem.Bound{Bytes: sysmem.Unlimited})); err != nil {
		t.Errorf("no limit: %v", err)
	}
	if err := fitsCeiling(40000, 40000, 3200080002, bound(sysmem.Bound{Bytes: 8 * gib, By: "ulimit -v"})); err != nil {
		t.Errorf("8 GiB left: %v", err)
	}
	err := fitsCeiling(40000, 40000, 3200080002, bound(sysmem.Bound{Bytes: 2 * gib, By: "ulimit -v"}))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("2 GiB left for 3.2 GB: %v, want ErrTooLarge", err)
	}
	for _, want := range []string{"40001×40001", "3.0 GiB", "ulimit -v", "2.0 GiB", "tworow"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Small matrices are not checked: the limits are not even read.
	if err := fitsCeiling(100, 100, 20402, func() sysmem.Bound { panic("read") }); err != nil {
		t.Errorf("a small matrix: %v", err)
	}
}
