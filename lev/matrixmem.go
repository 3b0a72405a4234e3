package lev

import (
	"math"
	"math/bits"
	"sync"

	"github.com/levlab/levlab/internal/sysmem"
)

// DefaultMatrixLimit returns the bytes FullMatrix may allocate when
// WithMatrixLimit is not given: half the physical memory, read once from
// /proc/meminfo, or 4 GiB where that cannot be read. (What ulimit -v and
// the cgroup leave is checked apart, on every call.)
func DefaultMatrixLimit() int64 { return defaultMatrixLimit() }

var defaultMatrixLimit = sync.OnceValue(func() int64 { return sysmem.Total(8<<30) / 2 })

// FullMatrixBytes returns the bytes FullMatrix allocates for strings of
// lengths m and n: (m+1)(n+1) cells of 2, 4 or 8 bytes, the fewest that
// hold the longer length, as fullMatrix picks them. ok is false past 2^64
// bytes. A caller can say what a FullMatrix call will take, or refuse it,
// before making it.
func FullMatrixBytes(m, n int) (bytes uint64, ok bool) {
	size := uint64(8)
	switch longest := max(m, n); {
	case longest <= math.MaxUint16:
		size = 2
	case uint64(longest) <= math.MaxUint32:
		size = 4
	}
	hi, cells := bits.Mul64(uint64(m)+1, uint64(n)+1)
	if hi != 0 {
		return 0, false
	}
	hi, bytes = bits.Mul64(cells, size)
	return bytes, hi == 0
}
