package lev_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

func TestParseAlgorithmUnknown(t *testing.T) {
	for _, name := range []string{"", "bogus", "Myers", "myers ", "cuda"} {
		_, err := lev.ParseAlgorithm(name)
		if !errors.Is(err, lev.ErrInvalidOption) {
			t.Errorf("ParseAlgorithm(%q): %v, want an error wrapping lev.ErrInvalidOption", name, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, strconv.Quote(name)) {
			t.Errorf("ParseAlgorithm(%q): error %q does not name the value", name, msg)
		}
		for _, alg := range lev.Algorithms() {
			if !strings.Contains(msg, alg.String()) {
				t.Errorf("ParseAlgorithm(%q): error %q does not list the valid name %q", name, msg, alg)
			}
		}
		var a lev.Algorithm = lev.Myers
		if err := a.UnmarshalText([]byte(name)); !errors.Is(err, lev.ErrInvalidOption) || a != lev.Myers {
			t.Errorf("UnmarshalText(%q) = %v and set %v, want an error wrapping lev.ErrInvalidOption and no change", name, err, a)
		}
	}
}

// TestAlgorithmNames checks that the names are unique and stable through
// String, ParseAlgorithm, MarshalText, UnmarshalText and JSON.
func TestAlgorithmNames(t *testing.T) {
	all := lev.Algorithms()
	if len(all) == 0 || all[0] != lev.Auto {
		t.Fatalf("Algorithms() = %v, want Auto first", all)
	}
	seen := map[string]lev.Algorithm{}
	for _, alg := range all {
		name := alg.String()
		if prev, ok := seen[name]; ok {
			t.Errorf("%d and %d are both named %q", prev, alg, name)
		}
		seen[name] = alg
		if got, err := lev.ParseAlgorithm(name); err != nil || got != alg {
			t.Errorf("ParseAlgorithm(%q) = %v, %v, want %v", name, got, err, alg)
		}
		text, err := alg.MarshalText()
		if err != nil || string(text) != name {
			t.Errorf("%v.MarshalText() = %q, %v, want %q", alg, text, err, name)
		}
		var back lev.Algorithm
		if err := back.UnmarshalText(text); err != nil || back != alg {
			t.Errorf("UnmarshalText(%q) = %v, set %v, want %v", text, err, back, alg)
		}
		type record struct{ Algorithm lev.Algorithm }
		js, err := json.Marshal(record{alg})
		if want := fmt.Sprintf(`{"Algorithm":%q}`, name); err != nil || string(js) != want {
			t.Errorf("json.Marshal(%v) = %s, %v, want %s", alg, js, err, want)
		}
		var r record
		if err := json.Unmarshal(js, &r); err != nil || r.Algorithm != alg {
			t.Errorf("json.Unmarshal(%s) = %v, %v, want %v", js, r.Algorithm, err, alg)
		}
	}
	if lev.Auto.GPU() || lev.Myers.Parallel() || !lev.MyersParallel.Parallel() || !lev.CUDAFast.GPU() {
		t.Errorf("Parallel/GPU are wrong for Auto, Myers, MyersParallel or CUDAFast")
	}
}

func TestAlgorithmOutOfRange(t *testing.T) {
	bad := lev.Algorithm(200)
	if got := bad.String(); !strings.Contains(got, "200") {
		t.Errorf("Algorithm(200).String() = %q, want it to name 200", got)
	}
	if bad.Parallel() || bad.GPU() {
		t.Errorf("Algorithm(200) claims to be parallel or GPU")
	}
	if text, err := bad.MarshalText(); !errors.Is(err, lev.ErrInvalidOption) || !strings.Contains(fmt.Sprint(err), "200") {
		t.Errorf("Algorithm(200).MarshalText() = %q, %v, want an error wrapping lev.ErrInvalidOption naming 200", text, err)
	}
	for _, in := range [][2]string{{"", ""}, {"kitten", "sitting"}} {
		_, err := lev.Distance([]byte(in[0]), []byte(in[1]), lev.WithAlgorithm(bad))
		wantOptionError(t, "WithAlgorithm(Algorithm(200))", err, "algorithm", "200")
		if err != nil && !strings.Contains(err.Error(), lev.MyersParallel.String()) {
			t.Errorf("WithAlgorithm(Algorithm(200)): error %q does not list the valid names", err)
		}
		_, err = lev.DistanceString(in[0], in[1], lev.WithAlgorithm(bad))
		wantOptionError(t, "WithAlgorithm(Algorithm(200)) in DistanceString", err, "algorithm", "200")
	}
}

// wantOptionError checks that err wraps lev.ErrInvalidOption and that its
// message names the option and the value, case aside.
func wantOptionError(t *testing.T, what string, err error, option, value string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: no error, want one wrapping lev.ErrInvalidOption", what)
	case !errors.Is(err, lev.ErrInvalidOption):
		t.Errorf("%s: %v, want an error wrapping lev.ErrInvalidOption", what, err)
	case !strings.Contains(strings.ToLower(err.Error()), option):
		t.Errorf("%s: error %q does not name the option (%q)", what, err, option)
	case !strings.Contains(err.Error(), value):
		t.Errorf("%s: error %q does not name the value %s", what, err, value)
	}
}

func TestBadOptions(t *testing.T) {
	var nilCtx context.Context // a nil context, as a caller might pass one
	cases := []struct {
		what          string
		opt           lev.Option
		option, value string
	}{
		{"WithWorkers(-1)", lev.WithWorkers(-1), "workers", "-1"},
		{"WithWorkers(4097)", lev.WithWorkers(lev.MaxWorkers + 1), "workers", "4097"},
		{"WithWorkers(MinInt)", lev.WithWorkers(-1 << 62), "workers", strconv.Itoa(-1 << 62)},
		{"WithTile(0)", lev.WithTile(0), "tile", "0"},
		{"WithTile(-5)", lev.WithTile(-5), "tile", "-5"},
		{"WithBlockSize(0)", lev.WithBlockSize(0), "block", "0"},
		{"WithBlockSize(2000)", lev.WithBlockSize(2000), "block", "2000"},
		{"WithBlockSize(-1)", lev.WithBlockSize(-1), "block", "-1"},
		{"WithMatrixLimit(0)", lev.WithMatrixLimit(0), "limit", "0"},
		{"WithMatrixLimit(-1)", lev.WithMatrixLimit(-1), "limit", "-1"},
		{"WithContext(nil)", lev.WithContext(nilCtx), "context", "nil"},
	}
	// Every algorithm refuses a bad option, whether or not it uses it, and
	// before any work: on empty inputs too, and before a GPU is looked for.
	for _, alg := range lev.Algorithms() {
		for _, tc := range cases {
			for _, in := range [][2]string{{"", ""}, {"kitten", "sitting"}} {
				what := fmt.Sprintf("%s: %s on (%q, %q)", alg, tc.what, in[0], in[1])
				_, err := lev.Distance([]byte(in[0]), []byte(in[1]), lev.WithAlgorithm(alg), tc.opt)
				wantOptionError(t, what, err, tc.option, tc.value)
				_, err = lev.DistanceString(in[0], in[1], tc.opt, lev.WithAlgorithm(alg))
				wantOptionError(t, what+" in DistanceString", err, tc.option, tc.value)
			}
		}
	}
}

func TestBoundaryOptionsAccepted(t *testing.T) {
	a, b := []byte("kitten on a mat"), []byte("sitting on a hat")
	want := levtest.Reference(a, b)
	for _, alg := range lev.Algorithms() {
		if alg.GPU() {
			continue
		}
		opts := [][]lev.Option{
			{lev.WithWorkers(0)},
			{lev.WithWorkers(1)},
			{lev.WithTile(1)},
			{lev.WithBlockSize(1)},
			{lev.WithBlockSize(lev.MaxBlockSize)},
			{lev.WithMatrixLimit(1 << 40)},
			{lev.WithContext(context.Background())},
			{nil}, // a nil Option is ignored
		}
		if alg.Parallel() {
			// More workers than cells.
			opts = append(opts, []lev.Option{lev.WithWorkers(lev.MaxWorkers)}, []lev.Option{lev.WithWorkers(lev.MaxWorkers), lev.WithTile(1)})
		}
		for i, o := range opts {
			d, err := lev.Distance(a, b, append([]lev.Option{lev.WithAlgorithm(alg)}, o...)...)
			if err != nil || d != want {
				t.Errorf("%s, option set %d: Distance = %d, %v, want %d", alg, i, d, err, want)
			}
		}
	}
}

func TestSequentialRefusesWorkers(t *testing.T) {
	for _, alg := range lev.Algorithms() {
		if alg.Parallel() {
			continue
		}
		for _, w := range []int{2, lev.MaxWorkers} {
			_, err := lev.Distance([]byte("ab"), []byte("ba"), lev.WithAlgorithm(alg), lev.WithWorkers(w))
			wantOptionError(t, fmt.Sprintf("%s with workers=%d", alg, w), err, "workers", strconv.Itoa(w))
			if err != nil && !strings.Contains(err.Error(), alg.String()) {
				t.Errorf("%s with workers=%d: error %q does not name the algorithm", alg, w, err)
			}
		}
	}
}

// TestMatrixLimit checks that fullmatrix refuses a matrix over its limit with
// an error that says the size and how to raise the limit, without allocating
// it, and computes the same problem once the limit allows.
func TestMatrixLimit(t *testing.T) {
	rng := levtest.NewRand(t)
	a, b := levtest.RandomBytes(rng, 3000, levtest.DNA), levtest.RandomBytes(rng, 3000, levtest.DNA)
	const limit = 1 << 20 // a 3001×3001 matrix needs at least 18 MB
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := lev.Distance(a, b, lev.WithAlgorithm(lev.FullMatrix), lev.WithMatrixLimit(limit))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, lev.ErrTooLarge) || errors.Is(err, lev.ErrInvalidOption) {
		t.Fatalf("fullmatrix on 3000×3000 with WithMatrixLimit(%d): %v, want an error wrapping lev.ErrTooLarge (and not ErrInvalidOption: the option is fine)", limit, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "WithMatrixLimit") {
		t.Errorf("error %q does not say how to raise the limit (WithMatrixLimit)", msg)
	}
	if !strings.Contains(msg, "3001") && !mentionsAtLeast(msg, 3001*3001) {
		t.Errorf("error %q does not say the size of the matrix", msg)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("refusing the matrix allocated %d bytes", grew)
	}
	_, err = lev.DistanceString(string(a), string(b), lev.WithAlgorithm(lev.FullMatrix), lev.WithMatrixLimit(limit))
	if !errors.Is(err, lev.ErrTooLarge) {
		t.Errorf("DistanceString: fullmatrix on 3000×3000 with WithMatrixLimit(%d): %v, want an error wrapping lev.ErrTooLarge", limit, err)
	}
	d, err := lev.Distance(a[:500], b[:400], lev.WithAlgorithm(lev.FullMatrix), lev.WithMatrixLimit(limit))
	if want := levtest.Reference(a[:500], b[:400]); err != nil || d != want {
		t.Errorf("fullmatrix on 500×400 with WithMatrixLimit(%d) = %d, %v, want %d", limit, d, err, want)
	}
}

// mentionsAtLeast reports whether s holds a decimal integer of at least n.
func mentionsAtLeast(s string, n int) bool {
	for _, f := range regexp.MustCompile(`\d+`).FindAllString(s, -1) {
		if v, err := strconv.Atoi(f); err == nil && v >= n {
			return true
		}
	}
	return false
}

// TestGPUUnavailable checks, where no CUDA device is usable, that every GPU
// algorithm says so with an error wrapping cudaext.ErrUnavailable (not
// ErrInvalidOption), on any input, and names itself.
func TestGPUUnavailable(t *testing.T) {
	if err := cudaext.Available(); err == nil {
		t.Skip("a CUDA device is available; TestConformance runs the GPU algorithms")
	}
	for _, alg := range lev.Algorithms() {
		if !alg.GPU() {
			continue
		}
		for _, in := range [][2]string{{"", ""}, {"", "x"}, {"kitten", "sitting"}} {
			_, err := lev.Distance([]byte(in[0]), []byte(in[1]), lev.WithAlgorithm(alg))
			if !errors.Is(err, cudaext.ErrUnavailable) || errors.Is(err, lev.ErrInvalidOption) {
				t.Errorf("%s on (%q, %q): %v, want an error wrapping cudaext.ErrUnavailable", alg, in[0], in[1], err)
			} else if !strings.Contains(err.Error(), alg.String()) {
				t.Errorf("%s: error %q does not name the algorithm", alg, err)
			}
			_, err = lev.DistanceString(in[0], in[1], lev.WithAlgorithm(alg), lev.WithBlockSize(128))
			if !errors.Is(err, cudaext.ErrUnavailable) {
				t.Errorf("%s: DistanceString(%q, %q): %v, want an error wrapping cudaext.ErrUnavailable", alg, in[0], in[1], err)
			}
		}
	}
}

// tripwire is a context that cancels itself the second time anyone looks at
// it (Done or Err): lev looks once before any work, so the second look is
// the kernel's. It tests that a kernel watches its context without racing a
// timer, so it serves algorithms whose inputs cannot be made long enough for
// a timer (fullmatrix, whose matrix grows with the work).
type tripwire struct {
	context.Context
	looks  atomic.Int32
	cancel context.CancelFunc
}

func newTripwire() *tripwire {
	ctx, cancel := context.WithCancel(context.Background())
	return &tripwire{Context: ctx, cancel: cancel}
}

func (c *tripwire) look() {
	if c.looks.Add(1) >= 2 {
		c.cancel()
	}
}

func (c *tripwire) Done() <-chan struct{} { c.look(); return c.Context.Done() }
func (c *tripwire) Err() error            { c.look(); return c.Context.Err() }

// cancelSize is the length of the strings that the cancellation tests give
// an algorithm: long enough that the uncanceled run takes seconds, far
// longer than the delay before the cancel.
func cancelSize(alg lev.Algorithm) int {
	switch alg {
	case lev.Myers, lev.MyersParallel, lev.Auto:
		return 400_000 // 64 cells per word step
	default:
		return 40_000
	}
}

// TestCancel checks that every CPU algorithm given a context that is
// canceled before the call, or while it runs on a large input, returns
// promptly an error wrapping context.Canceled, and leaves no goroutine
// behind. It runs no sub-test in parallel: it counts goroutines.
func TestCancel(t *testing.T) {
	rng := levtest.NewRand(t)
	inputs := map[int][2][]byte{}
	for _, alg := range lev.Algorithms() {
		n := cancelSize(alg)
		if _, ok := inputs[n]; !ok {
			inputs[n] = [2][]byte{levtest.RandomBytes(rng, n, levtest.DNA), levtest.RandomBytes(rng, n, levtest.DNA)}
		}
	}
	for _, alg := range lev.Algorithms() {
		if alg.GPU() {
			continue
		}
		in := inputs[cancelSize(alg)]
		workerCounts := []int{1}
		if alg.Parallel() {
			workerCounts = []int{2, 8}
		}
		for _, w := range workerCounts {
			t.Run(fmt.Sprintf("alg=%s/workers=%d", alg, w), func(t *testing.T) {
				opts := []lev.Option{lev.WithAlgorithm(alg), lev.WithWorkers(w)}

				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				if _, err := lev.Distance(in[0], in[1], append(opts, lev.WithContext(ctx))...); !errors.Is(err, context.Canceled) {
					t.Errorf("canceled before the call: %v, want an error wrapping context.Canceled", err)
				}

				if alg != lev.FullMatrix {
					expectCanceled(t, "canceled after 20ms", in[0], in[1], opts, 20*time.Millisecond)
				}

				// Small enough for fullmatrix's matrix; the tripwire needs no
				// long run.
				a, b := in[0][:3000], in[1][:3000]
				before := runtime.NumGoroutine()
				_, err := lev.Distance(a, b, append(opts, lev.WithContext(newTripwire()))...)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("canceled at the kernel's first look at its context: %v, want an error wrapping context.Canceled", err)
				}
				if after := levtest.Settled(before); after > before {
					t.Errorf("%d goroutines before, %d after a canceled run", before, after)
				}
			})
		}
	}
}

// expectCanceled runs Distance(a, b) with a context canceled after delay and
// checks the error, the time it took to return after the cancel, and the
// goroutines.
func expectCanceled(t *testing.T, what string, a, b []byte, opts []lev.Option, delay time.Duration) {
	t.Helper()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var canceledAt atomic.Int64
	timer := time.AfterFunc(delay, func() {
		canceledAt.Store(time.Now().UnixNano())
		cancel()
	})
	defer timer.Stop()

	type result struct {
		d   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		d, err := lev.Distance(a, b, append(opts, lev.WithContext(ctx))...)
		done <- result{d, err}
	}()
	// Promptly: well under a second on an idle machine; the bound leaves
	// room for a loaded one and the race detector.
	const prompt = 3 * time.Second
	var r result
	select {
	case r = <-done:
	case <-time.After(delay + 30*time.Second):
		t.Fatalf("%s: still running 30s after the cancel", what)
	}
	if !errors.Is(r.err, context.Canceled) {
		t.Fatalf("%s: Distance = %d, %v, want an error wrapping context.Canceled", what, r.d, r.err)
	}
	if at := canceledAt.Load(); at != 0 {
		if late := time.Since(time.Unix(0, at)); late > prompt {
			t.Errorf("%s: returned %v after the cancel, want under %v", what, late.Round(time.Millisecond), prompt)
		}
	}
	if after := levtest.Settled(before); after > before {
		t.Errorf("%s: %d goroutines before, %d after", what, before, after)
	}
}

func TestStats(t *testing.T) {
	var st lev.Stats
	rng := levtest.NewRand(t)
	a := levtest.RandomBytes(rng, 3000, levtest.DNA)
	b := levtest.RandomBytes(rng, 3000, levtest.DNA)
	if _, err := lev.Distance(a, b, lev.WithAlgorithm(lev.FullMatrix), lev.WithStats(&st)); err != nil {
		t.Fatal(err)
	}
	if st.Algorithm != lev.FullMatrix || st.Workers != 1 || st.AllocSeconds <= 0 {
		t.Errorf("fullmatrix stats = %+v, want the algorithm, 1 worker and a positive allocation time", st)
	}
	if _, err := lev.Distance(a, b, lev.WithWorkers(2), lev.WithStats(&st)); err != nil {
		t.Fatal(err)
	}
	kernels := lev.MyersKernels()
	best := kernels[len(kernels)-1]
	if st.Algorithm != lev.MyersParallel || st.Workers != 2 || st.AllocSeconds != 0 || st.Kernel != best {
		t.Errorf("auto with 2 workers on 3000×3000: stats = %+v, want myers-parallel, 2 workers, no allocation time, kernel %s", st, best)
	}
	for _, k := range kernels {
		if _, err := lev.Distance(a, b, lev.WithAlgorithm(lev.Myers), lev.WithMyersKernel(k), lev.WithStats(&st)); err != nil {
			t.Fatal(err)
		}
		if st.Kernel != k {
			t.Errorf("myers with kernel %s: stats name kernel %q", k, st.Kernel)
		}
	}
	// Past 256 symbols only: a shorter pattern fills half a ZMM register,
	// AVX2's four lanes a whole YMM one. Runes past a byte take Go's.
	if _, err := lev.Distance(a[:256], b, lev.WithAlgorithm(lev.Myers), lev.WithStats(&st)); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"avx512": "avx2"}[best]; want != "" && st.Kernel != want {
		t.Errorf("myers on 256×3000: kernel %q, want %q", st.Kernel, want)
	}
	if _, err := lev.Distance(a[:50], b, lev.WithAlgorithm(lev.Myers), lev.WithStats(&st)); err != nil || st.Kernel != "go" {
		t.Errorf("myers on 50×3000, one strip: kernel %q (%v), want go", st.Kernel, err)
	}
	var cjk []rune
	for r := rune(0x4e00); r < 0x4e00+300; r++ {
		cjk = append(cjk, r)
	}
	rotated := string(cjk[150:]) + string(cjk[:150])
	if _, err := lev.DistanceString(string(cjk), rotated, lev.WithAlgorithm(lev.Myers), lev.WithStats(&st)); err != nil {
		t.Fatal(err)
	}
	if st.Kernel != "go" {
		t.Errorf("myers on 300 distinct runes: kernel %q, want go", st.Kernel)
	}
	if _, err := lev.Distance(a[:100], b[:100], lev.WithWorkers(2), lev.WithStats(&st)); err != nil {
		t.Fatal(err)
	}
	if st.Algorithm != lev.Myers || st.Workers != 1 {
		t.Errorf("auto with 2 workers on 100×100: stats = %+v, want myers on 1 worker", st)
	}
	if _, err := lev.Distance(a, b, lev.WithAlgorithm(lev.TwoRow), lev.WithStats(&st)); err != nil || st.Kernel != "" {
		t.Errorf("tworow: kernel %q (%v), want none", st.Kernel, err)
	}
	if _, err := lev.Distance(nil, nil, lev.WithStats(nil)); !errors.Is(err, lev.ErrInvalidOption) {
		t.Errorf("WithStats(nil): err = %v, want ErrInvalidOption", err)
	}
}
