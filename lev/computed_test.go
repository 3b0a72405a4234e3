package lev

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/levlab/levlab/cudaext"
)

// wordCells is the cells of every 64-row word of the shorter of m and n
// over every column of the longer: what one bit-parallel pass over the
// whole matrix computes.
func wordCells(m, n int) int64 {
	short, long := min(m, n), max(m, n)
	return int64((short+wordBits-1)/wordBits*wordBits) * int64(long)
}

// bitParallel reports whether alg counts word steps (Stats.Computed) rather
// than the whole matrix.
func bitParallel(alg Algorithm) bool { return alg == Auto || alg == Myers || alg == MyersParallel }

// computedOf runs one Distance and returns what its Stats counted.
func computedOf(t *testing.T, a, b []byte, opts ...Option) (int, Stats) {
	t.Helper()
	var st Stats
	d, err := Distance(a, b, append(opts, WithStats(&st))...)
	if err != nil {
		t.Fatal(err)
	}
	return d, st
}

// TestStatsComputedAlgorithms: every algorithm counts the whole matrix,
// m·n, but the bit-parallel ones, which count their word steps: more than
// 0 where anything is left once the common prefix and suffix are gone, at
// most two passes of every word over every column; and every algorithm
// counts the same whatever its workers.
func TestStatsComputedAlgorithms(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	sizes := [][2]int{{1, 1}, {6, 7}, {63, 64}, {65, 129}, {300, 200}, {1500, 1400}, {3000, 5000}}
	if raceEnabled {
		sizes = sizes[:5]
	}
	for _, alg := range Algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			var extra []Option
			switch alg {
			case CUDAFast:
				extra = append(extra, WithFastModel(cudaext.GPUSchedule(3, cudaext.DefaultChunk)))
			case CUDADiagonal, CUDAMatrix:
				if _, err := Distance([]byte("a"), []byte("b"), WithAlgorithm(alg)); errors.Is(err, cudaext.ErrUnavailable) {
					t.Skipf("%s: %v", alg, err)
				}
			}
			workers := []int{1}
			if alg.Parallel() && !alg.GPU() {
				workers = []int{1, 2, 3}
			}
			for _, sz := range sizes {
				for _, sigma := range []int{4, 256} {
					a := dpRandSeq[uint8](r, sz[0], sigma, 0)
					b := dpRandSeq[uint8](r, sz[1], sigma, 0)
					ta, tb := trimCommon(a, b)
					what := fmt.Sprintf("%s %d×%d σ %d", alg, len(a), len(b), sigma)
					var first int64
					for i, w := range workers {
						opts := append([]Option{WithAlgorithm(alg), WithWorkers(w)}, extra...)
						_, st := computedOf(t, a, b, opts...)
						got := st.Computed
						switch {
						case !bitParallel(alg) && got != int64(len(a))*int64(len(b)):
							t.Errorf("%s, %d workers: computed %d, want m·n = %d", what, w, got, len(a)*len(b))
						case bitParallel(alg) && len(ta) > 0 && len(tb) > 0 && got <= 0:
							t.Errorf("%s, %d workers: computed %d, want > 0", what, w, got)
						case bitParallel(alg) && got > 2*wordCells(len(ta), len(tb)):
							t.Errorf("%s, %d workers: computed %d, more than two passes of every word, 2·%d", what, w, got, wordCells(len(ta), len(tb)))
						case i > 0 && got != first:
							t.Errorf("%s: computed %d on %d workers, %d on %d", what, got, w, first, workers[0])
						}
						first = got
					}
				}
			}
		})
	}
}

// TestStatsComputedEdges: nothing computed where no kernel runs (an empty
// sequence, equal ones, lengths further apart than the cap); under a cap
// the sequential DP still computes the whole matrix.
func TestStatsComputedEdges(t *testing.T) {
	for _, alg := range []Algorithm{Auto, FullMatrix, TwoRow, Diagonal, Tiled, TiledBarrier, Myers, MyersParallel} {
		for _, c := range []struct {
			a, b string
			opts []Option
			want int64
		}{
			{"", "abc", nil, 0},
			{"abc", "", nil, 0},
			{"abc", "abcdefgh", []Option{WithMax(2)}, 0},
			{"kitten", "sitting", []Option{WithMax(1)}, 6 * 7},
		} {
			_, st := computedOf(t, []byte(c.a), []byte(c.b), append(c.opts, WithAlgorithm(alg))...)
			want := c.want
			if bitParallel(alg) && want > 0 {
				// The cap's band, within one word's.
				want = st.Computed
				if bound := wordCells(len(c.a), len(c.b)); want <= 0 || want > bound {
					t.Errorf("%s: %q %q: computed %d, want in (0, %d]", alg, c.a, c.b, st.Computed, bound)
				}
			}
			if st.Computed != want {
				t.Errorf("%s: %q %q: computed %d, want %d", alg, c.a, c.b, st.Computed, want)
			}
		}
	}
	// Equal sequences, and a pair that the common prefix and suffix leave
	// empty: the bit-parallel algorithms compute nothing.
	for _, alg := range []Algorithm{Myers, MyersParallel} {
		if _, st := computedOf(t, []byte("levenshtein"), []byte("levenshtein"), WithAlgorithm(alg)); st.Computed != 0 {
			t.Errorf("%s of equal sequences: computed %d, want 0", alg, st.Computed)
		}
		if _, st := computedOf(t, []byte("abcxyz"), []byte("abcQQxyz"), WithAlgorithm(alg)); st.Computed != 0 {
			t.Errorf("%s of abcxyz, abcQQxyz: computed %d, want 0 (nothing left of the shorter)", alg, st.Computed)
		}
	}
}

// TestStatsComputedSimilar: for a similar pair, the band and the trimmed
// pass leave most of the matrix: Myers counts far fewer cells than m·n,
// under every kernel, the same on any workers; WithoutBand counts every
// word over every column, once; a cap counts no more than the band of its
// cost.
func TestStatsComputedSimilar(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	n := 100_000
	var a, b []byte
	for _, div := range []int{1, 5} { // the first pass alone; then the trimmed pass
		a = dpRandSeq[uint8](r, n, 4, 0)
		b = dpMutate(r, a, n*div/100, 4)
		mn := int64(len(a)) * int64(len(b))
		for _, k := range availableKernels() {
			kernel := func(c *config) { c.kernel = k }
			d, st := computedOf(t, a, b, WithAlgorithm(Myers), kernel)
			t.Logf("%d×%d, %d%% diverged, distance %d: computed %d cells, %.2f%% of m·n (%s kernel)",
				len(a), len(b), div, d, st.Computed, 100*float64(st.Computed)/float64(mn), st.Kernel)
			if st.Computed <= 0 || st.Computed > mn/10 {
				t.Errorf("myers, %s kernel: computed %d of %d×%d %d%% diverged, want in (0, m·n/10 = %d]", k, st.Computed, len(a), len(b), div, mn/10)
			}
			for _, w := range []int{1, 2, 4} {
				if _, pst := computedOf(t, a, b, WithAlgorithm(MyersParallel), WithWorkers(w), kernel); pst.Computed != st.Computed {
					t.Errorf("myers-parallel on %d workers, %s kernel: computed %d, myers %d", w, k, pst.Computed, st.Computed)
				}
			}
		}
	}
	// Every cell, once: each word of the shorter (once the common prefix
	// and suffix are gone) over every column.
	x, y := a[:20000], b[:20000]
	tx, ty := trimCommon(x, y)
	if _, st := computedOf(t, x, y, WithAlgorithm(Myers), WithoutBand()); st.Computed != wordCells(len(tx), len(ty)) {
		t.Errorf("myers without band of %d×%d: computed %d, want ⌈m/64⌉·64·n = %d", len(tx), len(ty), st.Computed, wordCells(len(tx), len(ty)))
	}
	// A cap: at most the band of cost k, whatever the distance.
	k := 100
	far := dpRandSeq[uint8](r, len(x), 4, 0)
	d, st := computedOf(t, x, far, WithAlgorithm(Myers), WithMax(k))
	_, full := computedOf(t, x, far, WithAlgorithm(Myers))
	if d != k+1 || st.Computed <= 0 || st.Computed >= full.Computed/4 {
		t.Errorf("myers with max %d of two random %d: distance %d, computed %d, want %d and in (0, %d), a quarter of the uncapped %d",
			k, len(x), d, st.Computed, k+1, full.Computed/4, full.Computed)
	}
}

// TestStatsComputedAlign: Align counts its passes and its small pieces'
// DP, the same on any workers: more than 0, at most a few passes of every
// word over every column (Hirschberg's levels cost about two), and for a
// similar pair a small part of m·n.
func TestStatsComputedAlign(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	for _, c := range []struct {
		n, div int
	}{{40, 100}, {300, 5}, {3000, 100}, {20000, 1}} {
		a := dpRandSeq[uint8](r, c.n, 4, 0)
		b := dpMutate(r, a, c.n*c.div/100, 4)
		if c.div == 100 {
			b = dpRandSeq[uint8](r, c.n+r.IntN(c.n/10+1), 4, 0)
		}
		var first int64
		for i, w := range []int{1, 2, 4} {
			var st Stats
			if _, err := Align(a, b, WithWorkers(w), WithStats(&st)); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("align %d×%d (%d%%), %d workers", len(a), len(b), c.div, w)
			switch {
			case st.Computed <= 0 || st.Computed > 4*wordCells(len(a), len(b)):
				t.Errorf("%s: computed %d, want in (0, 4·%d]", what, st.Computed, wordCells(len(a), len(b)))
			case c.div == 1 && st.Computed > int64(len(a))*int64(len(b))/4:
				t.Errorf("%s: computed %d, more than a quarter of m·n", what, st.Computed)
			case i > 0 && st.Computed != first:
				t.Errorf("%s: computed %d, %d on one worker", what, st.Computed, first)
			}
			first = st.Computed
		}
	}
}

// TestStatsComputedPairs: Cross and All count the sum over their pairs:
// the block kernel's lanes every word of the query over the target's own
// columns, the sequential DP m·n a pair, a cap no more than that; the
// same on any workers.
func TestStatsComputedPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 8))
	set := make([][]byte, 40)
	for i := range set {
		set[i] = dpRandSeq[uint8](r, r.IntN(300), 4, 0) // empty ones too
	}
	var lanes, whole int64
	for i := range set {
		for j := i + 1; j < len(set); j++ {
			// The query set[i] gives the rows.
			lanes += int64((len(set[i])+wordBits-1)/wordBits*wordBits) * int64(len(set[j]))
			whole += int64(len(set[i])) * int64(len(set[j]))
		}
	}
	all := func(opts ...Option) int64 {
		var st Stats
		if err := All(set, func(Pair) error { return nil }, append(opts, WithStats(&st))...); err != nil {
			t.Fatal(err)
		}
		return st.Computed
	}
	for _, c := range []struct {
		name string
		opts []Option
		want int64 // 0: at most lanes, more than 0
	}{
		{"auto", nil, lanes},
		{"auto/max=3", []Option{WithMax(3)}, 0},
		{"tworow", []Option{WithAlgorithm(TwoRow)}, whole},
		{"cuda-fast-model", []Option{WithAlgorithm(CUDAFast), WithFastModel(cudaext.GPUSchedule(3, cudaext.DefaultChunk))}, whole},
		{"myers", []Option{WithAlgorithm(Myers)}, 0},
	} {
		one := all(append(c.opts, WithWorkers(1))...)
		switch {
		case c.want > 0 && one != c.want:
			t.Errorf("%s: computed %d, want %d", c.name, one, c.want)
		case c.want == 0 && (one <= 0 || one > 2*lanes):
			t.Errorf("%s: computed %d, want in (0, 2·%d]", c.name, one, lanes)
		}
		for _, w := range []int{2, 3} {
			if got := all(append(c.opts, WithWorkers(w))...); got != one {
				t.Errorf("%s: computed %d on %d workers, %d on one", c.name, got, w, one)
			}
		}
	}
}

// TestBlockPassCells: the block kernel's count of its words, kept where
// the band's words change, equals a count of every column's words.
func TestBlockPassCells(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for it := range 300 {
		p := dpRandSeq[uint8](r, 1+r.IntN(400), 4, 0)
		q := dpMutate(r, p, r.IntN(len(p)/4+2), 4)
		if it%3 == 0 {
			q = dpRandSeq[uint8](r, 1+r.IntN(400), 4, 0)
		}
		m, n := len(p), len(q)
		bp := newBlockPattern(p, 256)
		// A band wide enough for the distance, or every cell: no early
		// exit, every column runs.
		u := max(abs(m-n), r.IntN(max(m, n)+1))
		bd := bandFor(m, n, u)
		var st blockState
		blockPass(bp, q, bd, -1, &st)
		W := bp.words
		var want int64
		first, last := 0, min(W-1, bd.lo/wordBits)
		for j := 1; j <= n; j++ {
			last = max(last, min(W-1, (j+bd.lo-1)/wordBits))
			if top := j - bd.hi; top > 1 {
				first = max(first, (top-1)/wordBits)
			}
			want += int64(last-first+1) * wordBits
		}
		if st.cells != want {
			t.Fatalf("it %d: %d×%d band %+v: counted %d cells, the columns' words make %d", it, m, n, bd, st.cells, want)
		}
		// Under a cap that ends the pass early: no more than the whole band.
		var capped blockState
		blockPass(bp, q, bd, r.IntN(4), &capped)
		if capped.cells <= 0 || capped.cells > want {
			t.Fatalf("it %d: %d×%d capped: counted %d cells, want in (0, %d]", it, m, n, capped.cells, want)
		}
	}
}

// TestStatsComputedTrimmed: a trimmed pass counts the columns each group
// ran, which Ukkonen's band of its threshold holds: for a similar pair
// fewer cells than its groups would compute over that band, never more.
func TestStatsComputedTrimmed(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for it := range 4 {
		a := dpRandSeq[uint8](r, 20000+r.IntN(20000), 4, 0)
		b := dpMutate(r, a, len(a)*[]int{1, 5}[it%2]/100, 4)
		a, b = trimCommon(a, b)
		if len(a) > len(b) {
			a, b = b, a
		}
		d, err := myersDistance(a, b, &config{ctx: context.Background()}, 1)
		if err != nil {
			t.Fatal(err)
		}
		th := max(d, len(b)-len(a)) + r.IntN(d+1)
		ps := &myersPass[uint8]{p: a, t: b, m: len(a), n: len(b), sigma: alphabetSize(a, b),
			workers: 1 + it%2, chunk: trimChunk(th), ctx: context.Background()}
		if v, ok, err := trimPass(ps, th); err != nil || !ok || v != d {
			t.Fatalf("it %d: trimmed pass of threshold %d: %d, %v, %v; want %d", it, th, v, ok, err, d)
		}
		got := ps.computed()
		ps.trim = 0 // the same groups over the whole band (span)
		if band := ps.computed(); got <= 0 || got >= band {
			t.Errorf("it %d: %d×%d, distance %d, threshold %d: the trimmed pass counted %d cells, want in (0, %d), its groups' over the band",
				it, len(a), len(b), d, th, got, band)
		}
	}
}

// TestStatsComputedRanks: over ranks every rank counts every rank's
// cells, the same figure: every word over every column without the band,
// the single process's under a cap.
func TestStatsComputedRanks(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	for it := range 6 {
		a := dpRandSeq[uint8](r, 3000+r.IntN(3000), 4, 0)
		b := dpMutate(r, a, len(a)/20, 4)
		ta, tb := trimCommon(a, b)
		c := config{ctx: context.Background(), bundle: r.IntN(3)}
		var want int64
		switch it % 3 {
		case 0:
			c.noBand, want = true, wordCells(len(ta), len(tb))
		case 1:
			c.capped, c.maxD = true, abs(len(a)-len(b))+r.IntN(200)
			var st Stats
			one := c
			one.stats = &st
			if _, err := myersDistance(a, b, &one, 2); err != nil {
				t.Fatal(err)
			}
			want = st.Computed
		}
		size := 2 + r.IntN(3)
		stats := make([]Stats, size)
		_, errs, _ := overRanks(size, func(rk Ranks) (int, error) {
			rc := c
			rc.ranks, rc.stats = rk, &stats[rk.Rank()]
			return myersDistance(a, b, &rc, 1+it%2)
		})
		for rank, st := range stats {
			switch {
			case errs[rank] != nil:
				t.Fatalf("it %d, rank %d: %v", it, rank, errs[rank])
			case st.Computed <= 0 || st.Computed > 2*wordCells(len(ta), len(tb)):
				t.Errorf("it %d, rank %d of %d: computed %d, want in (0, 2·%d]", it, rank, size, st.Computed, wordCells(len(ta), len(tb)))
			case want > 0 && st.Computed != want:
				t.Errorf("it %d, rank %d of %d: computed %d, want %d", it, rank, size, st.Computed, want)
			case st.Computed != stats[0].Computed:
				t.Errorf("it %d: rank %d computed %d, rank 0 %d", it, rank, st.Computed, stats[0].Computed)
			}
		}
	}
}
