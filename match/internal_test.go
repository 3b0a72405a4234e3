package match

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMatchKernels times apm-fast's kernels on one goroutine, with and
// without the q-gram filter, on random text over 2 and 4 symbols (pattern of
// 22, k = 2): what the filter buys where its keys are rare (ACGT) and what
// it costs where they are not (binary, where it gives up).
//
//	go test -run '^$' -bench MatchKernels -benchtime 3x ./lev
func BenchmarkMatchKernels(b *testing.B) {
	const n, m, k = 1 << 24, 22, 2
	for _, alphabet := range []string{"01", "ACGT"} {
		rng := rand.New(rand.NewPCG(5, uint64(len(alphabet))))
		text := make([]byte, n)
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		p := make([]byte, m)
		for i := range p {
			p[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for _, mode := range []Mode{Window, Occurrence} {
			for _, filter := range []bool{false, true} {
				name := fmt.Sprintf("alphabet=%d/mode=%s/filter=%v", len(alphabet), mode, filter)
				b.Run(name, func(b *testing.B) {
					pp := newPattern(p, k, true)
					if !filter {
						pp.filter = nil
					}
					kernel := kernels[mode][Fast]
					b.SetBytes(n)
					for b.Loop() {
						kernel(pp, text, 0, n, k, &poller{})
					}
				})
			}
		}
	}
}

// TestQgramFilterRuns checks the filter's runs against its definition on
// random text with planted pieces: every end in [a, b) that is within k of
// p (by the search DP) lies in a run, and runs are increasing, disjoint and
// within [a, b).
func TestQgramFilterRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		m := 10 + rng.IntN(60)
		k := rng.IntN(m/5 + 1)
		p := make([]byte, m)
		for i := range p {
			p[i] = "ACGT"[rng.IntN(4)]
		}
		f := newQgramFilter(p, k)
		if f == nil {
			continue
		}
		n := rng.IntN(2000)
		text := make([]byte, n)
		for i := range text {
			text[i] = "ACGT"[rng.IntN(4)]
		}
		for range rng.IntN(8) {
			if n >= m {
				copy(text[rng.IntN(n-m+1):], p)
			}
		}
		a := rng.IntN(n + 1)
		b := a + rng.IntN(n-a+1)
		in := make([]bool, n)
		last := a
		f.runs(text, a, b, rng.IntN(m+k+1), func(rs, re int) {
			if rs < last || re <= rs || re > b {
				t.Fatalf("run [%d, %d) after %d, range [%d, %d)", rs, re, last, a, b)
			}
			last = re
			for e := rs; e < re; e++ {
				in[e] = true
			}
		})
		// Sellers' DP: col[i] = least distance of p[:i] to a substring
		// ending at the current position.
		col := make([]int, m+1)
		for i := range col {
			col[i] = i
		}
		for e := range b {
			diag := 0
			for i := 1; i <= m; i++ {
				cost := 1
				if p[i-1] == text[e] {
					cost = 0
				}
				old := col[i]
				col[i] = min(old+1, col[i-1]+1, diag+cost)
				diag = old
			}
			if e >= a && col[m] <= k && !in[e] {
				t.Fatalf("m=%d k=%d: end %d is within k (%d) but in no run", m, k, e, col[m])
			}
		}
	}
}
