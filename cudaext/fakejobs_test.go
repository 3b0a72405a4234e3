//go:build cgo

package cudaext

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// useFake makes the jobs run on a stand-in driver built with mode (see
// fakeDriver), whose kernels are C stand-ins run on the host: the entry
// points' allocations, copies, launch arguments, rotations, read-backs and
// clean-up are checked without a GPU. The image loaded is not a CUBIN:
// the stand-in ignores it.
func useFake(t *testing.T, mode string) *driver {
	t.Helper()
	d, err := probe(buildFake(t, mode))
	if err != nil {
		t.Fatal(err)
	}
	info, err := d.device(0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := loadModule(d, info, []byte("not a cubin"))
	if err != nil {
		t.Fatal(err)
	}
	kernelModule = func() (*module, error) { return m, nil }
	t.Cleanup(func() { kernelModule = loaded })
	return d
}

// checkClean fails t when a job left device memory, events or a current
// context behind.
func checkClean(t *testing.T, d *driver, what string) {
	t.Helper()
	if n := d.callInt("fake_live"); n != 0 {
		t.Errorf("%s: %d device buffers or events not freed", what, n)
	}
	if d.callInt("fake_current") != 0 {
		t.Errorf("%s: a context is still current", what)
	}
}

func TestFakeJobs(t *testing.T) {
	d := useFake(t, "OK")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 2, 5, 31, 64, 65, 300, 1025, 2100} {
		a := randomSymbols(rng, n, 4)
		b := randomSymbols(rng, max(1, n-rng.IntN(5)), 4)
		want := refDistance(a, b)
		before := d.callInt("fake_launches")
		got, tm, err := Diagonal(ctx, a, b, 64)
		if err != nil || got != want {
			t.Fatalf("diagonal %d×%d: %d, %v; want %d", len(a), len(b), got, err, want)
		}
		if launches := d.callInt("fake_launches") - before; tm.Launches != int64(len(a)+len(b)+1) || launches != len(a)+len(b)+1 {
			t.Errorf("diagonal %d×%d: timing says %d launches, the driver saw %d; want m+n+1", len(a), len(b), tm.Launches, launches)
		}
		if tm.CopyInSeconds != 0.25e-3 || tm.ComputeSeconds != 0.25e-3 || tm.CopyOutSeconds != 0.25e-3 || tm.DeviceBytes == 0 {
			t.Errorf("diagonal timing %+v: want the stand-in's 0.25 ms per interval and the bytes", tm)
		}
		checkClean(t, d, "diagonal")
		if got, tm, err = Matrix(ctx, a, b, 32); err != nil || got != want {
			t.Fatalf("matrix %d×%d: %d, %v; want %d", len(a), len(b), got, err, want)
		}
		if wantBytes := int64(len(a)+1) * int64(len(b)+1) * 4; tm.DeviceBytes < wantBytes {
			t.Errorf("matrix %d×%d: %d device bytes, want at least the matrix's %d", len(a), len(b), tm.DeviceBytes, wantBytes)
		}
		checkClean(t, d, "matrix")
		for _, o := range []FastOptions{{}, {Block: 32, Chunk: 1}} {
			if got, tm, err = Fast(ctx, a, b, o); err != nil || got != want || tm.Launches != 1 {
				t.Fatalf("fast %+v %d×%d: %d, %v, %d launches; want %d, one launch", o, len(a), len(b), got, err, tm.Launches, want)
			}
		}
		checkClean(t, d, "fast")
	}
	wa, wb := []uint32{1 << 20, 5, 1 << 30, 5, 9}, []uint32{5, 1 << 20, 9}
	for name, f := range map[string]func() (int, Timing, error){
		"diagonal": func() (int, Timing, error) { return Diagonal(ctx, wa, wb, 0) },
		"matrix":   func() (int, Timing, error) { return Matrix(ctx, wa, wb, 0) },
		"fast":     func() (int, Timing, error) { return Fast(ctx, wa, wb, FastOptions{}) },
	} {
		if got, _, err := f(); err != nil || got != refDistance(wa, wb) {
			t.Errorf("%s on 32-bit symbols: %d, %v; want %d", name, got, err, refDistance(wa, wb))
		}
	}
	checkClean(t, d, "32-bit symbols")
}

func TestFakeBatchAndWindows(t *testing.T) {
	d := useFake(t, "OK")
	rng := rand.New(rand.NewPCG(23, 24))
	var as, bs [][]byte
	for range 40 {
		as = append(as, randomSymbols(rng, rng.IntN(1500), 4))
		bs = append(bs, randomSymbols(rng, rng.IntN(300), 4))
	}
	got, _, err := Batch(context.Background(), as, bs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range as {
		if want := refDistance(as[i], bs[i]); got[i] != want {
			t.Fatalf("pair %d (%d×%d): %d, want %d", i, len(as[i]), len(bs[i]), got[i], want)
		}
	}
	checkClean(t, d, "batch")
	text := randomSymbols(rng, 700, 4)
	for _, m := range []int{1, 22, 64, 65, 130} {
		p := randomSymbols(rng, m, 4)
		for _, r := range [][2]int{{0, len(text)}, {10, 400}, {650, len(text)}, {5, 5}} {
			got, err := CountWindows(text, p, 2, r[0], r[1])
			if want := refWindows(text, p, 2, r[0], r[1]); err != nil || got != want {
				t.Errorf("m=%d [%d,%d): %d, %v; want %d", m, r[0], r[1], got, err, want)
			}
		}
	}
	checkClean(t, d, "windows")
}

func TestFakeJobFailures(t *testing.T) {
	ctx := context.Background()
	a, b := []byte("kitten"), []byte("sitting")
	d := useFake(t, "LAUNCH_FAILS")
	for name, f := range map[string]func() error{
		"diagonal": func() error { _, _, err := Diagonal(ctx, a, b, 0); return err },
		"matrix":   func() error { _, _, err := Matrix(ctx, a, b, 0); return err },
		"fast":     func() error { _, _, err := Fast(ctx, a, b, FastOptions{}); return err },
		"batch":    func() error { _, _, err := Batch(ctx, [][]byte{a}, [][]byte{b}); return err },
		"windows":  func() error { _, err := CountWindows(a, b, 1, 0, len(a)); return err },
		"pairs": func() error {
			_, err := Pairs(ctx, [][]byte{a, b}, nil, false, func(int, []int32) error { return nil })
			return err
		},
	} {
		err := f()
		var e *Error
		if !errors.As(err, &e) || e.Op != "cuLaunchKernel" || e.Name != "CUDA_ERROR_LAUNCH_FAILED" {
			t.Errorf("%s with failing launches: %v; want cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED", name, err)
		}
		checkClean(t, d, name+" after a failed launch")
	}
	d = useFake(t, "ALLOC_FAILS")
	if _, _, err := Fast(ctx, a, b, FastOptions{}); err == nil || !strings.Contains(err.Error(), "cuMemAlloc_v2") {
		t.Errorf("fast with failing allocations: %v", err)
	}
	checkClean(t, d, "fast after a failed allocation")
	if _, err := Pairs(ctx, [][]byte{a, b}, nil, true, func(int, []int32) error { return nil }); err == nil || !strings.Contains(err.Error(), "cuMemAlloc_v2") {
		t.Errorf("pairs with failing allocations: %v", err)
	}
	checkClean(t, d, "pairs after a failed allocation")
}

func TestFakePairs(t *testing.T) {
	d := useFake(t, "OK")
	rng := rand.New(rand.NewPCG(25, 26))
	ctx := context.Background()
	for _, pc := range pairsCases(rng, 12, 1500) {
		before := d.callInt("fake_launches")
		var tm Timing
		pc.check(t, func(fn func(int, []int32) error) error {
			var err error
			tm, err = Pairs(ctx, pc.a, pc.b, pc.tri, fn)
			return err
		}, 0)
		if launches := d.callInt("fake_launches") - before; tm.Launches != 1 || launches != 1 || tm.ComputeSeconds != 0.25e-3 {
			t.Errorf("%s: timing %+v, the driver saw %d launches; want one tile, one launch, the stand-in's 0.25 ms", pc.name, tm, launches)
		}
		checkClean(t, d, pc.name)
	}
	// Many tiles: more than TilePairs pairs.
	set := make([][]byte, 1100)
	for i := range set {
		set[i] = randomSymbols(rng, 1+rng.IntN(3), 2)
	}
	tiles := 0
	tm, err := Pairs(ctx, set, nil, true, func(first int, d []int32) error {
		tiles++
		for q, got := range d {
			i, j := first+q/len(set), q%len(set)
			if j > i && int(got) != refDistance(set[i], set[j]) {
				return fmt.Errorf("pair %d, %d: %d, want %d", i, j, got, refDistance(set[i], set[j]))
			}
		}
		return nil
	})
	if want := (len(set) + tileRows(len(set), len(set)) - 1) / tileRows(len(set), len(set)); err != nil || tiles != want || tm.Launches != int64(want) {
		t.Errorf("1100 strings: %v, %d tiles, %d launches; want %d of each", err, tiles, tm.Launches, want)
	}
	checkClean(t, d, "many tiles")
	// The callback's error, and its panic, free the job.
	stop := errors.New("stop")
	if _, err := Pairs(ctx, set, nil, true, func(int, []int32) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error: %v", err)
	}
	checkClean(t, d, "callback error")
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("callback panic: recovered %v, want boom", r)
			}
		}()
		Pairs(ctx, set, nil, true, func(int, []int32) error { panic("boom") })
	}()
	checkClean(t, d, "callback panic")
	wa := [][]uint32{{1 << 20, 5, 1 << 30, 5, 9}, {5, 1 << 20, 9}, nil}
	wide := pairsCase[uint32]{name: "32-bit symbols", a: wa}
	wide.check(t, func(fn func(int, []int32) error) error { _, err := Pairs(ctx, wa, nil, false, fn); return err }, 0)
	checkClean(t, d, "32-bit symbols")
}
