package lev

import (
	"sync"

	"github.com/levlab/levlab/internal/sysmem"
)

// DefaultMatrixLimit returns the bytes FullMatrix may allocate when
// WithMatrixLimit is not given: half the physical memory, read once from
// /proc/meminfo, or 4 GiB where that cannot be read. (What ulimit -v and
// the cgroup leave is checked apart, on every call.)
func DefaultMatrixLimit() int64 { return defaultMatrixLimit() }

var defaultMatrixLimit = sync.OnceValue(func() int64 { return sysmem.Total(8<<30) / 2 })
