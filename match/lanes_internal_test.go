package match

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomLanePatterns returns n patterns of lengths in [lo, hi] over the
// alphabet.
func randomLanePatterns(rng *rand.Rand, n, lo, hi int, alphabet string) [][]byte {
	pats := make([][]byte, n)
	for i := range pats {
		p := make([]byte, lo+rng.IntN(hi-lo+1))
		for j := range p {
			p[j] = alphabet[rng.IntN(len(alphabet))]
		}
		pats[i] = p
	}
	return pats
}

// TestLaneKernelsTwin: the vector lane kernels and laneAdvanceGo, given
// the same bundle and text, take the same symbols, report the same hits
// and leave the same state, call after call, for both lane widths, one to
// four groups of any number of lanes, patterns of every length and k, over
// small and large alphabets.
func TestLaneKernelsTwin(t *testing.T) {
	if len(laneVectors[uint32]()) == 0 {
		t.Skip("no vector lane kernel here: laneAdvanceGo is the only one")
	}
	rng := rand.New(rand.NewPCG(11, 5))
	for trial := range 600 {
		alphabet := []string{"01", "ACGT", "abcdefghijklmnopqrstuvwxyz"}[trial%3]
		text := randomLanePatterns(rng, 1, 0, 3000, alphabet)[0]
		wide := trial%2 == 1
		hi, lanes := 32, 16
		if wide {
			hi, lanes = 64, 8
		}
		k := rng.IntN(8)
		var pats [][]byte
		var groups [][]int
		for range 1 + rng.IntN(laneGroupsMax) { // fewer for a kernel of fewer
			var g []int
			for _, p := range randomLanePatterns(rng, 1+rng.IntN(lanes), k+1, max(k+1, hi), alphabet) {
				g = append(g, len(pats))
				pats = append(pats, p)
			}
			groups = append(groups, g)
		}
		for range 1 + rng.IntN(10) { // copies of patterns, so that lanes hit
			p := pats[rng.IntN(len(pats))]
			text = slices.Insert(text, rng.IntN(len(text)+1), p...)
		}
		name := fmt.Sprintf("trial %d (wide %v, %d groups, k %d, text %d)", trial, wide, len(groups), k, len(text))
		if wide {
			twinCheck(t, name, pats, groups, k, text, rng, laneVectors[uint64]())
		} else {
			twinCheck(t, name, pats, groups, k, text, rng, laneVectors[uint32]())
		}
	}
}

// twinCheck runs each vector kernel of ks that steps as many groups beside
// laneAdvanceGo.
func twinCheck[W laneWord](t *testing.T, name string, pats [][]byte, groups [][]int, k int, text []byte, rng *rand.Rand, ks []laneKernelOf[W]) {
	t.Helper()
	for _, kern := range ks {
		if len(groups) > kern.groups {
			continue
		}
		twinRun(t, name+" "+kern.name, newLaneBundle[W](pats, groups, k, nil), kern, text, rng)
	}
}

func twinRun[W laneWord](t *testing.T, name string, b *laneBundle[W], kern laneKernelOf[W], text []byte, rng *rand.Rand) {
	t.Helper()
	vec := slices.Clone(b.init)
	twin := slices.Clone(b.init)
	hits := 0
	for i := 0; i < len(text); {
		end := min(len(text), i+1+rng.IntN(200))
		n1, h1 := kern.advance(b.tab, vec, b.groups, text[i:end])
		n2, h2 := laneAdvanceGo(b.tab, twin, b.groups, text[i:end])
		if n1 != n2 || h1 != h2 || !slices.Equal(vec, twin) {
			t.Fatalf("%s: at %d: vector kernel took %d symbols, hits %#x; Go twin %d, %#x; states equal: %v",
				name, i, n1, h1, n2, h2, slices.Equal(vec, twin))
		}
		if h1 != 0 {
			hits++
		}
		i += n1
	}
	if hits == 0 {
		t.Errorf("%s: no lane hit: the planted copies should have", name)
	}
}

// BenchmarkLaneKernel times a bundle of one to four groups over 1 MiB of
// random DNA, patterns of 3/4 of the lane's width, k = 3: the bundle's
// patterns times the symbols per second, in bytes (SetBytes).
//
//	go test -run '^$' -bench LaneKernel ./match
func BenchmarkLaneKernel(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	text := randomLanePatterns(rng, 1, 1<<20, 1<<20, "ACGT")[0]
	for _, w := range []int{32, 64} {
		if w == 32 {
			benchKernels(b, text, rng, w, laneVectors[uint32]())
		} else {
			benchKernels(b, text, rng, w, laneVectors[uint64]())
		}
	}
}

func benchKernels[W laneWord](b *testing.B, text []byte, rng *rand.Rand, w int, ks []laneKernelOf[W]) {
	ks = append(ks, laneKernelOf[W]{name: "go", groups: 1, advance: laneAdvanceGo[W]})
	for _, kern := range ks {
		for groups := 1; groups <= kern.groups; groups++ {
			b.Run(fmt.Sprintf("lane=%d/kernel=%s/groups=%d", w, kern.name, groups), func(b *testing.B) {
				lanes := 512 / w
				pats := randomLanePatterns(rng, lanes*groups, w*3/4, w*3/4, "ACGT")
				idx := make([][]int, groups)
				for i := range pats {
					idx[i/lanes] = append(idx[i/lanes], i)
				}
				b.SetBytes(int64(len(text) * len(pats)))
				benchBundle(b, newLaneBundle[W](pats, idx, 3, nil), text, kern.advance)
			})
		}
	}
}

func benchBundle[W laneWord](b *testing.B, bu *laneBundle[W], text []byte, adv func(tab, st []W, groups int, t []byte) (int, uint64)) {
	st := slices.Clone(bu.init)
	for b.Loop() {
		copy(st, bu.init)
		for i := 0; i < len(text); {
			n, _ := adv(bu.tab, st, bu.groups, text[i:])
			i += n
		}
	}
}

// TestLaneBundles: which patterns lanes take, and how they are dealt: the
// long ones and those of at most k symbols left to their own scans, the
// others shortest first into 32- and 64-bit groups, as few bundles a width
// as hold them, evenly; and no lanes below lanesMin's work.
func TestLaneBundles(t *testing.T) {
	// The portable kernel's bundles, of up to laneGroupsMax groups, as the
	// AVX-512 kernel's (the AVX2 kernel takes two).
	defer func(a, b, c bool) { useAVX512Lanes, useAVX2Lanes, lanesGo = a, b, c }(useAVX512Lanes, useAVX2Lanes, lanesGo)
	useAVX512Lanes, useAVX2Lanes, lanesGo = false, false, true
	rng := rand.New(rand.NewPCG(1, 1))
	lengths := []int{24, 3, 70, 40, 24, 64, 65, 2, 10}
	var pats [][]byte
	for range 12 {
		for _, m := range lengths {
			pats = append(pats, randomLanePatterns(rng, 1, m, m, "ACGT")[0])
		}
	}
	var mem [][]uint64
	bundles, rest := laneBundles(pats, 2, &mem)
	var wantRest []int
	for i, p := range pats {
		if len(p) <= 2 || len(p) > 64 {
			wantRest = append(wantRest, i)
		}
	}
	if !slices.Equal(rest, wantRest) {
		t.Errorf("rest %v, want %v", rest, wantRest)
	}
	// 12·4 = 48 patterns of ≤ 32 (3 groups of 16, one bundle), 12·2 = 24
	// of 33–64 (3 groups of 8, one bundle).
	var shape []int
	seen := map[int]bool{}
	last := 0
	for _, b := range bundles {
		pats, ms := b.lanes()
		groups := 0
		for g := range laneGroupsMax {
			if pats[16*g] >= 0 {
				groups++
			}
		}
		shape = append(shape, groups)
		for l, i := range pats {
			if i < 0 {
				continue
			}
			if seen[i] || ms[l] < last {
				t.Errorf("pattern %d twice, or out of order (length %d after %d)", i, ms[l], last)
			}
			seen[i] = true
			last = ms[l]
		}
	}
	if !slices.Equal(shape, []int{3, 3}) || len(seen) != len(pats)-len(wantRest) {
		t.Errorf("bundles of %v groups holding %d patterns, want [3 3] holding %d", shape, len(seen), len(pats)-len(wantRest))
	}
	// 5 groups are dealt to bundles of 2 and 3.
	five := randomLanePatterns(rng, 5*16, 20, 20, "ACGT")
	bundles, _ = laneBundles(five, 2, &mem)
	shape = shape[:0]
	for _, b := range bundles {
		shape = append(shape, b.(*laneBundle[uint32]).groups)
	}
	if !slices.Equal(shape, []int{2, 3}) {
		t.Errorf("5 groups dealt as %v, want [2 3]", shape)
	}
	// Work: 15 filtered patterns are too few, 16 enough; 2 unfiltered
	// (pieces of 12/3 = 4 symbols) are enough.
	for _, c := range []struct {
		n, m  int
		lanes bool
	}{{15, 24, false}, {16, 24, true}, {1, 12, false}, {2, 12, true}} {
		p := randomLanePatterns(rng, c.n, c.m, c.m, "ACGT")
		if b, _ := laneBundles(p, 2, &mem); (b != nil) != c.lanes {
			t.Errorf("%d patterns of %d, k = 2: lanes %v, want %v", c.n, c.m, b != nil, c.lanes)
		}
	}
	// The portable kernel is slower than the patterns' own scans: no
	// lanes where it is the only one, unless asked.
	lanesGo = false
	if b, _ := laneBundles(five, 2, &mem); b != nil {
		t.Errorf("lanes with no vector kernel, not asked for")
	}
}
