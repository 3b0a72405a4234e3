package lev

import (
	"encoding/binary"
	"math/bits"
)

// Trimmed passes. A pass with threshold t computes, in each group, only
// the columns where a cell may lie on a path of cost at most t, judged by
// what the group above computed; for similar sequences that is a strip
// about the optimal path, narrowing as the path's cost grows, where
// Ukkonen's band is as wide as t all the way (after the band doubling of
// A*PA2: R. Groot Koerkamp, "A*PA2: up to 19× faster exact global
// alignment", WABI 2024, without its A* heuristic).
//
// The bound. Write g(c) for the distance D[i][j] of a cell c = (i, j) and
// h(c) = |(n−j) − (m−i)| for the gap cost to (m, n): every path through c
// costs at least f(c) = g(c) + h(c), and the optimal one costs d. Values
// never decrease along a diagonal (D[i][j] ≥ D[i−1][j−1]) and h is the
// same all along it, so for a cell c of group g and the cell b where c's
// diagonal crosses the bottom row of the group above (column x),
// f(b) ≤ f(c). Along an optimal path f never decreases either (a diagonal
// step keeps h, an indel costs 1 and moves h by 1).
//
// Claim: every cell with f(c) ≤ t is computed, exactly. By induction over
// the groups: if f(c) ≤ t then f(b) ≤ t, so b was computed exactly, and the
// group's columns take every column x+1 … x+rows for each x of the row
// above with F(x) = D[b] + h(b) ≤ t; the cells of c's optimal path have f ≤
// f(c) ≤ t, so they too are computed, and c's value, the least over its
// neighbours of real paths' costs, is exact. A cell past a group's columns
// is treated as in the band (myers.go): a row leaving continues with +1s, a
// column entering starts with +1s, so every value computed is a real
// path's cost. Hence a pass whose result is at most t has the distance;
// one whose last group does not reach column n, or whose result is over t,
// shows d > t.
//
// In a pipeline the group above may still run while a group decides its
// columns: it reads F as the group above publishes its columns, and where
// no column it has seen asks for more it waits for the group above to end
// before it stops.

// trimPass runs a trimmed pass of threshold t (t ≥ |m−n|): the distance
// and true where it is at most t, else false.
func trimPass[S symbol](ps *myersPass[S], t int) (int, bool, error) {
	ps.trim, ps.bundle = t, 1 // a unit is a group
	ps.band = bandFor(ps.m, ps.n, min(t, ps.m+ps.n))
	v, err := ps.run()
	if err != nil || v < 0 || v > t {
		return 0, false, err
	}
	return v, true, nil
}

// trimChunk is a trimmed pass's chunk on more than one worker, for
// threshold t: a group's columns number about t/2, and the group below
// starts a chunk after it, so that chunks of an eighth of t (512 to 4,096
// columns) keep the workers side by side (1M × 1M of 1 % and 15 %
// divergence on 2 workers of the AMD EPYC: of chunks of 256 to 4,096
// columns, 512 to 1,024 and 4,096 were the fastest).
func trimChunk(t int) int { return min(4096, max(512, t/8)) }

// unitTrim runs group g (a unit of one group, no ranks) on worker w in a
// trimmed pass: its columns from the group above's bottom row as the
// comment at the top of the file says, within Ukkonen's band of the
// threshold.
func (ps *myersPass[S]) unitTrim(w, g int, m *member[S]) error {
	row := ps.bound
	n, n1, t := ps.n, int64(ps.n+1), ps.trim
	sJ, sE := ps.span(g) // Ukkonen's band of t: no column outside it is needed
	top := g * ps.rows   // the row above the group (0-based index of its first row is top)
	rows := min(top+ps.rows, ps.m) - top
	m.gi, m.rows, m.topSum = g, ps.p[top:top+rows], 0
	last := g == ps.groups-1
	delta := n - ps.m
	publish := func(col int) { ps.prog[w].Store(int64(g)*n1 + int64(col)) }
	empty := func() error {
		ps.spanJ[g] = n + 1
		if last {
			ps.result = -1
		}
		ps.trimEnd[g].Store(0)
		publish(n)
		return nil
	}

	// The row above: B(x), the value of its cell in column x, for x from
	// pJ−1 (the top-left value) to pE; ok(x) says whether F(x) ≤ t.
	pJ, pE := 1, n // the top row: D[0][x] = x, all of it exact
	xs, bval := 0, 0
	ended := true // the group above has set its columns for good
	if g > 0 {
		if err := ps.waitAbove(g, 0); err != nil {
			return err
		}
		if pJ = ps.spanJ[g-1]; pJ > n {
			return empty()
		}
		xs, bval = pJ-1, ps.tops[g-1]+ps.rows
		ended, pE = false, n
	}
	aboveAt := func() int { return int(ps.prog[ps.slot(g-1)].Load() - int64(g-1)*n1) }
	// hasEnded looks whether the group above has set its last column.
	hasEnded := func() {
		if e := ps.trimEnd[g-1].Load(); e >= 0 {
			ended, pE = true, int(e)
		}
	}
	ok := func() bool { return bval+abs(delta-(xs-top)) <= t }
	lastX := -1 // the last x seen with F(x) ≤ t
	if ok() {
		lastX = xs
	}
	// scan moves xs up to x (or the above's last column), waiting for the
	// group above, and reports false where there is no column x there.
	scan := func(x int) (bool, error) {
		x = min(x, n)
		if !ended && xs < x {
			if hasEnded(); !ended && aboveAt() < x {
				if err := ps.waitAbove(g, x); err != nil {
					return false, err
				}
				hasEnded()
			}
		}
		to := min(x, pE)
		if xs < to {
			bval, lastX = scanRow(row[:to+1], xs+1, bval, t, delta+top, lastX, g == 0)
			xs = to
		}
		return xs == x, nil
	}

	// The first column: one past the first x with F(x) ≤ t.
	for lastX < 0 {
		if xs >= sE {
			return empty()
		}
		more, err := scan(xs + 1)
		if err != nil {
			return err
		}
		if !more && lastX < 0 {
			return empty()
		}
	}
	J := max(sJ, lastX+1)
	if J > sE {
		return empty()
	}
	if _, err := scan(J - 1); err != nil {
		return err
	}
	ps.tops[g], ps.spanJ[g] = bval, J
	publish(J - 1)
	load(m.g, m.rows)
	// E is the last column the x seen so far ask for.
	E := func() int { return min(sE, lastX+rows) }
	// On several workers, a group's columns number about t less its
	// top-left value, plus its rows: chunks of a quarter of that let the
	// group below start soon, where the strip narrows, down to 256.
	chunk := ps.chunk
	if ps.workers > 1 {
		chunk = max(256, min(chunk, (t-bval+rows)/4))
	}
	c0 := J
	for {
		// The row above as far as a chunk ahead: its deltas, which the
		// chunk reads, and what it asks for.
		if _, err := scan(c0 + chunk - 1); err != nil {
			unload(m.g, m.rows)
			return err
		}
		if c0 > E() {
			// Past what the row above asked for so far: the rest of it may
			// ask for more.
			if _, err := scan(n); err != nil {
				unload(m.g, m.rows)
				return err
			}
			if c0 > E() {
				break
			}
		}
		c1 := min(E()+1, c0+chunk)
		switch {
		case g == 0: // the top row
			fill(row[c0:c1], hPlus)
		case ended && c1-1 > pE: // past the columns of the group above: its row goes on with +1s
			fill(row[max(c0, pE+1):c1], hPlus)
		}
		if last {
			m.topSum += sumDeltas(row[c0:c1])
		}
		advance(m.g, ps.t[c0-1:c1-1], row[c0:c1], row[c0:c1])
		publish(c1 - 1)
		if err := canceled(ps.ctx); err != nil {
			unload(m.g, m.rows)
			return err
		}
		c0 = c1
	}
	if last {
		ps.result = -1
		if c0-1 == n {
			ps.result = ps.tops[g] + m.topSum + verticalSum(m.g, rows)
		}
	}
	unload(m.g, m.rows)
	ps.trimEnd[g].Store(int64(c0 - 1))
	publish(n)
	return nil
}

// scanRow reads the deltas row[from:] of the row above a group, from b,
// its value in column from−1, and returns its value in the last column and
// the last column x with F(x) = B(x) + |off − x| ≤ t, or last where there
// is none. F moves by at most 2 a column, so it jumps: from a column where
// F is s over t, the next ⌈s/2⌉−1 columns are over t too; from one where F
// is s within t, the next ⌊s/2⌋ are within. Inside the strip of a similar
// pair, and past it, the jumps cross most columns unread but for their sum
// (sumDeltas8). top makes the row the top row, D[0][x] = x, row unread
// but for its length.
func scanRow(row []uint8, from, b, t, off, last int, top bool) (int, int) {
	x, end := from-1, len(row)-1
	for x < end {
		k := 1
		if f := b + abs(off-x); f > t {
			k = (f - t + 1) / 2
		} else if f < t-1 {
			k = (t - f) / 2
		}
		k = min(k, end-x)
		if top {
			b += k
		} else {
			b += sumDeltas8(row[x+1 : x+1+k])
		}
		x += k
		if b+abs(off-x) <= t {
			last = x
		}
	}
	return b, last
}

// sumDeltas8 is sumDeltas eight bytes at a time.
func sumDeltas8(s []uint8) int {
	const plus, minus = 0x0101010101010101 * hPlus, 0x0101010101010101 * hMinus
	sum := 0
	for len(s) >= 8 {
		w := binary.LittleEndian.Uint64(s)
		sum += bits.OnesCount64(w&plus) - bits.OnesCount64(w&minus)
		s = s[8:]
	}
	return sum + sumDeltas(s)
}

// fill sets every byte of s to v.
func fill(s []uint8, v uint8) {
	for i := range s {
		s[i] = v
	}
}
