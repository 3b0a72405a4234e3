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
			levtest.RunImpl(t, levtest.AlgorithmImpl(alg))
		})
	}
}

// TestConformanceKernels runs Myers, MyersParallel and Align through the
// suite with each Myers kernel this CPU has but the fastest, which
// TestConformance runs as every caller gets it: the portable loop, and
// AVX2 beside AVX-512.
func TestConformanceKernels(t *testing.T) {
	kernels := lev.MyersKernels()
	for _, k := range kernels[:len(kernels)-1] {
		for _, alg := range []lev.Algorithm{lev.Myers, lev.MyersParallel} {
			t.Run(k+"/"+alg.String(), func(t *testing.T) {
				t.Parallel()
				levtest.RunImpl(t, levtest.AlgorithmImpl(alg, lev.WithMyersKernel(k)))
			})
		}
		t.Run(k+"/align", func(t *testing.T) {
			t.Parallel()
			levtest.RunImpl(t, levtest.AlignImpl(lev.WithMyersKernel(k)))
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
			levtest.RunImpl(t, levtest.CrossImpl(alg))
		})
	}
}

// TestConformanceAlign runs the suite through Align: every case's
// alignment is checked edit by edit, then its distance as any algorithm's.
func TestConformanceAlign(t *testing.T) {
	levtest.RunImpl(t, levtest.AlignImpl())
}
