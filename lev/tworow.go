package lev

import "math"

// dpCell is the integer type the linear-space kernels (tworow, diagonal,
// tiled, tiled-barrier) hold matrix values in: int32 whenever every value
// fits, int64 for sequences of 2^31-1 symbols or more. Signed on purpose:
// min of signed values compiles to CMOVL/CMOVG, one µop each on Intel cores,
// where the unsigned CMOVA/CMOVBE are two, and the kernels below are bound by
// those instructions.
type dpCell interface{ ~int32 | ~int64 }

// fitsInt32 reports whether int32 cells hold every value of the m×n problem:
// a cell is at most max(m, n), and the kernels add 1 to it.
func fitsInt32(m, n int) bool { return max(m, n) < math.MaxInt32 }

// checkCells is about how many cells a kernel computes between two looks at
// its context: about a millisecond of work, so cancellation is prompt and
// the check costs nothing measurable.
const checkCells = 1 << 20

// rowsPerCheck is how many rows of length n make up checkCells, at least 1.
func rowsPerCheck(n int) int { return max(1, checkCells/max(n, 1)) }

// twoRow returns the Levenshtein distance of a and b by report 004's
// linear-space algorithm: the matrix is filled row by row as in
// Wagner–Fischer, but only the row above and the row being filled are kept.
// Here both live in one slice: the row is overwritten left to right, and the
// one value of the row above that is still needed after a cell is written
// (the upper-left neighbour of the next cell) is carried in a register. Rows
// are computed two at a time (wfRowPair), which halves the loads and stores
// and gives the processor two dependency chains to overlap.
//
// Time O(mn), memory O(min(m, n)): the row runs along the shorter sequence.
// (Speed does not favour either orientation: the long row streams through
// the cache in order, and rows as short as 32 symbols ran within 5% of long
// ones.) Invariant: before row i is computed, row[j] = D[i-1][j] for every
// j.
func twoRow[S symbol](a, b []S, c *config) (int, error) {
	if fitsInt32(len(a), len(b)) {
		return twoRowCells[S, int32](a, b, c)
	}
	return twoRowCells[S, int64](a, b, c)
}

func twoRowCells[S symbol, C dpCell](a, b []S, c *config) (int, error) {
	if len(a) < len(b) {
		a, b = b, a // the row runs along b, the shorter
	}
	row := make([]C, len(b)+1)
	for j := range row {
		row[j] = C(j)
	}
	body := row[1:] // row[0] = D[i][0] = i is passed in, not stored
	every := rowsPerCheck(len(b))
	next := 0
	i := 0
	for ; i+1 < len(a); i += 2 {
		if i >= next {
			if err := canceled(c.ctx); err != nil {
				return 0, err
			}
			next = i + every
		}
		wfRowPair(a[i], a[i+1], b, body, C(i), C(i+1), C(i+2))
	}
	if i < len(a) {
		wfRow(a[i], b, body, C(i), C(i+1))
	}
	c.count(int64(len(a)) * int64(len(b)))
	return int(row[len(b)]), nil
}

// wfRow advances row from D[i-1][1..n] to D[i][1..n] in place, where ai is
// the i-th symbol of the column sequence, b the row sequence (len(row) must
// be len(b)), diag = D[i-1][0] and left = D[i][0]. It returns D[i][n].
//
// The recurrence is the reference one,
//
//	D[i][j] = min(D[i-1][j-1] + (ai != b[j]), D[i-1][j] + 1, D[i][j-1] + 1),
//
// rewritten without a branch: when the symbols match, D[i-1][j-1] is never
// more than either neighbour plus one, so it is the answer; otherwise the
// answer is one more than the least of the three. The only loop-carried
// dependency is left, through one add and one conditional move.
func wfRow[S symbol, C dpCell](ai S, b []S, row []C, diag, left C) C {
	row = row[:len(b)] // equal lengths: the compiler drops the bounds checks
	for j, bj := range b {
		up := row[j]
		t := min(diag, up) + 1
		if ai == bj {
			t = diag
		}
		left = min(t, left+1)
		row[j] = left
		diag = up
	}
	return left
}

// wfRowPair advances row by two rows at once, from D[i-1][1..n] to
// D[i+1][1..n], where a0 and a1 are the i-th and (i+1)-th symbols of the
// column sequence, d0 = D[i-1][0], l0 = D[i][0] and l1 = D[i+1][0]. It returns
// D[i][n] and D[i+1][n]. len(row) must be len(b).
//
// Row i's new value is row i+1's upper neighbour, still in a register, so
// each column costs one load and one store for two cells, and the two rows'
// dependency chains overlap. Row i+1's upper-left neighbour is row i's
// previous value (l0 before it is replaced).
func wfRowPair[S symbol, C dpCell](a0, a1 S, b []S, row []C, d0, l0, l1 C) (C, C) {
	row = row[:len(b)]
	for j := range row {
		bj := b[j]
		up := row[j]
		t0 := min(d0, up) + 1
		if a0 == bj {
			t0 = d0
		}
		v0 := min(t0, l0+1)
		t1 := min(l0, v0) + 1
		if a1 == bj {
			t1 = l0
		}
		l1 = min(t1, l1+1)
		row[j] = l1
		d0, l0 = up, v0
	}
	return l0, l1
}
