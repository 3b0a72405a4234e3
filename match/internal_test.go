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
					pp := new(pattern)
					pp.reset(p, k, true)
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
	for _, avx512 := range filterKernels() {
		t.Run(fmt.Sprintf("avx512=%v", avx512), func(t *testing.T) {
			defer func(saved bool) { useAVX512Filter = saved }(useAVX512Filter)
			useAVX512Filter = avx512
			testQgramFilterRuns(t)
		})
	}
}

// filterKernels lists the settings of useAVX512Filter this CPU runs.
func filterKernels() []bool {
	if useAVX512Filter {
		return []bool{false, true}
	}
	return []bool{false}
}

func testQgramFilterRuns(t *testing.T) {
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

// TestNextKeyAVX512 checks the vector key search against its definition:
// the first start from q whose masked word is a key, or, where it found
// none, the first start it did not look at, past len(t)−16 (and at most
// len(t)−8: it looks at every start it has 16 bytes for). Texts over 2 and
// 4 symbols with keys planted, keys of 5 to 8 bytes, 1 to 8 keys.
func TestNextKeyAVX512(t *testing.T) {
	if !useAVX512Filter {
		t.Skip("no AVX-512 BW on this CPU: nextKey alone runs")
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for it := range 3000 {
		alphabet := []string{"01", "ACGT"}[it%2]
		text := make([]byte, 16+rng.IntN(300))
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		lk := 5 + rng.IntN(4)
		mask := ^uint64(0) >> (64 - 8*lk)
		nkeys := 1 + rng.IntN(maxExactKeys)
		var keys [maxExactKeys]uint64
		for i := range keys {
			if i >= nkeys {
				keys[i] = keys[0]
				continue
			}
			key := make([]byte, lk)
			for j := range key {
				key[j] = alphabet[rng.IntN(len(alphabet))]
			}
			copy(text[rng.IntN(len(text)-lk+1):], key)
			keys[i] = keyAt(key, 0, lk)
		}
		isKey := func(q int) bool {
			w := keyAt(text, q, 8) & mask
			for _, k := range keys[:nkeys] {
				if w == k {
					return true
				}
			}
			return false
		}
		q := rng.IntN(len(text) - 15)
		next, found := nextKeyAVX512(text, &keys, nkeys, mask, q)
		first := q // the first key start from q, len(text)−7 if none
		for first <= len(text)-8 && !isKey(first) {
			first++
		}
		switch {
		case found && next != first:
			t.Fatalf("it %d: %d keys of %d bytes, from %d in %d bytes: found %d, want %d",
				it, nkeys, lk, q, len(text), next, first)
		case !found && (next <= len(text)-16 || next > len(text)-8 || first < next):
			t.Fatalf("it %d: %d keys of %d bytes, from %d in %d bytes: none up to %d, but the first is %d",
				it, nkeys, lk, q, len(text), next, first)
		}
	}
}
