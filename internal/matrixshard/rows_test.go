package matrixshard

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"
)

// TestMatrixShardsBalanced: the shards of strings of skewed lengths hold
// about the same cells, not the same strings.
func TestMatrixShardsBalanced(t *testing.T) {
	var a [][]byte
	for i := range 400 {
		n := 10
		if i%10 == 0 {
			n = 1000
		}
		a = append(a, make([]byte, n))
	}
	for _, tri := range []bool{false, true} {
		var cells []int64
		prev := 0
		for i := range 4 {
			from, to := Matrix{A: a, B: a, Tri: tri}.Rows(Shard{i, 4})
			if from != prev {
				t.Fatalf("shard %d starts at %d, the one before ended at %d", i, from, prev)
			}
			prev = to
			var c int64
			for r := from; r < to; r++ {
				for j := range a {
					if !tri || j > r {
						c += int64(len(a[r])+1) * int64(len(a[j])+1)
					}
				}
			}
			cells = append(cells, c)
		}
		if prev != len(a) {
			t.Fatalf("the shards end at %d of %d strings", prev, len(a))
		}
		lo, hi := cells[0], cells[0]
		for _, c := range cells {
			lo, hi = min(lo, c), max(hi, c)
		}
		if float64(hi) > 1.25*float64(lo) {
			t.Errorf("tri %v: shards' cells %v: the largest is more than 1.25× the smallest", tri, cells)
		}
	}
}

// TestShardRowsMillionReads: a million reads of 150 bp in 1,000 shards —
// about 1.1·10^16 cells, which times a shard's index passes
// math.MaxInt64 — split into runs of rows that follow each other from the
// first row to the last, each of about a thousandth of the cells: the
// pairs of one set, with --top, and against a second set. The MPI band
// dealer splits rows the same way.
func TestShardRowsMillionReads(t *testing.T) {
	const n, l, parts = 1_000_000, 150, 1000
	length := func(int) int { return l }
	const c = (l + 1) * (l + 1) // a pair's cells, as the split counts them
	for _, tc := range []struct {
		name     string
		tri, top bool
		cost     func(i int64) int64 // row i's cells
	}{
		{"one set", true, false, func(i int64) int64 { return c * (n - 1 - i) }},
		{"one set --top", true, true, func(int64) int64 { return c * (n - 1) }},
		{"two sets", false, false, func(int64) int64 { return c * n }},
	} {
		var total, most int64
		for i := range int64(n) {
			total += tc.cost(i)
			most = max(most, tc.cost(i))
		}
		// Pairs of neighbours, where shards meet: among them the first
		// indexes whose product with the cells passes MaxInt64 (405 for
		// two sets, 809 for one).
		sample := []int{0, 1, 404, 405, 808, 809, 998, 999}
		got := map[int][2]int{}
		for _, k := range sample {
			from, to := RowsOf(n, n, length, length, tc.tri, tc.top, Shard{k, parts})
			got[k] = [2]int{from, to}
		}
		for _, k := range sample {
			from, to := got[k][0], got[k][1]
			switch {
			case from < 0 || to > n || from > to:
				t.Errorf("%s: shard %d/%d holds rows %d to %d of %d", tc.name, k, parts, from, to, n)
				continue
			case k == 0 && from != 0:
				t.Errorf("%s: shard 0 starts at row %d", tc.name, from)
			case k == parts-1 && to != n:
				t.Errorf("%s: the last shard ends at row %d of %d", tc.name, to, n)
			}
			if next, ok := got[k+1]; ok && next[0] != to {
				t.Errorf("%s: shard %d ends at row %d, shard %d starts at %d", tc.name, k, to, k+1, next[0])
			}
			var cells int64
			for i := from; i < to; i++ {
				cells += tc.cost(int64(i))
			}
			// Each row goes to the shard its cells' midpoint falls in, so
			// a shard is off its share by less than a row at either end.
			if d := cells - total/parts; d > most || d < -most {
				t.Errorf("%s: shard %d/%d holds rows %d to %d, %d cells; its share is %d ± %d", tc.name, k, parts, from, to, cells, total/parts, most)
			}
			if !tc.tri || tc.top {
				if rows := to - from; rows < n/parts-1 || rows > n/parts+1 {
					t.Errorf("%s: shard %d/%d holds %d rows of equal cells, want %d ± 1", tc.name, k, parts, rows, n/parts)
				}
			}
		}
	}
}

// wantShardRows is RowsOf's contract in math/big: row i goes to the
// shard k of parts with total·k ≤ mid_i·parts < total·(k+1), mid_i being
// the cells of the rows before it and half its own (rounded down).
func wantShardRows(la, lb []int, tri, top bool, k, parts int) (from, to int) {
	costs := make([]*big.Int, len(la))
	total := new(big.Int)
	for i, l := range la {
		other := new(big.Int)
		for j, m := range lb {
			if !tri || (top && j != i) || (!top && j > i) {
				other.Add(other, big.NewInt(int64(m)+1))
			}
		}
		costs[i] = other.Mul(other, big.NewInt(int64(l)+1))
		total.Add(total, costs[i])
	}
	bound := func(k int) int {
		if k == 0 {
			return 0
		}
		if k == parts {
			return len(la)
		}
		target := new(big.Int).Mul(total, big.NewInt(int64(k)))
		sum := new(big.Int)
		for i, c := range costs {
			mid := new(big.Int).Add(sum, new(big.Int).Rsh(c, 1))
			if mid.Mul(mid, big.NewInt(int64(parts))).Cmp(target) >= 0 {
				return i
			}
			sum.Add(sum, c)
		}
		return len(la)
	}
	return bound(k), bound(k + 1)
}

// TestShardRowsExtremeSizes: strings of nearly math.MaxInt bytes (cells
// past 2^125) in 1 to MaxInt shards split exactly as the contract says,
// computed in math/big: every shard where there are few, and around the
// shards each row's midpoint falls in where there are many.
func TestShardRowsExtremeSizes(t *testing.T) {
	const m = math.MaxInt
	for _, set := range []struct {
		name string
		a, b []int
	}{
		{"skewed", []int{m / 4, 0, m/4 - 7, 1, m / 4}, []int{m / 2, m / 3}},
		{"equal", []int{m/4 - 1, m/4 - 1, m/4 - 1, m/4 - 1}, []int{m/2 - 1, m/2 - 1}},
		{"one long string", []int{m - 1}, []int{m - 1}},
		{"long and empty", []int{0, m - 2, 0}, []int{0}},
	} {
		for _, mode := range []struct {
			name     string
			tri, top bool
		}{{"two sets", false, false}, {"one set", true, false}, {"one set --top", true, true}} {
			lb := set.b
			if mode.tri {
				lb = set.a
			}
			la := set.a
			for _, parts := range []int{1, 2, 3, 7, 1000, 1 << 40, m - 1, m} {
				shards := map[int]bool{}
				if parts <= 1000 {
					for k := range parts {
						shards[k] = true
					}
				} else {
					for _, k := range []int{0, 1, 2, parts / 3, parts / 2, parts - 2, parts - 1} {
						shards[k] = true
					}
					// The shards where rows change hands: each row's
					// first shard and its neighbours.
					for i := range la {
						k := wantShardOf(la, lb, mode.tri, mode.top, i, parts)
						for _, n := range []int{k - 1, k, k + 1} {
							if n >= 0 && n < parts {
								shards[n] = true
							}
						}
					}
				}
				var wrong []string
				for k := range shards {
					from, to := RowsOf(len(la), len(lb), func(i int) int { return la[i] }, func(j int) int { return lb[j] }, mode.tri, mode.top, Shard{k, parts})
					if wf, wt := wantShardRows(la, lb, mode.tri, mode.top, k, parts); from != wf || to != wt {
						wrong = append(wrong, fmt.Sprintf("shard %d/%d holds rows %d to %d, want %d to %d", k, parts, from, to, wf, wt))
					}
				}
				if len(wrong) > 0 {
					slices.Sort(wrong)
					t.Errorf("%s, %s: %d of %d shards wrong, such as %s", set.name, mode.name, len(wrong), len(shards), wrong[0])
				}
			}
		}
	}
}

// wantShardOf is the shard row i falls in: the k of wantShardRows with
// from ≤ i < to, found by bisection.
func wantShardOf(la, lb []int, tri, top bool, i, parts int) int {
	lo, hi := 0, parts-1
	for lo < hi {
		k := lo + (hi-lo+1)/2
		if from, _ := wantShardRows(la, lb, tri, top, k, parts); from <= i {
			lo = k
		} else {
			hi = k - 1
		}
	}
	return lo
}
