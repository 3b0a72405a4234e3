package cudaext

import "fmt"

// Symbol is what the kernels compare: bytes, or 32-bit codes (lev passes
// dense codes of runes).
type Symbol interface{ ~uint8 | ~uint32 }

// maxPeqBytes bounds cuda-fast's match table (σ codes × strips words); a
// string pair with more distinct symbols than that allows is an error.
const maxPeqBytes = 1 << 30

// fastPlan is what the host prepares for cuda-fast and its model: the rows
// (the longer string) as a match table, the columns as codes.
type fastPlan struct {
	m, n   int      // rows, columns
	codes  []uint32 // the columns' symbols: 1..σ-1 for symbols of the rows, 0 for the others
	sigma  int      // codes, 0 included
	bands  int      // bands of lanes·wordBits rows
	stride int      // strips in the table: lanes·bands
	peq    []uint64 // peq[c*stride+s]: bit r set where row wordBits·s+r has code c
}

// planFast prepares a and b for a warp of the given lanes and rows per
// lane. The longer string becomes the rows: bands are the unit of
// parallelism and columns are walked in sequence.
func planFast[S Symbol](a, b []S, lanes, wordBits int) (fastPlan, error) {
	if len(a) < len(b) {
		a, b = b, a
	}
	return plan(a, b, lanes, wordBits)
}

// plan prepares a as the rows and b as the columns.
func plan[S Symbol](a, b []S, lanes, wordBits int) (fastPlan, error) {
	rowsPerBand := lanes * wordBits
	p := fastPlan{m: len(a), n: len(b)}
	p.bands = (p.m + rowsPerBand - 1) / rowsPerBand
	p.stride = p.bands * lanes
	code, sigma := compact(a)
	p.sigma = sigma
	if need := int64(sigma) * int64(p.stride) * int64((wordBits+7)/8); need > maxPeqBytes {
		return fastPlan{}, fmt.Errorf("cudaext: cuda-fast: %d distinct symbols over %d rows need a %d-byte match table; at most %d", sigma-1, p.m, need, maxPeqBytes)
	}
	p.peq = make([]uint64, sigma*p.stride)
	for i, x := range a {
		c := code(x)
		p.peq[c*p.stride+i/wordBits] |= 1 << (i % wordBits)
	}
	p.codes = make([]uint32, p.n)
	for j, x := range b {
		p.codes[j] = uint32(code(x))
	}
	return p, nil
}

// compact numbers the distinct symbols of s from 1 in order of first
// appearance and returns the coder (0 for a symbol not in s) and σ, the
// number of codes with 0.
func compact[S Symbol](s []S) (code func(S) int, sigma int) {
	c, n := compactSets([][]S{s})
	return func(x S) int { return c(x) + 1 }, n + 1
}
