package lev

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// lanePaths returns the blockLanes paths this machine can run, each as a
// name and a function that selects it (and restores the machine's own).
func lanePaths() []struct {
	name string
	set  func() (restore func())
} {
	type path = struct {
		name string
		set  func() (restore func())
	}
	sel := func(avx512, avx2 bool) func() func() {
		return func() func() {
			s512, s2 := useAVX512, useAVX2
			useAVX512, useAVX2 = avx512, avx2
			return func() { useAVX512, useAVX2 = s512, s2 }
		}
	}
	paths := []path{{"go", sel(false, false)}}
	if useAVX2 {
		paths = append(paths, path{"avx2", sel(false, true)})
	}
	if useAVX512 {
		paths = append(paths, path{"avx512", sel(true, useAVX2)})
	}
	return paths
}

// TestBlockLanesPaths runs every lane path this machine has — AVX-512's
// eight lanes, AVX2's four, Go's four chains — on patterns and texts
// around the word sizes, texts of unequal and empty lengths in one call,
// bytes and wide codes, against the DP.
func TestBlockLanesPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 7))
	lengths := []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 200, 511}
	for _, p := range lanePaths() {
		t.Run(p.name, func(t *testing.T) {
			defer p.set()()
			L := laneWidth()
			for _, m := range lengths {
				for it := range 6 {
					sigma := []int{2, 4, 26, 256}[it%4]
					pat := dpRandSeq[uint8](r, m, sigma, 0)
					bp := newBlockPattern(pat, 256)
					ts := make([][]uint8, L)
					for l := range ts {
						switch n := lengths[r.IntN(len(lengths))]; {
						case l == 1 && m > 0:
							ts[l] = dpMutate(r, pat, r.IntN(5), sigma)
						default:
							ts[l] = dpRandSeq[uint8](r, n, sigma, 0)
						}
					}
					out := make([]int, L)
					var st laneState
					blockLanes(bp, ts, &st, out)
					for l, tx := range ts {
						if want := dpReference(pat, tx); out[l] != want {
							t.Errorf("m=%d σ=%d lane %d (n=%d): %d, want %d", m, sigma, l, len(tx), out[l], want)
						}
					}
				}
			}
			// Wide codes, past a byte.
			pat := dpRandSeq[uint32](r, 150, 1000, 0)
			bp := newBlockPattern(pat, 1000)
			ts := make([][]uint32, L)
			for l := range ts {
				ts[l] = dpMutate(r, pat, 10*l, 1000)
			}
			out := make([]int, L)
			blockLanes(bp, ts, &laneState{}, out)
			for l, tx := range ts {
				if want := dpReference(pat, tx); out[l] != want {
					t.Errorf("wide lane %d: %d, want %d", l, out[l], want)
				}
			}
		})
	}
}

// BenchmarkBlockLanes times each lane path on one pattern against texts
// of its length: GCUPS of the cells computed.
func BenchmarkBlockLanes(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, n := range []int{100, 750} {
		pat := dpRandSeq[uint8](r, n, 4, 0)
		bp := newBlockPattern(pat, 256)
		for _, p := range lanePaths() {
			b.Run(fmt.Sprintf("n=%d/%s", n, p.name), func(b *testing.B) {
				defer p.set()()
				ts := make([][]uint8, laneWidth())
				for l := range ts {
					ts[l] = dpRandSeq[uint8](r, n, 4, 0)
				}
				out := make([]int, len(ts))
				var st laneState
				for b.Loop() {
					blockLanes(bp, ts, &st, out)
				}
				b.ReportMetric(float64(n*n*len(ts))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GCUPS")
			})
		}
	}
}
