package lev_test

import (
	"fmt"
	"testing"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// fastSchedules are the geometries cuda-fast's schedule model runs the
// conformance suite with: the GPU's own (32 lanes of 32 rows) with few
// warps, and small ones under which short strings cross many bands, chunks
// and warps.
var fastSchedules = []cudaext.FastSchedule{
	cudaext.GPUSchedule(3, cudaext.DefaultChunk),
	{Lanes: 3, WordBits: 5, Chunk: 4, Warps: 2, Seed: 1},
	{Lanes: 2, WordBits: 64, Chunk: 1, Warps: 5, Seed: 2},
}

// TestCUDAFastModel runs the CPU model of cuda-fast's warp-systolic
// schedule (cudaext.FastModel) through the whole conformance suite: the
// schedule is proven on every case before it runs on a GPU. The suite's
// tile options become the model's column chunk only on the GPU; the model
// keeps its own.
func TestCUDAFastModel(t *testing.T) {
	for _, s := range fastSchedules {
		t.Run(fmt.Sprintf("lanes=%d/bits=%d/chunk=%d/warps=%d", s.Lanes, s.WordBits, s.Chunk, s.Warps), func(t *testing.T) {
			t.Parallel()
			levtest.RunImpl(t, levtest.AlgorithmImpl(lev.CUDAFast, lev.WithFastModel(s)))
		})
	}
}

// TestCUDAFastPairsModel runs cuda-fast's many-pairs job (cudaext.Pairs)
// through its CPU model: Cross and All with caps and tops, in tiles of a
// few queries, against the reference; and the conformance suite through
// Cross, a pair a job.
func TestCUDAFastPairsModel(t *testing.T) {
	rng := levtest.NewRand(t)
	a, b := randomSet(rng, 9, 150), randomSet(rng, 7, 150)
	for _, s := range fastSchedules {
		checkCrossAll(t, a, b, fmt.Sprintf("lanes=%d/bits=%d", s.Lanes, s.WordBits), []int{-1, 0, 40}, []int{0, 3},
			lev.WithAlgorithm(lev.CUDAFast), lev.WithFastModel(s))
	}
	for _, s := range fastSchedules {
		t.Run(fmt.Sprintf("conformance/lanes=%d/bits=%d/chunk=%d/warps=%d", s.Lanes, s.WordBits, s.Chunk, s.Warps), func(t *testing.T) {
			t.Parallel()
			levtest.RunImpl(t, levtest.CrossImpl(lev.CUDAFast, lev.WithFastModel(s)))
		})
	}
}
