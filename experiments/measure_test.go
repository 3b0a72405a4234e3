package experiments

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/match"
)

// TestMeasure times every lev algorithm and every peer on a few inputs and
// checks the distance against the reference, and what Measure says of the
// run.
func TestMeasure(t *testing.T) {
	e := Experiment{Name: "measure-test"}
	inputs := []Point{
		{Case: CaseRandom, LenA: 300, LenB: 250},
		{Case: CaseDNA, LenA: 129, LenB: 700},
		{Case: CasePartial, LenA: 500, LenB: 500},
		{Case: CaseIdentical, LenA: 200, LenB: 200},
		{Case: CaseDifferent, LenA: 65, LenB: 0},
		{Case: CaseDiverged, LenA: 3000, LenB: 3000},
	}
	var settings []Point
	for _, alg := range lev.Algorithms() {
		switch {
		case alg.GPU():
			settings = append(settings, Point{Algorithm: alg.String()}, Point{Algorithm: alg.String(), Block: 256})
		case alg.Parallel():
			settings = append(settings, Point{Algorithm: alg.String()}, Point{Algorithm: alg.String(), Workers: 3, Tile: 40})
		default:
			settings = append(settings, Point{Algorithm: alg.String(), Workers: 1})
		}
	}
	for _, name := range Peers() {
		settings = append(settings, Point{Kind: Peer, Algorithm: name}, Point{Kind: Peer, Algorithm: name, Workers: 1})
	}
	settings = append(settings, Point{Kind: Alignment, Algorithm: AlignAlgorithm, Workers: 1}, Point{Kind: Alignment, Algorithm: AlignAlgorithm, Workers: 3})
	gpuErr := cudaext.Available()
	for _, in := range inputs {
		for _, s := range settings {
			p := s
			p.Case, p.LenA, p.LenB = in.Case, in.LenA, in.LenB
			a, b, err := Inputs(e, p)
			if err != nil {
				t.Fatal(err)
			}
			want := levtest.Reference(a, b)
			m, err := Measure(context.Background(), p, a, b)
			alg, _ := lev.ParseAlgorithm(p.Algorithm)
			switch {
			case alg.GPU() && gpuErr != nil:
				if !errors.Is(err, ErrSkipped) || !errors.Is(err, cudaext.ErrUnavailable) {
					t.Errorf("%s without a GPU: err = %v, want ErrSkipped and cudaext.ErrUnavailable", p.Key(), err)
				}
				continue
			case p.Algorithm == "edlib" && !edlibBuilt:
				if !errors.Is(err, ErrSkipped) || !strings.Contains(err.Error(), "-tags edlib") {
					t.Errorf("%s without -tags edlib: err = %v, want ErrSkipped saying how to build it", p.Key(), err)
				}
				continue
			case err != nil:
				t.Errorf("%s: %v", p.Key(), err)
				continue
			}
			if m.Distance != want {
				t.Errorf("%s: distance %d, want %d", p.Key(), m.Distance, want)
			}
			if m.Seconds < 0 || m.Seconds > 60 {
				t.Errorf("%s: %g seconds", p.Key(), m.Seconds)
			}
			wantRan, wantWorkers := p.Algorithm, 1
			if p.Kind == Alignment {
				wantWorkers = p.Workers
			} else if _, peer := peers[p.Algorithm]; !peer && alg.Parallel() {
				wantWorkers = p.Workers
				if wantWorkers == 0 {
					wantWorkers = runtime.GOMAXPROCS(0)
				}
			}
			if alg == lev.Auto && !isPeer(p.Algorithm) && p.Kind != Alignment {
				wantRan = m.Ran // what Auto resolved to
				if wantRan != "myers" && wantRan != "myers-parallel" {
					t.Errorf("%s: ran %q, want myers or myers-parallel", p.Key(), m.Ran)
				}
				if m.Ran == "myers" {
					wantWorkers = 1
				}
			}
			if m.Ran != wantRan || m.RanWorkers != wantWorkers {
				t.Errorf("%s: ran %s with %d workers, want %s with %d", p.Key(), m.Ran, m.RanWorkers, wantRan, wantWorkers)
			}
			if p.Algorithm == "fullmatrix" && p.LenA > 0 && p.LenB > 0 {
				// uint16 cells at these lengths (fullmatrix.go)
				if need := 2 * int64(p.LenA+1) * int64(p.LenB+1); m.AllocBytes < need {
					t.Errorf("%s: %d bytes allocated, less than the %d of the matrix", p.Key(), m.AllocBytes, need)
				}
				if m.AllocSeconds <= 0 || m.AllocSeconds > m.Seconds {
					t.Errorf("%s: alloc seconds %g of %g", p.Key(), m.AllocSeconds, m.Seconds)
				}
			} else if m.AllocSeconds != 0 {
				t.Errorf("%s: alloc seconds %g, want 0 (measured apart only by fullmatrix)", p.Key(), m.AllocSeconds)
			}
		}
	}
}

func isPeer(name string) bool { _, ok := peers[name]; return ok }

// TestMeasureEdlib checks the cgo peer where it is built: edge cases of
// lengths and symbols that the catalog's inputs do not reach.
func TestMeasureEdlib(t *testing.T) {
	if !edlibBuilt {
		t.Skip("edlib is not built in: run with -tags edlib (needs libedlib-dev)")
	}
	rng := levtest.NewRand(t)
	pairs := [][2][]byte{
		{nil, nil}, {nil, []byte("abc")}, {[]byte("abc"), {}}, {[]byte("kitten"), []byte("sitting")},
		{levtest.RandomBytes(rng, 1000, levtest.AllBytes), levtest.RandomBytes(rng, 900, levtest.AllBytes)},
	}
	for _, n := range []int{63, 64, 65, 127, 128, 129, 3000} {
		a := levtest.RandomBytes(rng, n, levtest.DNA)
		pairs = append(pairs, [2][]byte{a, levtest.Mutate(rng, a, n/10, levtest.DNA)},
			[2][]byte{a, levtest.RandomBytes(rng, n+7, levtest.Lowercase)})
	}
	for _, in := range pairs {
		got, err := edlibDistance(in[0], in[1])
		if want := levtest.Reference(in[0], in[1]); err != nil || got != want {
			t.Errorf("edlib(%d bytes, %d bytes) = %d, %v; want %d", len(in[0]), len(in[1]), got, err, want)
		}
	}
}

func TestMeasureErrors(t *testing.T) {
	a, b := []byte("kitten"), []byte("sitting")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		p    Point
		ctx  context.Context
		want string
		is   error
	}{
		{p: Point{Algorithm: "levenshtein"}, want: `"levenshtein"`, is: lev.ErrInvalidOption},
		{p: Point{Algorithm: "tworow", Workers: 2}, want: "sequential", is: lev.ErrInvalidOption},
		{p: Point{Algorithm: "tiled", Tile: -1}, want: "tile = -1", is: lev.ErrInvalidOption},
		{p: Point{Algorithm: "tiled", Workers: lev.MaxWorkers + 1}, want: "workers", is: lev.ErrInvalidOption},
		{p: Point{Algorithm: "cuda-fast", Block: 2048}, want: "block size = 2048", is: lev.ErrInvalidOption},
		{p: Point{Kind: Peer, Algorithm: "agnivade", Workers: 2}, want: "sequential peer"},
		{p: Point{Kind: Peer, Algorithm: "ka-weihe", Tile: 8}, want: "tile = 8"},
		{p: Point{Kind: Peer, Algorithm: "myers"}, want: `peer "myers" is unknown`},
		{p: Point{Algorithm: "agnivade"}, want: "Kind Peer", is: lev.ErrInvalidOption},
		{p: Point{Algorithm: "apm-fast"}, want: "Kind Matching", is: lev.ErrInvalidOption},
		{p: Point{Kind: 8, Algorithm: "myers"}, want: "kind 8 is unknown"},
		{p: Point{Kind: Alignment, Algorithm: "myers"}, want: `algorithm "align"`},
		{p: Point{Kind: Alignment, Algorithm: AlignAlgorithm, Workers: -1}, want: "workers = -1", is: lev.ErrInvalidOption},
		{p: Point{Algorithm: "tworow", GPURatio: 0.5}, want: "pattern-matching"},
		{p: Point{Algorithm: "myers", Ranks: 2}, want: "pattern-matching"},
		{p: Point{Algorithm: "tiled"}, ctx: canceled, want: "canceled", is: context.Canceled},
		{p: Point{Kind: Peer, Algorithm: "agnivade"}, ctx: canceled, want: "canceled", is: context.Canceled},
	} {
		ctx := tc.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		_, err := Measure(ctx, tc.p, a, b)
		if err == nil {
			t.Errorf("Measure(%s): no error", tc.p.Key())
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("Measure(%s): %v; want it to say %q (and wrap %v)", tc.p.Key(), err, tc.want, tc.is)
		}
		if errors.Is(err, ErrSkipped) {
			t.Errorf("Measure(%s): %v wraps ErrSkipped", tc.p.Key(), err)
		}
	}
	// The peers count runes: bytes that are not ASCII are refused.
	for _, name := range Peers() {
		_, err := Measure(context.Background(), Point{Kind: Peer, Algorithm: name}, []byte("h\xc3\xa9llo"), []byte("hello"))
		if err == nil || !strings.Contains(err.Error(), "ASCII") {
			t.Errorf("Measure(%s) on UTF-8: err = %v, want it refused as not ASCII", name, err)
		}
	}
}

// TestMeasureTooBigForFullMatrix checks that a matrix beyond this machine's
// share is a skip that says why, not an allocation.
func TestMeasureTooBigForFullMatrix(t *testing.T) {
	// 2^18 symbols: a 2^36-cell matrix of uint32 cells, 256 GiB.
	n := 1 << 18
	a := make([]byte, n)
	start := time.Now()
	_, err := Measure(context.Background(), Point{Algorithm: "fullmatrix", Workers: 1}, a, a)
	if !errors.Is(err, ErrSkipped) || !errors.Is(err, lev.ErrTooLarge) || !strings.Contains(err.Error(), "GiB") {
		t.Errorf("fullmatrix %d×%d: err = %v, want ErrSkipped and lev.ErrTooLarge naming the memory", n, n, err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("refusing fullmatrix %d×%d took %v", n, n, time.Since(start))
	}
}

// TestMeasureMatches times pattern-matching points, one process and
// simulated ranks, and checks every count against one match.Count
// call over the whole text, with texts shorter than the ranks and parts
// shorter than the pattern among them.
func TestMeasureMatches(t *testing.T) {
	e := Experiment{Name: "measure-matches-test"}
	gpuErr := cudaext.Available()
	for _, n := range []int{0, 5, 21, 22, 23, 100, 2000} {
		in := Point{Case: CaseDNA, LenA: n, LenB: 22}
		text, pattern, err := Inputs(e, in)
		if err != nil {
			t.Fatal(err)
		}
		// Plant copies, one with an edit, so that there is something to
		// count, some across the parts' cuts.
		for _, at := range []int{n/2 - 3, n/3 - 20, n - 30} {
			if at >= 0 && at+len(pattern) <= n {
				copy(text[at:], pattern)
			}
		}
		if n > 50 {
			text[n/2] ^= 1
		}
		want, err := match.Count(text, [][]byte{pattern}, MatchK, match.WithWorkers(1))
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []string{"apm-fast", "apm-naive"} {
			for _, s := range []Point{{Workers: 1}, {Workers: 2}, {}, {Workers: 1, Ranks: 1}, {Workers: 1, Ranks: 3},
				{Workers: 2, Ranks: 4}, {Workers: 1, Ranks: 8}, {Workers: 1, GPURatio: 0.5}} {
				p := s
				p.Kind, p.Algorithm, p.Case, p.LenA, p.LenB = Matching, alg, in.Case, in.LenA, in.LenB
				m, err := Measure(context.Background(), p, text, pattern)
				if p.GPURatio > 0 && gpuErr != nil {
					if !errors.Is(err, ErrSkipped) || !errors.Is(err, cudaext.ErrUnavailable) {
						t.Errorf("%s without a GPU: err = %v, want ErrSkipped and cudaext.ErrUnavailable", p.Key(), err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", p.Key(), err)
					continue
				}
				wantWorkers := p.Workers
				if wantWorkers == 0 {
					wantWorkers = runtime.GOMAXPROCS(0)
				}
				if m.Matches != want[0] || m.Distance != 0 || m.Ran != alg || m.RanWorkers != wantWorkers || m.Seconds < 0 {
					t.Errorf("%s: %+v, want %d matches, ran %s on %d workers", p.Key(), m, want[0], alg, wantWorkers)
				}
			}
		}
	}
}

func TestMeasureMatchesErrors(t *testing.T) {
	text, pattern := []byte("ACGTACGT"), []byte("ACG")
	for _, tc := range []struct {
		p    Point
		want string
	}{
		{Point{Kind: Matching, Algorithm: "apm-fast", Tile: 4}, "tile = 4"},
		{Point{Kind: Matching, Algorithm: "apm-naive", Block: 32}, "block = 32"},
		{Point{Kind: Matching, Algorithm: "apm-fast", Ranks: -1}, "ranks = -1"},
		{Point{Kind: Matching, Algorithm: "apm-fast", Ranks: 2, GPURatio: 0.5}, "simulated ranks"},
		{Point{Kind: Matching, Algorithm: "apm-fast", GPURatio: 1.5}, "gpu ratio"},
		{Point{Kind: Matching, Algorithm: "apm-fast", Workers: match.MaxWorkers + 1}, "workers"},
	} {
		_, err := Measure(context.Background(), tc.p, text, pattern)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrSkipped) {
			t.Errorf("Measure(%s): %v; want an error saying %q, not a skip", tc.p.Key(), err, tc.want)
		}
	}
}
