//go:build cgo

package cudaext

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The tests below run the kernels on the GPU; they skip where there is none
// (fail under LEVLAB_REQUIRE_GPU=1). lev's conformance suite runs them
// again through lev.Distance.

func gpuPairs(rng *rand.Rand) [][2][]byte {
	var pairs [][2][]byte
	for _, n := range []int{1, 2, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 2047, 2049, 3000} {
		for _, sigma := range []int{2, 4, 256} {
			a := randomSymbols(rng, n, sigma)
			b := randomSymbols(rng, max(1, n+rng.IntN(41)-20), sigma)
			pairs = append(pairs, [2][]byte{a, b}, [2][]byte{b, a})
		}
	}
	return pairs
}

func TestGPUKernels(t *testing.T) {
	requireGPU(t)
	if err := Ready(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	pairs := gpuPairs(rng)
	kernels := map[string]func(a, b []byte) (int, error){
		"diagonal/128":  func(a, b []byte) (int, error) { d, _, err := Diagonal(ctx, a, b, 128); return d, err },
		"diagonal/1024": func(a, b []byte) (int, error) { d, _, err := Diagonal(ctx, a, b, 1024); return d, err },
		"matrix/256":    func(a, b []byte) (int, error) { d, _, err := Matrix(ctx, a, b, 256); return d, err },
		"fast":          func(a, b []byte) (int, error) { d, _, err := Fast(ctx, a, b, FastOptions{}); return d, err },
		"fast/32/1": func(a, b []byte) (int, error) {
			d, _, err := Fast(ctx, a, b, FastOptions{Block: 32, Chunk: 1})
			return d, err
		},
		"fast/1024/7": func(a, b []byte) (int, error) {
			d, _, err := Fast(ctx, a, b, FastOptions{Block: 1024, Chunk: 7})
			return d, err
		},
	}
	for name, k := range kernels {
		t.Run(name, func(t *testing.T) {
			for _, p := range pairs {
				got, err := k(p[0], p[1])
				if err != nil {
					t.Fatalf("%d×%d: %v", len(p[0]), len(p[1]), err)
				}
				if want := refDistance(p[0], p[1]); got != want {
					t.Fatalf("%d×%d: got %d, want %d", len(p[0]), len(p[1]), got, want)
				}
			}
		})
	}
	wa, wb := []uint32{1 << 20, 5, 1 << 30, 5, 9}, []uint32{5, 1 << 20, 9}
	for name, f := range map[string]func() (int, Timing, error){
		"diagonal": func() (int, Timing, error) { return Diagonal(ctx, wa, wb, 0) },
		"matrix":   func() (int, Timing, error) { return Matrix(ctx, wa, wb, 0) },
		"fast":     func() (int, Timing, error) { return Fast(ctx, wa, wb, FastOptions{}) },
	} {
		if d, _, err := f(); err != nil || d != refDistance(wa, wb) {
			t.Errorf("%s on 32-bit symbols: %d, %v; want %d", name, d, err, refDistance(wa, wb))
		}
	}
}

func TestGPUTiming(t *testing.T) {
	requireGPU(t)
	a, b := randomSymbols(rand.New(rand.NewPCG(7, 8)), 5000, 4), randomSymbols(rand.New(rand.NewPCG(9, 10)), 4000, 4)
	_, tm, err := Diagonal(context.Background(), a, b, 256)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Launches != 9001 || tm.ComputeSeconds <= 0 || tm.CopyInSeconds <= 0 || tm.Threads != 256 {
		t.Errorf("diagonal timing %+v: want 9001 launches, 256 threads and positive times", tm)
	}
	t.Logf("cuda-diagonal 5000×4000: %.1f µs per launch, %+v", tm.PerLaunch()*1e6, tm)
	_, tm, err = Fast(context.Background(), a, b, FastOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tm.Launches != 1 || tm.ComputeSeconds <= 0 {
		t.Errorf("fast timing %+v: want one launch and a positive time", tm)
	}
}

func TestGPUBatch(t *testing.T) {
	requireGPU(t)
	rng := rand.New(rand.NewPCG(11, 12))
	var as, bs [][]byte
	for i := range 500 {
		n := 1 + rng.IntN(100)
		if i%50 == 0 {
			n = 1000 + rng.IntN(3000)
		}
		as = append(as, randomSymbols(rng, n, 4))
		bs = append(bs, randomSymbols(rng, rng.IntN(2*n), 4))
	}
	as = append(as, nil, []byte("x"))
	bs = append(bs, []byte("abc"), nil)
	got, _, err := Batch(context.Background(), as, bs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range as {
		if want := refDistance(as[i], bs[i]); got[i] != want {
			t.Fatalf("pair %d (%d×%d): got %d, want %d", i, len(as[i]), len(bs[i]), got[i], want)
		}
	}
	if _, _, err := Batch(context.Background(), as, bs[1:]); err == nil {
		t.Error("batch of unequal lists: no error")
	}
}

// TestGPUPairs runs the many-pairs kernel on sets of mixed lengths, some
// of several bands (over 1024 symbols), empty strings among them: one set,
// its pairs i < j and two sets, against the reference; then 2,000 strings
// of DNA in several tiles, against the single-pair kernel.
func TestGPUPairs(t *testing.T) {
	requireGPU(t)
	rng := rand.New(rand.NewPCG(15, 16))
	ctx := context.Background()
	for _, pc := range pairsCases(rng, 40, 2500) {
		pc.check(t, func(fn func(int, []int32) error) error {
			_, err := Pairs(ctx, pc.a, pc.b, pc.tri, fn)
			return err
		}, 0)
	}
	set := make([][]byte, 2000)
	for i := range set {
		set[i] = randomSymbols(rng, 500+rng.IntN(501), 4)
	}
	var tiles int
	tm, err := Pairs(ctx, set, nil, true, func(first int, d []int32) error {
		tiles++
		// A sample of each tile: every 997th pair.
		for q := 0; q < len(d); q += 997 {
			i, j := first+q/len(set), q%len(set)
			if j <= i {
				continue
			}
			if want := refDistance(set[i], set[j]); int(d[q]) != want {
				return fmt.Errorf("pair %d, %d: %d, want %d", i, j, d[q], want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cells := 0.0
	for i := range set {
		for j := i + 1; j < len(set); j++ {
			cells += float64(len(set[i])) * float64(len(set[j]))
		}
	}
	t.Logf("2,000 DNA strings of 500–1000 bp, pairs i<j: %d tiles, %d blocks × %d threads, copy in %.3f ms, compute %.3f ms, copy out %.3f ms: %.2f TCUPS in the kernel",
		tiles, tm.Blocks, tm.Threads, tm.CopyInSeconds*1e3, tm.ComputeSeconds*1e3, tm.CopyOutSeconds*1e3, cells/tm.ComputeSeconds/1e12)
}

// refWindows counts report 003's window matches with the plain DP.
func refWindows(text, p []byte, k, from, to int) int64 {
	var n int64
	for j := from; j < to; j++ {
		size := min(len(p), len(text)-j)
		if refDistance(p[:size], text[j:j+size]) <= k {
			n++
		}
	}
	return n
}

func TestGPUCountWindows(t *testing.T) {
	requireGPU(t)
	rng := rand.New(rand.NewPCG(13, 14))
	text := randomSymbols(rng, 5000, 4)
	for _, m := range []int{1, 22, 63, 64, 65, 200} {
		p := randomSymbols(rng, m, 4)
		for _, k := range []int{0, 2, m / 3, m} {
			for _, r := range [][2]int{{0, len(text)}, {100, 2000}, {len(text) - 50, len(text)}} {
				got, err := CountWindows(text, p, k, r[0], r[1])
				if err != nil {
					t.Fatal(err)
				}
				if want := refWindows(text, p, k, r[0], r[1]); got != want {
					t.Errorf("m=%d k=%d [%d,%d): got %d, want %d", m, k, r[0], r[1], got, want)
				}
			}
		}
	}
}

func TestGPUCancel(t *testing.T) {
	requireGPU(t)
	rng := rand.New(rand.NewPCG(15, 16))
	a, b := randomSymbols(rng, 300_000, 4), randomSymbols(rng, 300_000, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := Diagonal(ctx, a, b, 256)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want one wrapping context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("returned after %v", d)
	}
	done, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	for name, f := range map[string]func() error{
		"diagonal": func() error { _, _, err := Diagonal(done, a[:10], b[:10], 0); return err },
		"matrix":   func() error { _, _, err := Matrix(done, a[:10], b[:10], 0); return err },
		"fast":     func() error { _, _, err := Fast(done, a[:10], b[:10], FastOptions{}); return err },
	} {
		if err := f(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context: %v", name, err)
		}
	}
}

// TestBadLaunchShapes needs no GPU: shapes are checked first.
func TestBadLaunchShapes(t *testing.T) {
	ctx := context.Background()
	a := []byte("ab")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"fast block 48", second(Fast(ctx, a, a, FastOptions{Block: 48})), "48"},
		{"fast chunk", second(Fast(ctx, a, a, FastOptions{Chunk: -1})), "-1"},
		{"diagonal block", second(Diagonal(ctx, a, a, 2000)), "2000"},
		{"matrix block", second(Matrix(ctx, a, a, -3)), "-3"},
	} {
		if tc.err == nil || errors.Is(tc.err, ErrUnavailable) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error naming %s", tc.name, tc.err, tc.want)
		}
	}
}

func second[A, B any](_ A, _ B, err error) error { return err }
