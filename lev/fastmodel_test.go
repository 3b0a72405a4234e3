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
