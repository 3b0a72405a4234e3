package shard

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// lev is the textbook two-row Levenshtein distance: the reference.
func lev(a, b []byte) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// windows counts the starts j in [from, to) of text whose window matches p
// within k (report 003's semantics).
func windows(text, p []byte, k, from, to int) int {
	c := 0
	for j := from; j < to; j++ {
		size := min(len(p), len(text)-j)
		if lev(p[:size], text[j:j+size]) <= k {
			c++
		}
	}
	return c
}

// occurrences counts the ends j in [from, to) of text (text[j] is the last
// byte of the substring) where some substring ending at j is within k of p.
func occurrences(text, p []byte, k, from, to int) int {
	c := 0
	for j := from; j < to; j++ {
		for s := j; s >= 0; s-- { // the substring text[s:j+1]
			if lev(p, text[s:j+1]) <= k {
				c++
				break
			}
			if j+1-s > len(p)+k {
				break
			}
		}
	}
	return c
}

func TestPartsCoverTheText(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 64, 1000} {
		for parts := 1; parts <= 9; parts++ {
			next := 0
			for i := range parts {
				w, err := Window(n, parts, i, 5)
				if err != nil {
					t.Fatal(err)
				}
				o, err := Occurrence(n, parts, i, 5, 2)
				if err != nil {
					t.Fatal(err)
				}
				if w.Lo != next || o.Lo != w.Lo || o.Hi != w.Hi || w.Hi < w.Lo {
					t.Fatalf("n=%d part %d/%d: window %+v, occurrence %+v, want to start at %d", n, i, parts, w, o, next)
				}
				next = w.Hi
				if w.Hi-w.Lo > n/parts+1 {
					t.Errorf("n=%d part %d/%d owns %d positions: not even", n, i, parts, w.Hi-w.Lo)
				}
				for _, p := range []Part{w, o} {
					if p.Start < 0 || p.End > n || p.Start > p.Lo || p.End < p.Hi || p.From != p.Lo-p.Start || p.To != p.Hi-p.Start {
						t.Errorf("n=%d part %d/%d: inconsistent %+v", n, i, parts, p)
					}
				}
			}
			if next != n {
				t.Errorf("n=%d in %d parts: the parts end at %d", n, parts, next)
			}
		}
	}
}

// TestShadowsSuffice counts every part of random texts with the reference
// and checks the sums against the count over the whole text, with parts
// smaller than the patterns so that shadows cross several parts, and k at
// least the longest pattern in a quarter of the trials.
func TestShadowsSuffice(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for trial := range 60 {
		n := rng.IntN(80)
		text := make([]byte, n)
		for i := range text {
			text[i] = "ab"[rng.IntN(2)]
		}
		p := make([]byte, 1+rng.IntN(9))
		for i := range p {
			p[i] = "ab"[rng.IntN(2)]
		}
		longest := len(p) + rng.IntN(3) // other patterns may be longer
		k := rng.IntN(3)
		if trial%4 == 0 {
			k = longest + rng.IntN(3) // clamped: every position matches
		}
		wantW, wantO := windows(text, p, k, 0, n), occurrences(text, p, k, 0, n)
		for parts := 1; parts <= 12; parts++ {
			gotW, gotO := 0, 0
			for i := range parts {
				w, _ := Window(n, parts, i, longest)
				gotW += windows(text[w.Start:w.End], p, k, w.From, w.To)
				o, _ := Occurrence(n, parts, i, longest, k)
				gotO += occurrences(text[o.Start:o.End], p, k, o.From, o.To)
			}
			if gotW != wantW || gotO != wantO {
				t.Fatalf("trial %d: text %q, pattern %q, k=%d, %d parts: window %d, occurrence %d; whole text %d, %d",
					trial, text, p, k, parts, gotW, gotO, wantW, wantO)
			}
		}
	}
}

func TestBadArguments(t *testing.T) {
	for _, c := range []struct{ n, parts, i, m, k int }{
		{-1, 1, 0, 1, 0}, {5, 0, 0, 1, 0}, {5, 2, 2, 1, 0}, {5, 2, -1, 1, 0}, {5, 2, 0, 0, 0}, {5, 2, 0, 1, -1},
	} {
		_, errW := Window(c.n, c.parts, c.i, c.m)
		_, errO := Occurrence(c.n, c.parts, c.i, c.m, c.k)
		if errO == nil || (c.k >= 0 && errW == nil) {
			t.Errorf("%+v: errors %v, %v; want both (window: unless only k is bad)", c, errW, errO)
		}
	}
}

func ExampleWindow() {
	// 10 bytes in 3 parts, patterns up to 4 bytes: each part reads 3
	// shadow bytes past its last position, but not past the text.
	for i := range 3 {
		p, _ := Window(10, 3, i, 4)
		fmt.Printf("positions [%d,%d) from text[%d:%d]\n", p.Lo, p.Hi, p.Start, p.End)
	}
	// Output:
	// positions [0,3) from text[0:6]
	// positions [3,6) from text[3:9]
	// positions [6,10) from text[6:10]
}

// checkPart fails the test where p is not a part of a text of n bytes:
// owned positions within the text, the bytes it is given around them and
// within the text, From and To relative to Start.
func checkPart(t *testing.T, what string, n int, p Part) {
	t.Helper()
	if p.Lo < 0 || p.Hi < p.Lo || p.Hi > n || p.Start < 0 || p.Start > p.Lo || p.End < p.Hi || p.End > n ||
		p.From != p.Lo-p.Start || p.To != p.Hi-p.Start || p.Bytes() < 0 {
		t.Errorf("%s: inconsistent %+v for a text of %d bytes", what, p, n)
	}
}

// TestExtremeSizes gives sizes at the ends of int: k = MaxInt (levlab match
// -k 9223372036854775807, which overflowed maxPattern+k-1 into a negative
// shadow and a part of negative length), patterns of nearly MaxInt bytes,
// texts of 0 bytes and of nearly MaxInt bytes (a sparse file). Every part
// must be consistent, the parts must cover the text, and a k at least the
// longest pattern must give the part of k = the longest pattern (lev
// clamps k so: every position matches either way).
func TestExtremeSizes(t *testing.T) {
	const maxInt = math.MaxInt
	for _, n := range []int{0, 1, 10, 1 << 40, maxInt - 1, maxInt} {
		for _, parts := range []int{1, 2, 3, 7, 1 << 20} {
			for _, m := range []int{1, 4, 1 << 40, maxInt/2 + 1, maxInt - 1, maxInt} {
				for _, k := range []int{0, 1, m - 1, m, m + 1, maxInt/2 + 1, maxInt - 1, maxInt} {
					if k < 0 {
						continue // m + 1 with m = MaxInt
					}
					next := 0
					// The first, middle and last parts, each once, in order.
					some := slices.Compact(slices.Sorted(slices.Values([]int{0, 1, 2, parts / 2, parts - 2, parts - 1})))
					for _, i := range some {
						if i < 0 || i >= parts {
							continue
						}
						what := fmt.Sprintf("n=%d, part %d of %d, longest %d, k %d", n, i, parts, m, k)
						w, err := Window(n, parts, i, m)
						if err != nil {
							t.Fatalf("%s: window: %v", what, err)
						}
						checkPart(t, what+", window", n, w)
						o, err := Occurrence(n, parts, i, m, k)
						if err != nil {
							t.Fatalf("%s: occurrence: %v", what, err)
						}
						checkPart(t, what+", occurrence", n, o)
						if o.Lo != w.Lo || o.Hi != w.Hi {
							t.Errorf("%s: window owns [%d, %d), occurrence [%d, %d)", what, w.Lo, w.Hi, o.Lo, o.Hi)
						}
						if i == 0 && w.Lo != 0 || i == parts-1 && w.Hi != n || i > 0 && i < parts-1 && w.Hi-w.Lo > n/parts+1 {
							t.Errorf("%s: owns [%d, %d): not the even split", what, w.Lo, w.Hi)
						}
						if k >= m {
							if c, _ := Occurrence(n, parts, i, m, m); o != c {
								t.Errorf("%s: %+v, want the part of k = %d, %+v", what, o, m, c)
							}
						}
						next = w.Hi
					}
					if next != n {
						t.Errorf("n=%d in %d parts: the last part ends at %d", n, parts, next)
					}
				}
			}
		}
	}
	// The cases the review found, exactly: 10 bytes, 3 ranks, -p ACGT.
	for i := range 3 {
		o, err := Occurrence(10, 3, i, 4, maxInt)
		if err != nil || o.Start != 0 || o.End != o.Hi || o.Hi != 10*(i+1)/3 {
			t.Errorf("part %d of 3 of 10 bytes, -p ACGT, k = MaxInt: %+v, %v; want text[0:%d]", i, o, err, 10*(i+1)/3)
		}
	}
}
