package lev

import "sync"

// diagonal returns the Levenshtein distance of a and b by the "diagonal
// approach" of reports 000 (its first OpenMP attempt, and its CUDA kernel's
// layout, Listing 5) and 001 (Section 3, Figure 3): the antidiagonals
// d = i+j of D are computed in order, each from the two before it, kept in
// three fronts; c.workers long-lived goroutines (the caller and
// c.workers-1 others) each own an equal contiguous slice of every
// antidiagonal and meet at a barrier after each one.
//
// Front d holds D[i][d-i] at index i, so a worker's slice is contiguous in
// every front and cell i reads cells i-1 and i of front d-1 and cell i-1 of
// front d-2. b is read reversed so that its symbols, too, run forward with
// i. At most ceil(min(m, n)/16) workers are started: more would have no
// cell to compute. Time O(mn/W) plus m+n-1 barriers, which is why the
// reports found this approach slow; memory O(m+n): three fronts of m+1 cells and a reversed
// copy of b. Invariant: when antidiagonal d starts, the fronts hold
// antidiagonals d-1 and d-2 in full.
func diagonal[S symbol](a, b []S, c *config) (int, error) {
	if fitsInt32(len(a), len(b)) {
		return diagonalCells[S, int32](a, b, c)
	}
	return diagonalCells[S, int64](a, b, c)
}

// diagonalAlign is the granularity, in cells, of the split points between
// workers' slices: 16 int32 cells are a 64-byte cache line, so neighbouring
// workers do not write the same line of a front (false sharing), except when
// a slice is shorter than a line anyway.
const diagonalAlign = 16

// diagonalCheck is how many antidiagonals pass between two looks at the
// context.
const diagonalCheck = 64

func diagonalCells[S symbol, C dpCell](a, b []S, c *config) (int, error) {
	m, n := len(a), len(b)
	br := make([]S, n)
	for k := range br {
		br[k] = b[n-1-k] // b[j-1] = br[n-j]; for j = d-i, br[n-d+i]
	}
	// Separate allocations: no two fronts share a cache line.
	pp := make([]C, m+1) // antidiagonal d-2
	p := make([]C, m+1)  // antidiagonal d-1
	cur := make([]C, m+1)
	pp[0] = 0         // D[0][0], d = 0
	p[0], p[1] = 1, 1 // D[0][1] and D[1][0], d = 1

	// A worker whose slice is empty in every antidiagonal would only wait
	// at the barrier: no more are started than the longest antidiagonal,
	// min(m, n) cells, has aligned slices (Stats still reports the workers
	// given, the rest idle).
	w := min(c.workers, max(1, (min(m, n)+diagonalAlign-1)/diagonalAlign))
	bar := newBarrier(w)
	var (
		errOnce sync.Once
		err     error
	)
	work := func(id int) {
		pp, p, cur := pp, p, cur // each worker rotates its own view
		for d := 2; d <= m+n; d++ {
			if id == 0 && d%diagonalCheck == 0 {
				if e := canceled(c.ctx); e != nil {
					errOnce.Do(func() { err = e })
					bar.abort()
					return
				}
			}
			// Cells 1 <= i <= m with 1 <= d-i <= n.
			lo, hi := max(1, d-n), min(m, d-1)
			s, e := diagonalSplit(lo, hi+1, id, w), diagonalSplit(lo, hi+1, id+1, w)
			// The edges of the matrix, D[0][d] and D[d][0], belong to
			// the workers whose slices they border.
			if id == 0 && d <= n {
				cur[0] = C(d)
			}
			if id == w-1 && d <= m {
				cur[d] = C(d)
			}
			if s < e {
				diagonalCells1(a[s-1:e-1], br[n-d+s:n-d+e], pp[s-1:e-1], p[s-1:e-1], p[s:e], cur[s:e])
			}
			if !bar.wait() {
				return
			}
			pp, p, cur = p, cur, pp
		}
	}
	runWorkers(w, work)
	if err != nil {
		return 0, err
	}
	c.count(int64(m) * int64(n))
	// Antidiagonal d is written to cur, pp, p (as first allocated) for
	// d-2 = 0, 1, 2 mod 3: the workers rotate the three with period three.
	last := [3][]C{cur, pp, p}[(m+n-2)%3]
	return int(last[m]), nil
}

// diagonalSplit returns where the slice of worker id (of w) begins within
// the cells [lo, end): the id-th of w equal parts, its inner edges rounded
// to diagonalAlign.
func diagonalSplit(lo, end, id, w int) int {
	if id == 0 {
		return lo
	}
	if id == w {
		return end
	}
	x := lo + int(int64(end-lo)*int64(id)/int64(w))
	x = (x + diagonalAlign/2) &^ (diagonalAlign - 1)
	return min(max(x, lo), end)
}

// diagonalCells1 computes one worker's slice of an antidiagonal: for each k,
// cur[k] = D[i][j] from diag[k] = D[i-1][j-1], up[k] = D[i-1][j],
// left[k] = D[i][j-1] and the symbols a[k] = a[i-1], b[k] = b[j-1].
func diagonalCells1[S symbol, C dpCell](a, b []S, diag, up, left, cur []C) {
	n := len(cur)
	a, b, diag, up, left = a[:n], b[:n], diag[:n], up[:n], left[:n]
	for k := range cur {
		t := min(up[k], left[k]) + 1
		if a[k] == b[k] {
			t = diag[k]
		}
		cur[k] = min(t, diag[k]+1)
	}
}
