package match_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/match"
)

// refWindow is report 003's count, straight from its definition: for each
// start j in [from, to), size = min(len(p), len(text)−j), and a match when
// the distance of p[:size] and text[j:j+size] is at most k.
func refWindow(text, p []byte, k, from, to int) int64 {
	var count int64
	for j := from; j < to; j++ {
		size := min(len(p), len(text)-j)
		if levtest.Reference(p[:size], text[j:j+size]) <= k {
			count++
		}
	}
	return count
}

// refOccurrence counts the ends j in [from, to) where some substring
// text[i..j] (empty included) is within k of p, by Sellers' DP over the
// whole text: D[0][j] = 0, D[i][0] = i, D[i][j] the least distance between
// p[:i] and a substring ending at j.
func refOccurrence(text, p []byte, k, from, to int) int64 {
	m := len(p)
	prev := make([]int, m+1)
	cur := make([]int, m+1)
	for i := range prev {
		prev[i] = i
	}
	var count int64
	for j := range text[:to] {
		cur[0] = 0
		for i := 1; i <= m; i++ {
			if p[i-1] == text[j] {
				cur[i] = prev[i-1]
			} else {
				cur[i] = 1 + min(prev[i-1], prev[i], cur[i-1])
			}
		}
		prev, cur = cur, prev
		if j >= from && prev[m] <= k {
			count++
		}
	}
	return count
}

func reference(mode match.Mode, text []byte, patterns [][]byte, k, from, to int) []int64 {
	out := make([]int64, len(patterns))
	for i, p := range patterns {
		if mode == match.Window {
			out[i] = refWindow(text, p, k, from, to)
		} else {
			out[i] = refOccurrence(text, p, k, from, to)
		}
	}
	return out
}

var (
	matchModes = []match.Mode{match.Window, match.Occurrence}
	// The concrete algorithms; auto is apm-fast.
	matchAlgs    = []match.Algorithm{match.Naive, match.Fast}
	matchWorkers = []int{1, 2, 3, 8}
)

func equalCounts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkAll runs every algorithm with every worker count on one input and
// compares with the reference.
func checkAll(t *testing.T, mode match.Mode, text []byte, patterns [][]byte, k int, extra ...match.Option) {
	t.Helper()
	from, to := 0, len(text)
	want := reference(mode, text, patterns, k, from, to)
	for _, alg := range matchAlgs {
		for _, w := range matchWorkers {
			opts := append([]match.Option{match.WithMode(mode), match.WithAlgorithm(alg), match.WithWorkers(w)}, extra...)
			got, err := match.Count(text, patterns, k, opts...)
			if err != nil {
				t.Fatalf("mode=%s alg=%s workers=%d: %v", mode, alg, w, err)
			}
			if !equalCounts(got, want) {
				t.Fatalf("mode=%s alg=%s workers=%d k=%d len(text)=%d pattern lengths %v: got %v, want %v\ntext %q\npatterns %q",
					mode, alg, w, k, len(text), lens(patterns), got, want, clip(text), clipAll(patterns))
			}
		}
	}
}

func lens(ps [][]byte) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = len(p)
	}
	return out
}

func clip(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

func clipAll(ps [][]byte) [][]byte {
	out := make([][]byte, len(ps))
	for i, p := range ps {
		out[i] = clip(p)
	}
	return out
}

func TestCountMatchesFixed(t *testing.T) {
	for _, tc := range []struct {
		mode     match.Mode
		text, p  string
		k        int
		want     int64
		whyClear string
	}{
		{match.Window, "abcabd", "abd", 0, 1, "only j=3 is abd"},
		{match.Window, "abcabd", "abd", 1, 3, "j=0 abc, j=3 abd, j=5 d vs a"},
		{match.Window, "abcabd", "abd", 2, 5, "also j=2 cab and j=4 bd vs ab"},
		{match.Window, "abcabd", "abd", 3, 6, "k >= len(p): every window"},
		{match.Occurrence, "abcabd", "abd", 0, 1, "ends at 5"},
		{match.Occurrence, "abcabd", "abd", 3, 6, "the empty substring is within 3"},
		{match.Window, "", "abd", 1, 0, "empty text"},
		{match.Occurrence, "", "abd", 5, 0, "empty text"},
		{match.Window, "ab", "abcdef", 0, 1, "pattern longer than text: ab vs ab, b vs a"},
		{match.Occurrence, "ab", "abcdef", 4, 1, "ab ends at 1, 4 edits from abcdef"},
		{match.Window, "aaaa", "a", 0, 4, "every position"},
		{match.Occurrence, "xaxa", "a", 0, 2, "ends 1 and 3"},
		{match.Window, "xaxa", "ab", math.MaxInt, 4, "k past any distance"},
		{match.Occurrence, "xaxa", "ab", math.MaxInt, 4, "k past any distance"},
	} {
		name := fmt.Sprintf("%s/%q/%q/k=%d", tc.mode, tc.text, tc.p, tc.k)
		t.Run(name, func(t *testing.T) {
			text, pats := []byte(tc.text), [][]byte{[]byte(tc.p)}
			if ref := reference(tc.mode, text, pats, tc.k, 0, len(text)); ref[0] != tc.want {
				t.Fatalf("reference = %d, want %d (%s)", ref[0], tc.want, tc.whyClear)
			}
			checkAll(t, tc.mode, text, pats, tc.k)
		})
	}
}

// randomPatterns returns patterns of the given length: one drawn at random,
// one cut from text and mutated (so that there are matches), one of a single
// repeated symbol.
func randomPatterns(rng *rand.Rand, text []byte, m int, alphabet string) [][]byte {
	ps := [][]byte{levtest.RandomBytes(rng, m, alphabet)}
	if len(text) >= m {
		i := rng.IntN(len(text) - m + 1)
		p := levtest.Mutate(rng, text[i:i+m], rng.IntN(3), alphabet)
		if len(p) == 0 {
			p = []byte{alphabet[0]}
		}
		ps = append(ps, p)
	}
	ps = append(ps, []byte(strings.Repeat(alphabet[:1], m)))
	return ps
}

// TestCountMatchesRandom compares every algorithm, mode and worker count
// with the reference on random texts over alphabets of 2, 4 and 256 symbols,
// pattern lengths around the word size, and k from 0 past the pattern's
// length.
func TestCountMatchesRandom(t *testing.T) {
	t.Logf("base seed %d (%s replays it)", levtest.Seed(t), levtest.SeedEnv)
	alphabets := map[string]string{"binary": levtest.Binary, "dna": levtest.DNA, "bytes": levtest.AllBytes}
	for _, m := range []int{1, 2, 5, 22, 63, 64, 65, 130, 200} {
		for aname, alphabet := range alphabets {
			if matchRace && (aname != "dna" || m == 2 || m == 63 || m == 130 || m == 200) {
				continue // the race detector is for the driver: fewer kernels' cases
			}
			t.Run(fmt.Sprintf("m=%d/alphabet=%s", m, aname), func(t *testing.T) {
				rng := levtest.NewRand(t)
				// Keep the reference's n·m² cells bounded.
				budget := 400_000
				if matchRace {
					budget /= 8
				}
				nmax := max(m+16, min(3000, budget/(m*m)))
				ns := []int{0, 1, m - 1, m + 1, rng.IntN(nmax) + 1, nmax}
				if m > 64 {
					ns = []int{0, m - 1, m + 1, nmax}
				}
				for _, n := range ns {
					text := levtest.RandomBytes(rng, n, alphabet)
					pats := randomPatterns(rng, text, m, alphabet)
					ks := []int{0, 1 + rng.IntN(3), m / 4, m - 1, m + 2}
					for i, k := range ks {
						if k < 0 || slices.Contains(ks[:i], k) {
							continue
						}
						for _, mode := range matchModes {
							checkAll(t, mode, text, pats, k)
						}
					}
				}
			})
		}
	}
}

// TestCountMatchesAllBytes puts every byte value in text and pattern.
func TestCountMatchesAllBytes(t *testing.T) {
	copies := 3
	if matchRace {
		copies = 1
	}
	text := make([]byte, 0, copies*256)
	for range copies {
		for c := range 256 {
			text = append(text, byte(255-c))
		}
	}
	rng := levtest.NewRand(t)
	rng.Shuffle(len(text)/2, func(i, j int) { text[i], text[j] = text[j], text[i] })
	pats := [][]byte{[]byte(levtest.AllBytes[:70]), text[200:222], {0}, {255, 0, 1}, text[100:165]}
	for _, k := range []int{0, 1, 3, 10} {
		for _, mode := range matchModes {
			checkAll(t, mode, text, pats, k)
		}
	}
}

// TestCountMatchesRange checks that the counts over the pieces of a
// partition of the positions add up to the whole, and that the chunks MPI
// ranks receive — a piece plus its context — give the same counts.
func TestCountMatchesRange(t *testing.T) {
	rng := levtest.NewRand(t)
	ms := []int{1, 7, 22, 64, 65, 100}
	if matchRace {
		ms = []int{1, 22, 65}
	}
	for _, m := range ms {
		n := 300 + rng.IntN(300)
		if matchRace {
			n /= 2
		}
		text := levtest.RandomBytes(rng, n, levtest.DNA)
		pats := randomPatterns(rng, text, m, levtest.DNA)
		cuts := []int{0}
		for c := 0; c < n; {
			c = min(n, c+1+rng.IntN(n/3))
			cuts = append(cuts, c)
		}
		for _, k := range []int{0, 2, m / 3} {
			for _, mode := range matchModes {
				for _, alg := range matchAlgs {
					base := []match.Option{match.WithMode(mode), match.WithAlgorithm(alg), match.WithWorkers(3)}
					whole, err := match.Count(text, pats, k, base...)
					if err != nil {
						t.Fatal(err)
					}
					if want := reference(mode, text, pats, k, 0, n); !equalCounts(whole, want) {
						t.Fatalf("m=%d k=%d %s %s: whole text %v, want %v", m, k, mode, alg, whole, want)
					}
					sum := make([]int64, len(pats))
					sumChunk := make([]int64, len(pats))
					for i := 1; i < len(cuts); i++ {
						lo, hi := cuts[i-1], cuts[i]
						got, err := match.Count(text, pats, k, append(base, match.WithRange(lo, hi))...)
						if err != nil {
							t.Fatal(err)
						}
						var chunk []byte
						var r0, r1 int
						// Ranks cut for the longest pattern (Mutate may have
						// lengthened one).
						mp := slices.Max(lens(pats))
						if mode == match.Window {
							chunk, r0, r1 = text[lo:min(hi+mp-1, n)], 0, hi-lo
						} else {
							s := max(0, lo-(mp+k))
							chunk, r0, r1 = text[s:hi], lo-s, hi-s
						}
						gotChunk, err := match.Count(chunk, pats, k, append(base, match.WithRange(r0, r1))...)
						if err != nil {
							t.Fatal(err)
						}
						if want := reference(mode, text, pats, k, lo, hi); !equalCounts(got, want) || !equalCounts(gotChunk, want) {
							t.Fatalf("m=%d k=%d %s %s range [%d, %d): %v, as a chunk %v, want %v", m, k, mode, alg, lo, hi, got, gotChunk, want)
						}
						for p := range sum {
							sum[p] += got[p]
							sumChunk[p] += gotChunk[p]
						}
					}
					if !equalCounts(sum, whole) || !equalCounts(sumChunk, whole) {
						t.Fatalf("m=%d k=%d %s %s: pieces sum to %v, chunks to %v, whole %v", m, k, mode, alg, sum, sumChunk, whole)
					}
				}
			}
		}
	}
}

func TestCountMatchesErrors(t *testing.T) {
	text, pats := []byte("ACGTACGT"), [][]byte{[]byte("ACG")}
	for _, tc := range []struct {
		name     string
		text     []byte
		patterns [][]byte
		k        int
		opts     []match.Option
		want     []string // substrings of the message
	}{
		{"negative k", text, pats, -1, nil, []string{"k = -1", ">= 0"}},
		{"no patterns", text, nil, 1, nil, []string{"no patterns"}},
		{"empty pattern", text, [][]byte{[]byte("A"), {}}, 1, nil, []string{"pattern 1 is empty"}},
		{"ratio below 0", text, pats, 1, []match.Option{match.WithGPURatio(-0.5)}, []string{"-0.5", "[0, 1]"}},
		{"ratio above 1", text, pats, 1, []match.Option{match.WithGPURatio(1.5)}, []string{"1.5", "[0, 1]"}},
		{"ratio NaN", text, pats, 1, []match.Option{match.WithGPURatio(math.NaN())}, []string{"NaN", "[0, 1]"}},
		{"ratio with occurrence", text, pats, 1, []match.Option{match.WithGPURatio(0.5), match.WithMode(match.Occurrence)},
			[]string{"0.5", "occurrence", "window mode only"}},
		{"range negative", text, pats, 1, []match.Option{match.WithRange(-1, 3)}, []string{"[-1, 3)"}},
		{"range reversed", text, pats, 1, []match.Option{match.WithRange(5, 3)}, []string{"[5, 3)"}},
		{"range past text", text, pats, 1, []match.Option{match.WithRange(2, 9)}, []string{"[2, 9)", "length 8"}},
		{"unknown mode", text, pats, 1, []match.Option{match.WithMode(match.Mode(9))}, []string{"9", "window, occurrence"}},
		{"unknown algorithm", text, pats, 1, []match.Option{match.WithAlgorithm(match.Algorithm(9))}, []string{"9", "apm-naive"}},
		{"workers", text, pats, 1, []match.Option{match.WithWorkers(-2)}, []string{"workers = -2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := match.Count(tc.text, tc.patterns, tc.k, tc.opts...)
			// One sentinel for both packages: a caller of both checks one.
			if !errors.Is(err, match.ErrInvalidOption) || !errors.Is(err, lev.ErrInvalidOption) {
				t.Fatalf("got %v, %v; want an error wrapping match.ErrInvalidOption, which is lev.ErrInvalidOption", got, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "match: ") {
				t.Errorf("error %q does not start with \"match: \"", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

func TestMatchNames(t *testing.T) {
	for _, m := range []match.Mode{match.Window, match.Occurrence} {
		got, err := match.ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
		var u match.Mode
		if b, err := m.MarshalText(); err != nil || u.UnmarshalText(b) != nil || u != m {
			t.Errorf("text round trip of %v: %q, %v, %v", m, b, err, u)
		}
	}
	if match.Window.String() != "window" || match.Occurrence.String() != "occurrence" {
		t.Errorf("mode names: %q, %q", match.Window, match.Occurrence)
	}
	all := match.Algorithms()
	wantNames := []string{"auto", "apm-naive", "apm-fast"}
	if len(all) != len(wantNames) || all[0] != match.Auto {
		t.Fatalf("Algorithms() = %v", all)
	}
	for i, a := range all {
		if a.String() != wantNames[i] {
			t.Errorf("%d: name %q, want %q", i, a, wantNames[i])
		}
		got, err := match.ParseAlgorithm(a.String())
		if err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", a, got, err)
		}
		var u match.Algorithm
		if b, err := a.MarshalText(); err != nil || u.UnmarshalText(b) != nil || u != a {
			t.Errorf("text round trip of %v: %q, %v, %v", a, b, err, u)
		}
	}
	for _, bad := range []string{"", "Window", "naive", "apm_fast"} {
		if _, err := match.ParseMode(bad); !errors.Is(err, match.ErrInvalidOption) || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Errorf("ParseMode(%q): %v", bad, err)
		}
		if _, err := match.ParseAlgorithm(bad); !errors.Is(err, match.ErrInvalidOption) || !strings.Contains(err.Error(), strconv.Quote(bad)) ||
			!strings.Contains(err.Error(), "apm-naive, apm-fast") {
			t.Errorf("ParseAlgorithm(%q): %v", bad, err)
		}
	}
}

// TestCountMatchesGPURatio: a GPU share is sent to cudaext, whose failure is
// the call's error; where a GPU works the counts equal the CPU's for ratios
// 0, 0.3, 0.5 and 1 (under LEVLAB_REQUIRE_GPU=1 a GPU that is found but
// cannot run the kernels fails the test).
func TestCountMatchesGPURatio(t *testing.T) {
	rng := levtest.NewRand(t)
	text := levtest.RandomBytes(rng, 2000, levtest.DNA)
	pats := randomPatterns(rng, text, 22, levtest.DNA)
	want := reference(match.Window, text, pats, 2, 0, len(text))
	for _, r := range []float64{0.3, 0.5, 1} {
		got, err := match.Count(text, pats, 2, match.WithGPURatio(r), match.WithWorkers(2))
		if cudaext.Available() != nil {
			if !errors.Is(err, cudaext.ErrUnavailable) || !strings.Contains(err.Error(), fmt.Sprint(r)) {
				t.Errorf("ratio %v without a GPU: %v, %v; want an error wrapping cudaext.ErrUnavailable naming the ratio", r, got, err)
			}
			continue
		}
		if err != nil && (!errors.Is(err, cudaext.ErrUnavailable) || os.Getenv(levtest.RequireGPUEnv) == "1") {
			t.Errorf("ratio %v: %v", r, err)
		} else if err == nil && !equalCounts(got, want) {
			t.Errorf("ratio %v: %v, want %v", r, got, want)
		}
	}
	// Ratio 0 is the CPU alone, whatever the machine.
	got, err := match.Count(text, pats, 2, match.WithGPURatio(0))
	if err != nil || !equalCounts(got, want) {
		t.Errorf("ratio 0: %v, %v, want %v", got, err, want)
	}
}

// TestCountMatchesCancel checks that a canceled context stops the workers
// promptly, with an error wrapping the context's.
func TestCountMatchesCancel(t *testing.T) {
	rng := levtest.NewRand(t)
	text := levtest.RandomBytes(rng, 1<<20, levtest.DNA)
	pats := [][]byte{levtest.RandomBytes(rng, 200, levtest.DNA)}
	for _, mode := range matchModes {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := match.Count(text, pats, 3, match.WithContext(ctx), match.WithMode(mode)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s, canceled before: %v, want context.Canceled", mode, err)
		}
		// apm-naive over 1 MiB with a pattern of 200 takes far longer
		// than the deadline.
		ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
		start := time.Now()
		_, err := match.Count(text, pats, 3, match.WithContext(ctx), match.WithMode(mode),
			match.WithAlgorithm(match.Naive), match.WithWorkers(3))
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want context.DeadlineExceeded", mode, err)
		}
		if took > time.Second {
			t.Errorf("%s: returned %v after the deadline of 30ms", mode, took)
		}
	}
}

// TestCountMatchesStats: WithStats gets the workers.
func TestCountMatchesStats(t *testing.T) {
	var s match.Stats
	if _, err := match.Count([]byte("ACGT"), [][]byte{[]byte("A")}, 0, match.WithWorkers(3), match.WithStats(&s)); err != nil {
		t.Fatal(err)
	}
	if s.Workers != 3 {
		t.Errorf("Stats.Workers = %d, want 3", s.Workers)
	}
}

func FuzzCountMatches(f *testing.F) {
	f.Add([]byte("ACGTTGCAACGT"), []byte("ACG"), uint8(1), uint8(0))
	f.Add([]byte("abcabd"), []byte("abd"), uint8(0), uint8(1))
	f.Add([]byte{0, 255, 0, 255, 1}, []byte{255, 0}, uint8(2), uint8(7))
	f.Add([]byte(strings.Repeat("ab", 50)), []byte(strings.Repeat("ba", 40)), uint8(5), uint8(3))
	f.Fuzz(func(t *testing.T, text, p []byte, k, sel uint8) {
		if len(p) == 0 || len(text) > 400 || len(p) > 150 {
			return
		}
		mode := matchModes[sel&1]
		alg := matchAlgs[sel>>1&1]
		w := int(sel>>2&3) + 1
		kk := int(k % 40)
		want := reference(mode, text, [][]byte{p}, kk, 0, len(text))
		got, err := match.Count(text, [][]byte{p}, kk, match.WithMode(mode), match.WithAlgorithm(alg), match.WithWorkers(w))
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != want[0] {
			t.Fatalf("mode=%s alg=%s workers=%d k=%d: %d, want %d", mode, alg, w, kk, got[0], want[0])
		}
	})
}

// TestCountMatchesPlanted plants copies of the pattern with up to k+1
// random edits in random text, so that apm-fast's q-gram filter sees many
// true hits, near one another and at chunk edges, over several alphabets.
func TestCountMatchesPlanted(t *testing.T) {
	t.Logf("base seed %d (%s replays it)", levtest.Seed(t), levtest.SeedEnv)
	rng := levtest.NewRand(t)
	n := 6000
	if matchRace {
		n = 1500
	}
	for _, alphabet := range []string{levtest.DNA, levtest.Lowercase, levtest.Binary} {
		for _, m := range []int{10, 22, 40, 64, 65, 150} {
			n := n
			if m > 64 {
				if matchRace && m > 65 {
					continue
				}
				n /= 3 // the window reference costs m² per position
			}
			for _, k := range []int{0, 1, 2, 3} {
				p := levtest.RandomBytes(rng, m, alphabet)
				text := levtest.RandomBytes(rng, n, alphabet)
				for range n / 100 {
					c := levtest.Mutate(rng, p, rng.IntN(k+2), alphabet)
					i := rng.IntN(n - len(c) + 1)
					copy(text[i:], c)
				}
				for _, mode := range matchModes {
					want := reference(mode, text, [][]byte{p}, k, 0, n)
					for _, w := range []int{1, 3} {
						got, err := match.Count(text, [][]byte{p}, k, match.WithMode(mode), match.WithWorkers(w))
						if err != nil {
							t.Fatal(err)
						}
						if got[0] != want[0] {
							t.Fatalf("alphabet %d symbols, m=%d k=%d %s workers=%d: %d, want %d", len(alphabet), m, k, mode, w, got[0], want[0])
						}
					}
				}
			}
		}
	}
}

// TestCountManyPlanted: many patterns at once, which apm-fast takes in
// lanes (lanes.go; here however few they are): lengths from 1 to 80 mixed (32- and 64-bit lanes,
// and patterns of over 64 symbols or of at most k, which lanes leave to
// the per-pattern path), copies with up to k+1 edits planted in random
// text, every mode, workers and a random range; each pattern's count must
// be the DP reference's.
func TestCountManyPlanted(t *testing.T) {
	defer match.SetLanes(1)() // lanes for every case, however few patterns
	t.Logf("base seed %d (%s replays it)", levtest.Seed(t), levtest.SeedEnv)
	rng := levtest.NewRand(t)
	n := 3000
	if matchRace {
		n = 800
	}
	for trial := range 24 {
		alphabet := []string{levtest.DNA, levtest.Lowercase, levtest.Binary, levtest.AllBytes}[trial%4]
		k := rng.IntN(5)
		pats := make([][]byte, 8+rng.IntN(60))
		for i := range pats {
			m := 1 + rng.IntN(80)
			if trial%3 == 0 {
				m = 20 + rng.IntN(10) // one width, similar lengths
			}
			pats[i] = levtest.RandomBytes(rng, m, alphabet)
		}
		text := levtest.RandomBytes(rng, n, alphabet)
		for range n / 50 {
			c := levtest.Mutate(rng, pats[rng.IntN(len(pats))], rng.IntN(k+2), alphabet)
			if len(c) <= n {
				copy(text[rng.IntN(n-len(c)+1):], c)
			}
		}
		from := rng.IntN(n / 4)
		to := n - rng.IntN(n/4)
		if trial%2 == 0 {
			from, to = 0, n
		}
		for _, mode := range matchModes {
			want := reference(mode, text, pats, k, from, to)
			w := 1 + rng.IntN(3)
			got, err := match.Count(text, pats, k, match.WithMode(mode), match.WithWorkers(w), match.WithRange(from, to))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("trial %d: %d patterns, alphabet of %d, k=%d %s workers=%d range [%d, %d): pattern %d (%d symbols): %d, want %d",
						trial, len(pats), len(alphabet), k, mode, w, from, to, i, len(pats[i]), got[i], want[i])
				}
			}
		}
	}
}

// FuzzCountMany: patterns cut from one input at each 0 byte (and, to have
// a dozen, rotations of them), counted all at once by apm-fast in lanes
// and each by the DP reference.
func FuzzCountMany(f *testing.F) {
	defer match.SetLanes(1)()
	f.Add([]byte("ACGTTGCAACGTACGGT"), []byte("ACG\x00CGTT\x00GGTA\x00T"), uint8(1), uint8(0))
	f.Add([]byte(strings.Repeat("ab", 60)), []byte("abab\x00bbaab\x00aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), uint8(2), uint8(3))
	f.Add([]byte{0, 255, 0, 255, 1, 7, 7, 7, 0}, []byte{255, 0, 7, 7, 1, 0, 255, 255}, uint8(0), uint8(5))
	f.Fuzz(func(t *testing.T, text, cut []byte, k, sel uint8) {
		if len(text) > 300 || len(cut) > 600 {
			return
		}
		var pats [][]byte
		for p := range bytes.SplitSeq(cut, []byte{0}) {
			if len(p) > 0 {
				pats = append(pats, p)
			}
		}
		if len(pats) == 0 {
			return
		}
		for i := 0; len(pats) < 12; i++ {
			p := pats[i]
			r := 1 % len(p)
			pats = append(pats, append(slices.Clone(p[r:]), p[:r]...))
		}
		mode := matchModes[sel&1]
		w := int(sel>>1&3) + 1
		kk := int(k % 12)
		want := reference(mode, text, pats, kk, 0, len(text))
		got, err := match.Count(text, pats, kk, match.WithMode(mode), match.WithWorkers(w))
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("mode=%s workers=%d k=%d: pattern %d %q: %d, want %d", mode, w, kk, i, pats[i], got[i], want[i])
			}
		}
	})
}
