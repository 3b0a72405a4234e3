package lev_test

import (
	"testing"

	"github.com/levlab/levlab/lev"
	"github.com/levlab/levlab/lev/levtest"
)

// TestConformance runs every algorithm, Auto and the GPU ones included,
// through levtest's suite. A GPU algorithm skips, saying why, where CUDA is
// unavailable (fails instead under LEVLAB_REQUIRE_GPU=1). A failure logs the
// LEVTEST_SEED that replays it.
func TestConformance(t *testing.T) {
	for _, alg := range lev.Algorithms() {
		t.Run(alg.String(), func(t *testing.T) {
			t.Parallel()
			levtest.Run(t, alg)
		})
	}
}

// TestConformancePairs runs the suite through Cross, a pair a call: the
// block kernel (Auto) and every other algorithm's many-pairs path.
// cuda-diagonal and cuda-matrix take no many pairs (Cross refuses them).
func TestConformancePairs(t *testing.T) {
	for _, alg := range lev.Algorithms() {
		switch {
		case alg == lev.CUDADiagonal || alg == lev.CUDAMatrix:
			continue
		case lev.RaceEnabled && alg != lev.Auto && alg != lev.TwoRow && alg != lev.CUDAFast:
			// Under the race detector: the block kernel (auto), the
			// path every other algorithm shares (tworow), and the GPU's.
			continue
		}
		t.Run(alg.String(), func(t *testing.T) {
			t.Parallel()
			levtest.RunPairs(t, alg)
		})
	}
}

// TestConformanceAlign runs the suite through Align: every case's
// alignment is checked edit by edit, then its distance as any algorithm's.
func TestConformanceAlign(t *testing.T) {
	levtest.RunAlign(t)
}
