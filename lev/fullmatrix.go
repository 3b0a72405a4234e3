package lev

import (
	"fmt"
	"math"
	"math/bits"
	"time"
	"unsafe"

	"github.com/levlab/levlab/internal/sysmem"
)

// matrixCell is the unsigned type fullMatrix stores its matrix in: the
// narrowest that holds every value of the problem, since the matrix is what
// bounds the sizes this algorithm can run.
type matrixCell interface{ ~uint16 | ~uint32 | ~uint64 }

// fullMatrix returns the Levenshtein distance of a and b by Wagner–Fischer
// over the whole (m+1)×(n+1) matrix D, the sequential baseline of reports
// 000 (Listing 2) and 004: D[i][0] = i, D[0][j] = j, and row by row
//
//	D[i][j] = D[i-1][j-1]                                 if a[i-1] == b[j-1]
//	D[i][j] = 1 + min(D[i-1][j-1], D[i-1][j], D[i][j-1])  otherwise.
//
// The matrix is one flat slice in row-major order, of uint16 cells when
// max(m, n) <= 65535, uint32 up to 2^32-1 and uint64 beyond (a cell never
// exceeds max(m, n)). Time O(mn), memory O(mn): (m+1)(n+1) cells, refused
// with an error wrapping ErrTooLarge when that is more than the
// WithMatrixLimit bytes or than the process's limits leave (ulimit -v, the
// cgroup's memory limit: past them the Go runtime would end the process),
// before anything is allocated.
func fullMatrix[S symbol](a, b []S, c *config) (int, error) {
	switch longest := max(len(a), len(b)); {
	case longest <= math.MaxUint16:
		return fullMatrixCells[S, uint16](a, b, c)
	case uint64(longest) <= math.MaxUint32:
		return fullMatrixCells[S, uint32](a, b, c)
	default:
		return fullMatrixCells[S, uint64](a, b, c)
	}
}

func fullMatrixCells[S symbol, C matrixCell](a, b []S, c *config) (int, error) {
	m, n := len(a), len(b)
	cells, err := matrixCells(m, n, unsafe.Sizeof(C(0)), c.matrixLimit)
	if err != nil {
		return 0, err
	}
	if err := fitsCeiling(m, n, uint64(cells)*uint64(unsafe.Sizeof(C(0))), sysmem.Ceiling); err != nil {
		return 0, err
	}
	start := time.Now()
	d := make([]C, cells)
	w := n + 1
	for j := range w {
		d[j] = C(j)
	}
	if c.stats != nil {
		c.stats.AllocSeconds = time.Since(start).Seconds()
	}
	every := rowsPerCheck(n)
	for i := 1; i <= m; i++ {
		if i%every == 0 {
			if err := canceled(c.ctx); err != nil {
				return 0, err
			}
		}
		prev := d[(i-1)*w : i*w]
		cur := d[i*w : (i+1)*w]
		cur[0] = C(i)
		// Arithmetic in int, not C: a uint16 cell can hold 65535, and
		// 65535+1 would wrap to 0.
		up := prev[1:]
		out := cur[1:]
		up = up[:len(b)]
		out = out[:len(b)]
		ai := a[i-1]
		diag, left := int(prev[0]), i
		for j, bj := range b {
			u := int(up[j])
			t := min(diag, u) + 1
			if ai == bj {
				t = diag
			}
			left = min(t, left+1)
			out[j] = C(left)
			diag = u
		}
	}
	c.count(int64(m) * int64(n))
	return int(d[len(d)-1]), nil
}

// ceilingMargin is what the Go runtime maps beside a large allocation
// (arena metadata, rounding to its 64 MiB arenas).
const ceilingMargin = 128 << 20

// fitsCeiling returns an error wrapping ErrTooLarge when bytes (the
// m+1 by n+1 matrix) would not fit in what ceiling says the process may
// still map. Small matrices are not checked: reading the limits costs a
// few file reads.
func fitsCeiling(m, n int, bytes uint64, ceiling func() sysmem.Bound) error {
	if bytes < 64<<20 {
		return nil
	}
	b := ceiling()
	if b.Bytes == sysmem.Unlimited || bytes+ceilingMargin <= uint64(b.Bytes) {
		return nil
	}
	return fmt.Errorf("%w: needs %s for a %d×%d matrix, and %s leaves this process %s; use tworow, or raise %s",
		ErrTooLarge, sysmem.Size(bytes), m+1, n+1, b.By, sysmem.Size(b.Bytes), b.By)
}

// matrixCells returns the number of cells of the (m+1)×(n+1) matrix, or an
// error wrapping ErrTooLarge when the matrix takes more than limit bytes
// of size-byte cells (or more than this machine can address).
func matrixCells(m, n int, size uintptr, limit int64) (int, error) {
	// 128-bit products: (m+1)(n+1) cells, and bytes, overflow neither
	// uint64 nor int silently.
	hi, cells := bits.Mul64(uint64(m)+1, uint64(n)+1)
	if hi != 0 {
		return 0, fmt.Errorf("%w: cannot hold a %d×%d matrix: more than 2^64 cells; use tworow", ErrTooLarge, m+1, n+1)
	}
	hi, bytes := bits.Mul64(cells, uint64(size))
	if hi != 0 || bytes > uint64(limit) {
		need := "more than 2^64 bytes"
		if hi == 0 {
			need = sysmem.Size(bytes)
		}
		return 0, fmt.Errorf("%w: needs %s for a %d×%d matrix of %d-byte cells, more than the %s limit; raise it (WithMatrixLimit; --max-memory on the command line) or use tworow",
			ErrTooLarge, need, m+1, n+1, size, sysmem.Size(limit))
	}
	if cells > math.MaxInt {
		// Within the limit, but past what a slice can index on this
		// (32-bit) platform.
		return 0, fmt.Errorf("%w: cannot index a %d×%d matrix on this platform; use tworow", ErrTooLarge, m+1, n+1)
	}
	return int(cells), nil
}
