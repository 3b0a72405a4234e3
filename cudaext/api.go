package cudaext

import "fmt"

// Timing is what one GPU job measured, in seconds: the device allocations
// (host clock: cuMemAlloc is synchronous; for cuda-matrix also the
// initialisation of the matrix's first row and column, which report 002
// counts with the allocation), then with CUDA events the copies to the
// device, the computation and the copy back.
type Timing struct {
	AllocSeconds   float64
	CopyInSeconds  float64
	ComputeSeconds float64
	CopyOutSeconds float64
	Launches       int64 // kernel launches
	Blocks         int   // blocks of the largest launch
	Threads        int   // threads per block
	DeviceBytes    int64 // device memory allocated
}

// Total is the sum of the four parts.
func (t Timing) Total() float64 {
	return t.AllocSeconds + t.CopyInSeconds + t.ComputeSeconds + t.CopyOutSeconds
}

// PerLaunch is the computation time per launch, in seconds: for
// cuda-diagonal and cuda-matrix, the cost of one antidiagonal.
func (t Timing) PerLaunch() float64 {
	if t.Launches == 0 {
		return 0
	}
	return t.ComputeSeconds / float64(t.Launches)
}

// Defaults of the kernels' launch shapes.
const (
	DefaultBlock     = 256 // threads per block of cuda-diagonal and cuda-matrix
	DefaultFastBlock = 128 // threads per block (4 warps) of cuda-fast and Batch
	DefaultChunk     = 128 // columns per hand-off between bands in cuda-fast
	MaxChunk         = 1 << 16
	MaxLength        = 1<<31 - 2 // longest string a kernel takes (int indices)
)

// FastOptions shape cuda-fast's launch; zero values take the defaults.
type FastOptions struct {
	Block int // threads per block: a multiple of 32 in [32, 1024]
	Chunk int // columns per hand-off, in [1, MaxChunk]
}

func (o FastOptions) resolve() (FastOptions, error) {
	if o.Block == 0 {
		o.Block = DefaultFastBlock
	}
	if o.Chunk == 0 {
		o.Chunk = DefaultChunk
	}
	if o.Block < 32 || o.Block > 1024 || o.Block%32 != 0 {
		return o, fmt.Errorf("cudaext: cuda-fast: block size = %d must be a multiple of 32 in [32, 1024] (whole warps)", o.Block)
	}
	if o.Chunk < 1 || o.Chunk > MaxChunk {
		return o, fmt.Errorf("cudaext: cuda-fast: chunk = %d is out of range [1, %d]", o.Chunk, MaxChunk)
	}
	return o, nil
}

func resolveBlock(name string, block int) (int, error) {
	if block == 0 {
		return DefaultBlock, nil
	}
	if block < 1 || block > 1024 {
		return 0, fmt.Errorf("cudaext: %s: block size = %d is out of range [1, 1024]", name, block)
	}
	return block, nil
}

func checkLengths(name string, la, lb int) error {
	if la > MaxLength || lb > MaxLength {
		return fmt.Errorf("cudaext: %s: lengths %d and %d: at most %d symbols each", name, la, lb, MaxLength)
	}
	return nil
}
