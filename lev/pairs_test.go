package lev_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// refPairs returns what Cross (tri false) or All (tri true) should give:
// every pair in order, under a cap k (−1: none) and a top n (0: all).
func refPairs(a, b [][]byte, tri bool, k, top int) []lev.Pair {
	var out []lev.Pair
	for i := range a {
		var row []lev.Pair
		for j := range b {
			switch {
			case tri && top == 0 && j <= i, tri && j == i:
				continue
			}
			d := levtest.Reference(a[i], b[j])
			if k < 0 || d <= k {
				row = append(row, lev.Pair{I: i, J: j, Distance: d})
			}
		}
		if top > 0 {
			slices.SortStableFunc(row, func(x, y lev.Pair) int { return cmp.Compare(x.Distance, y.Distance) })
			row = row[:min(top, len(row))]
		}
		out = append(out, row...)
	}
	return out
}

func collect(run func(fn func(lev.Pair) error) error) ([]lev.Pair, error) {
	var got []lev.Pair
	err := run(func(p lev.Pair) error { got = append(got, p); return nil })
	return got, err
}

// randomSet returns n strings: random, mutated from one another, empty,
// and long enough to pass a word and the block kernel's limit.
func randomSet(rng *rand.Rand, n, maxLen int) [][]byte {
	set := make([][]byte, n)
	for i := range set {
		switch {
		case i%5 == 4:
			set[i] = nil
		case i > 0 && i%3 == 0:
			set[i] = levtest.Mutate(rng, set[i-1], rng.IntN(8), levtest.DNA)
		default:
			set[i] = levtest.RandomBytes(rng, rng.IntN(maxLen+1), levtest.DNA)
		}
	}
	return set
}

func TestCrossAll(t *testing.T) {
	rng := levtest.NewRand(t)
	a, b := randomSet(rng, 13, 300), randomSet(rng, 11, 300)
	algs, workers, caps, tops := []lev.Algorithm{lev.Auto, lev.TwoRow, lev.MyersParallel}, []int{1, 3}, []int{-1, 0, 5, 150}, []int{0, 1, 4}
	if lev.RaceEnabled {
		// The race detector is for the hand-offs: every path, fewer sets.
		algs, workers, caps, tops = []lev.Algorithm{lev.Auto, lev.TwoRow}, []int{3}, []int{-1, 5}, []int{0, 2}
	} else {
		a = append(a, levtest.RandomBytes(rng, 8200, levtest.DNA)) // past the block kernel's rows
		b = append(b, levtest.Mutate(rng, a[len(a)-1], 30, levtest.DNA))
	}
	for _, alg := range algs {
		for _, w := range workers {
			checkCrossAll(t, a, b, fmt.Sprintf("%s/w=%d", alg, w), caps, tops, lev.WithAlgorithm(alg), lev.WithWorkers(w))
		}
	}
}

// checkCrossAll compares Cross(a, b) and All(a) with opts, under each cap
// (−1: none) and top (0: none), with the reference.
func checkCrossAll(t *testing.T, a, b [][]byte, name string, caps, tops []int, opts ...lev.Option) {
	t.Helper()
	for _, k := range caps {
		for _, top := range tops {
			opts := slices.Clone(opts)
			if k >= 0 {
				opts = append(opts, lev.WithMax(k))
			}
			if top > 0 {
				opts = append(opts, lev.WithTop(top))
			}
			name := fmt.Sprintf("%s/max=%d/top=%d", name, k, top)
			got, err := collect(func(fn func(lev.Pair) error) error { return lev.Cross(a, b, fn, opts...) })
			if want := refPairs(a, b, false, k, top); err != nil || !slices.Equal(got, want) {
				t.Errorf("Cross %s: %v\n got %v\nwant %v", name, err, clipPairs(got), clipPairs(want))
			}
			got, err = collect(func(fn func(lev.Pair) error) error { return lev.All(a, fn, opts...) })
			if want := refPairs(a, a, true, k, top); err != nil || !slices.Equal(got, want) {
				t.Errorf("All %s: %v\n got %v\nwant %v", name, err, clipPairs(got), clipPairs(want))
			}
		}
	}
}

func clipPairs(p []lev.Pair) string {
	if len(p) > 12 {
		return fmt.Sprintf("%v … (%d pairs)", p[:12], len(p))
	}
	return fmt.Sprint(p)
}

// TestCrossStrings counts runes, with few distinct ones (bytes inside)
// and with more than 256 (wide codes).
func TestCrossStrings(t *testing.T) {
	rng := levtest.NewRand(t)
	for _, alphabet := range []string{"héllo wörld", cjkAlphabet()} {
		runes := []rune(alphabet)
		word := func() string {
			out := make([]rune, rng.IntN(90))
			for i := range out {
				out[i] = runes[rng.IntN(len(runes))]
			}
			return string(out)
		}
		var a, b []string
		for range 7 {
			a, b = append(a, word()), append(b, word())
		}
		var want []lev.Pair
		for i := range a {
			for j := range b {
				want = append(want, lev.Pair{I: i, J: j, Distance: levtest.ReferenceString(a[i], b[j])})
			}
		}
		got, err := collect(func(fn func(lev.Pair) error) error { return lev.CrossStrings(a, b, fn, lev.WithWorkers(2)) })
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("CrossStrings over %d runes: %v\n got %v\nwant %v", len(runes), err, clipPairs(got), clipPairs(want))
		}
		var wantAll []lev.Pair
		for i := range a {
			for j := i + 1; j < len(a); j++ {
				wantAll = append(wantAll, lev.Pair{I: i, J: j, Distance: levtest.ReferenceString(a[i], a[j])})
			}
		}
		got, err = collect(func(fn func(lev.Pair) error) error { return lev.AllStrings(a, fn) })
		if err != nil || !slices.Equal(got, wantAll) {
			t.Errorf("AllStrings over %d runes: %v\n got %v\nwant %v", len(runes), err, clipPairs(got), clipPairs(wantAll))
		}
	}
}

// cjkAlphabet returns 600 distinct CJK runes: more than a byte codes.
func cjkAlphabet() string {
	var b strings.Builder
	for r := rune(0x4e00); r < 0x4e00+600; r++ {
		b.WriteRune(r)
	}
	return b.String()
}

func TestMatrix(t *testing.T) {
	rng := levtest.NewRand(t)
	a, b := randomSet(rng, 6, 200), randomSet(rng, 5, 200)
	for _, opts := range [][]lev.Option{{lev.WithMax(40)}, {lev.WithMax(40), lev.WithoutBand()}} {
		// WithoutBand: every cell of every pair (the lanes), capped after.
		d, err := lev.Matrix(a, b, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			for j := range b {
				want := min(levtest.Reference(a[i], b[j]), 41)
				if d[i][j] != want {
					t.Errorf("Matrix[%d][%d] with %d options = %d, want %d", i, j, len(opts), d[i][j], want)
				}
			}
		}
	}
	if _, err := lev.Matrix(a, b, lev.WithMatrixLimit(8*30-1)); !errors.Is(err, lev.ErrTooLarge) {
		t.Errorf("Matrix of 30 cells under a limit of 239 bytes: %v, want ErrTooLarge", err)
	}
}

func TestPairsErrors(t *testing.T) {
	set := [][]byte{[]byte("kitten"), []byte("sitting"), []byte("mitten")}
	nop := func(lev.Pair) error { return nil }
	for _, tc := range []struct {
		what string
		err  error
		want string
	}{
		{"nil callback", lev.Cross(set, set, nil), "callback is nil"},
		{"cap below 0", lev.All(set, nop, lev.WithMax(-1)), "max = -1"},
		{"top 0", lev.All(set, nop, lev.WithTop(0)), "top = 0"},
		{"cuda-diagonal", lev.All(set, nop, lev.WithAlgorithm(lev.CUDADiagonal)), "cuda-fast"},
		{"top on Distance", func() error { _, err := lev.Distance(set[0], set[1], lev.WithTop(2)); return err }(), "Cross and All"},
		{"top on Matrix", func() error { _, err := lev.Matrix(set, set, lev.WithTop(2)); return err }(), "Cross and All"},
	} {
		if !errors.Is(tc.err, lev.ErrInvalidOption) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v; want ErrInvalidOption saying %q", tc.what, tc.err, tc.want)
		}
	}
	// The callback's error stops the work and is returned; no call follows.
	stop := errors.New("enough")
	calls := 0
	err := lev.All(set, func(lev.Pair) error { calls++; return stop }, lev.WithWorkers(2))
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("All with a failing callback: %v after %d calls; want its error after 1", err, calls)
	}
	// A canceled context: its error, and no pair after it.
	ctx, cancel := context.WithCancel(context.Background())
	big := randomSet(levtest.NewRand(t), 300, 500)
	calls = 0
	err = lev.All(big, func(lev.Pair) error {
		if calls++; calls == 10 {
			cancel()
		}
		return nil
	}, lev.WithContext(ctx), lev.WithWorkers(2))
	if !errors.Is(err, context.Canceled) || calls >= 300*299/2 {
		t.Errorf("All canceled after 10 pairs: %v after %d calls; want context.Canceled, early", err, calls)
	}
}

// TestDistanceMax checks WithMax through Distance on pairs far apart in
// length (answered at once) and long ones (the band).
func TestDistanceMax(t *testing.T) {
	rng := levtest.NewRand(t)
	a := levtest.RandomBytes(rng, 20000, levtest.DNA)
	b := levtest.Mutate(rng, a, 40, levtest.DNA)
	d := levtest.Reference(a, b)
	for _, alg := range []lev.Algorithm{lev.Auto, lev.Myers, lev.MyersParallel, lev.TwoRow} {
		for _, k := range []int{0, d - 1, d, 3 * d} {
			got, err := lev.Distance(a, b, lev.WithAlgorithm(alg), lev.WithMax(k))
			if want := min(d, k+1); err != nil || got != want {
				t.Errorf("%s, max %d: %d, %v; want %d (distance %d)", alg, k, got, err, want, d)
			}
		}
	}
	if got, err := lev.Distance(a, a[:100], lev.WithMax(5)); err != nil || got != 6 {
		t.Errorf("lengths 20000 and 100, max 5: %d, %v; want 6", got, err)
	}
}

func FuzzCross(f *testing.F) {
	f.Add([]byte("kitten"), []byte("sitting"), []byte("mitten"), uint8(2), uint8(0))
	f.Add([]byte(strings.Repeat("ACGT", 40)), []byte(strings.Repeat("ACGA", 41)), []byte{}, uint8(255), uint8(1))
	f.Fuzz(func(t *testing.T, x, y, z []byte, cap, top uint8) {
		set := [][]byte{x, y, z}
		k := -1
		var opts []lev.Option
		if cap < 200 {
			k = int(cap)
			opts = append(opts, lev.WithMax(k))
		}
		if top%4 != 0 {
			opts = append(opts, lev.WithTop(int(top%4)))
		}
		n := 0
		if top%4 != 0 {
			n = int(top % 4)
		}
		want := refPairs(set, set, true, k, n)
		got, err := collect(func(fn func(lev.Pair) error) error { return lev.All(set, fn, opts...) })
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("All(%q, %q, %q) max %d top %d: %v\n got %v\nwant %v", x, y, z, k, n, err, got, want)
		}
		// cuda-fast's many-pairs job, through its CPU model, in the
		// geometry top picks.
		s := fastSchedules[int(top)%len(fastSchedules)]
		model := append([]lev.Option{lev.WithAlgorithm(lev.CUDAFast), lev.WithFastModel(s)}, opts...)
		got, err = collect(func(fn func(lev.Pair) error) error { return lev.All(set, fn, model...) })
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("cuda-fast model %+v: All(%q, %q, %q) max %d top %d: %v\n got %v\nwant %v", s, x, y, z, k, n, err, got, want)
		}
	})
}

// TestPairsCallbackPanics: a callback that panics stops the workers (none
// is left blocked), and the panic reaches the caller, its value unchanged.
func TestPairsCallbackPanics(t *testing.T) {
	set := make([][]byte, 64)
	for i := range set {
		set[i] = []byte(strings.Repeat("ACGT", 8+i%5))
	}
	before := runtime.NumGoroutine()
	for _, name := range []string{"All", "Cross"} {
		got := func() (r any) {
			defer func() { r = recover() }()
			fn := func(lev.Pair) error { panic("callback") }
			if name == "All" {
				lev.All(set, fn, lev.WithWorkers(4))
			} else {
				lev.Cross(set, set, fn, lev.WithWorkers(4))
			}
			return nil
		}()
		if got != "callback" {
			t.Errorf("%s: recovered %v, want the callback's panic", name, got)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
