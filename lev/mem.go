package lev

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"
)

// DefaultMatrixLimit returns the bytes FullMatrix may allocate when
// WithMatrixLimit is not given: half the physical memory, read once from
// /proc/meminfo, or 4 GiB where that cannot be read.
func DefaultMatrixLimit() int64 { return defaultMatrixLimit() }

var defaultMatrixLimit = sync.OnceValue(func() int64 {
	const fallback = 4 << 30
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kib, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kib <= 0 {
				return fallback
			}
			return kib * 1024 / 2
		}
	}
	return fallback
})
