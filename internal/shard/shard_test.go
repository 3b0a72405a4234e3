package shard

import (
	"fmt"
	"math/rand/v2"
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
// smaller than the patterns so that shadows cross several parts.
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
