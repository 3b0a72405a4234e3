package cudaext

import (
	"embed"
	"fmt"
	"strings"
)

// The kernels, CUDA C++ compiled at run time by NVRTC for the device found.
// common.cuh comes first; the others follow in this order.
//
//go:embed kernels/common.cuh kernels/*.cu
var kernelFS embed.FS

var kernelFiles = []string{"common.cuh", "diagonal.cu", "matrix.cu", "fast.cu", "pairs.cu", "windows.cu"}

// wordBits is the number of DP rows one lane of cuda-fast holds (32 or 64:
// LV_WORD_BITS of the kernels).
const wordBits = 32

// kernelSource returns the program NVRTC compiles: every kernel file, in
// order, each introduced by a #line directive so that the compiler's
// messages name the file.
func kernelSource() string {
	var b strings.Builder
	for _, name := range kernelFiles {
		src, err := kernelFS.ReadFile("kernels/" + name)
		if err != nil {
			panic("cudaext: embedded kernel missing: " + name) // a build without its sources
		}
		b.WriteString("#line 1 \"" + name + "\"\n")
		b.Write(src)
		b.WriteString("\n")
	}
	return b.String()
}

// kernelOptions are NVRTC's options for a device of compute capability
// major.minor.
func kernelOptions(major, minor int) []string {
	return []string{
		fmt.Sprintf("--gpu-architecture=sm_%d%d", major, minor),
		fmt.Sprintf("-DLV_WORD_BITS=%d", wordBits),
		"--std=c++14",
		"-lineinfo",
	}
}

// EnvCacheDir names the variable that overrides where compiled kernels are
// cached; the default is levlab/cubin in the user's cache folder
// (os.UserCacheDir). "off" disables the cache.
const EnvCacheDir = "LEVLAB_CUBIN_CACHE"
