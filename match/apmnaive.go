package match

// apm-naive: report 003's program, position by position.

// windowNaive counts the positions j in [a, b) whose window matches, with
// one DP per position exactly as report 003's sequential program (apm.c)
// computes it: a column of size+1 counters, updated in place with the
// diagonal kept aside, for size = min(len(p), len(text)−j). O(size²) time
// per position; the column is allocated once per call.
func windowNaive(pp *pattern, text []byte, a, b, k int, pl *poller) int64 {
	p := pp.p
	column := make([]int, len(p)+1)
	var count int64
	for j := a; j < b; j++ {
		size := min(len(p), len(text)-j)
		d, ok := apmLevenshtein(p, text[j:j+size], size, column, pl)
		if !ok {
			return count
		}
		if d <= k {
			count++
		}
	}
	return count
}

// apmLevenshtein is apm.c's levenshtein(s1, s2, len, column): the distance
// between s1[:size] and s2[:size] with column[y] holding D[x][y] for the
// current x. It reports each column's work to pl, and false, with no
// distance, where pl says stop: one DP of a long pattern is seconds of
// work.
func apmLevenshtein(s1, s2 []byte, size int, column []int, pl *poller) (int, bool) {
	for y := 1; y <= size; y++ {
		column[y] = y
	}
	for x := 1; x <= size; x++ {
		if pl.done(size) {
			return 0, false
		}
		column[0] = x
		lastdiag := x - 1
		for y := 1; y <= size; y++ {
			olddiag := column[y]
			cost := 1
			if s1[y-1] == s2[x-1] {
				cost = 0
			}
			column[y] = min(column[y]+1, column[y-1]+1, lastdiag+cost)
			lastdiag = olddiag
		}
	}
	return column[size], true
}

// occurrenceNaive counts the end positions j in [a, b) where some substring
// ending at j is within k of p, with Sellers' column DP (P. H. Sellers, "The
// theory and computation of evolutionary distances: pattern recognition",
// J. Algorithms 1, 1980): C[i] is the least distance between p[:i] and a
// substring ending at the current position, C[0] = 0 in every column. A
// match of cost ≤ k is at most len(p)+k long, so the scan starts that far
// before a: the columns it computes from a on are exact. O(len(p)) time per
// position.
func occurrenceNaive(pp *pattern, text []byte, a, b, k int, pl *poller) int64 {
	p := pp.p
	m := len(p)
	col := make([]int, m+1)
	for i := range col {
		col[i] = i
	}
	var count int64
	for j := max(0, a-(m+k)); j < b; j++ {
		if pl.done(m) {
			return count
		}
		t := text[j]
		diag := 0 // C_old[i-1], with C_old[0] = 0
		for i := 1; i <= m; i++ {
			cost := 1
			if p[i-1] == t {
				cost = 0
			}
			old := col[i]
			col[i] = min(old+1, col[i-1]+1, diag+cost)
			diag = old
		}
		if j >= a && col[m] <= k {
			count++
		}
	}
	return count
}
