package lev

import (
	"fmt"

	"github.com/levlab/levlab/cudaext"
)

// The GPU algorithms: thin calls into cudaext, which owns the kernels
// (cudaext/kernels/*.cu), their launches and their timing.
//
// cuda-diagonal follows report 000: one launch per antidiagonal (m+n+1),
// one thread per cell, three antidiagonal arrays on the device; O(mn) work,
// O(m+n) device memory. WithBlockSize sets the threads per block (default
// 256).
//
// cuda-matrix follows report 002: the whole (m+1)×(n+1) matrix of int32 on
// the device, one launch per antidiagonal, each thread finding its cell by
// the report's row-major index transform; O(mn) device memory. The
// allocation and initialisation of the matrix are timed apart
// (Stats.AllocSeconds), as the report measured with and without them.
//
// cuda-fast is levlab's: bit-parallel Myers/Hyyrö with 32 rows per lane,
// warps of 32 lanes passing the horizontal carry by shuffles, bands of
// 1024 rows handing column chunks (WithTile, default 128) to the next band
// through release/acquire progress counters, all in one persistent launch;
// O(⌈m/32⌉·n) word operations, O(m+n) device memory plus the match table.
// WithBlockSize must be whole warps (a multiple of 32; default 128).

func cudaDiagonal[S symbol](a, b []S, c *config) (int, error) {
	d, t, err := cudaext.Diagonal(c.ctx, a, b, c.block)
	c.gpuStats(t, len(a), len(b), err)
	return d, err
}

func cudaMatrix[S symbol](a, b []S, c *config) (int, error) {
	d, t, err := cudaext.Matrix(c.ctx, a, b, c.block)
	c.gpuStats(t, len(a), len(b), err)
	return d, err
}

func cudaFast[S symbol](a, b []S, c *config) (int, error) {
	if c.fastModel != nil {
		d, err := cudaext.FastModel(a, b, *c.fastModel)
		c.gpuStats(cudaext.Timing{}, len(a), len(b), err)
		return d, err
	}
	d, t, err := cudaext.Fast(c.ctx, a, b, cudaext.FastOptions{Block: c.block, Chunk: c.tile})
	c.gpuStats(t, len(a), len(b), err)
	return d, err
}

// gpuStats records a GPU job's timing in the caller's Stats and, when it
// succeeded, its cells: every kernel computes the whole m×n matrix.
func (c *config) gpuStats(t cudaext.Timing, m, n int, err error) {
	if c.stats != nil {
		c.stats.GPU = t
		c.stats.AllocSeconds = t.AllocSeconds
	}
	if err == nil {
		c.count(int64(m) * int64(n))
	}
}

// checkGPU checks the options a GPU algorithm has rules of its own for.
func checkGPU(alg Algorithm, c *config) error {
	if alg == CUDAFast && c.block != 0 && c.block%32 != 0 {
		return fmt.Errorf("lev: %w: %s: block size = %d must be a multiple of 32 (whole warps)", ErrInvalidOption, alg, c.block)
	}
	if alg == CUDAFast && c.tile > cudaext.MaxChunk {
		return fmt.Errorf("lev: %w: %s: tile (column chunk) = %d is out of range [1, %d]", ErrInvalidOption, alg, c.tile, cudaext.MaxChunk)
	}
	return nil
}
