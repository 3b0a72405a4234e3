package lev

import (
	"github.com/levlab/levlab/internal/bitpar"
)

// The block kernel of many pairs: bit-parallel Myers/Hyyrö over the words
// of one pattern, run against text after text, as Hyyrö's block-based
// algorithm (Nordic J. Computing 10, 2003) with Ukkonen's band and a cap.
// Where myers.go pipelines groups of strips over long strings, this
// loop walks a column at a time through the pattern's words, every
// per-pattern table built once (blockPattern) and every per-text buffer
// reused (blockState): for strings of a few thousand symbols, what a pair
// costs beside its cells is what decides.
//
// Rows are the pattern's symbols, word w holding rows 64w+1 … 64w+64 (the
// last word fewer), columns the text's. At column j only the words that
// meet the band of the pass are computed: those below it are entered with
// vertical deltas +1 (D grows by one a row from the word above), and the
// word above the first computed one hands down a horizontal +1, so every
// value computed is an upper bound and every value on a path within the
// band is exact (the argument of myers.go's band). score[w] is the value
// at word w's bottom row.
//
// The cap: with a bound k, a pair whose distance is more than k is
// answered k+1 as soon as that is certain — at once when the lengths
// differ by more than k, else at the first column where every computed
// word's least possible value, its bottom value less its height−1 (a
// vertical delta is at least −1), exceeds k: an optimal path of cost ≤ k
// crosses that column at an exact value ≤ k within some computed word.

// blockPattern is a pattern's match words: peq[c*words+w] has bit r set
// where the pattern's symbol 64w+r is c, for c < sigma. Symbols of a text
// at or above sigma match nothing.
type blockPattern struct {
	m, words, sigma int
	lastBit         uint // the pattern's last row in the last word
	peq             []uint64
}

func newBlockPattern[S symbol](p []S, sigma int) *blockPattern {
	bp := &blockPattern{m: len(p), words: (len(p) + wordBits - 1) / wordBits, sigma: sigma}
	bp.lastBit = uint((len(p) - 1) % wordBits)
	bp.peq = make([]uint64, sigma*bp.words)
	for i, c := range p {
		bp.peq[int(c)*bp.words+i/wordBits] |= 1 << (i % wordBits)
	}
	return bp
}

// blockState is one worker's buffers, grown to the longest pattern seen,
// and the cells its pairs computed (Stats.Computed).
type blockState struct {
	pv, mv []uint64
	score  []int
	lanes  laneState
	cells  int64
}

func (s *blockState) reset(words int) {
	if cap(s.pv) < words {
		s.pv, s.mv, s.score = make([]uint64, words), make([]uint64, words), make([]int, words)
	}
	s.pv, s.mv, s.score = s.pv[:words], s.mv[:words], s.score[:words]
}

// distance returns the distance of the pattern and t, or k+1 when k ≥ 0
// and the distance is more than k. A pattern of m symbols costs
// O(⌈m/64⌉·n) word steps at most for a text of n, far fewer under a cap.
func blockDistance[S symbol](bp *blockPattern, t []S, k int, st *blockState) int {
	m, n := bp.m, len(t)
	switch {
	case m == 0:
		return capAt(n, k)
	case n == 0:
		return capAt(m, k)
	case k >= 0 && abs(m-n) > k:
		return k + 1
	}
	if k >= 0 && k < max(m, n) {
		return blockPass(bp, t, bandFor(m, n, k), k, st)
	}
	// No cap below the trivial bound: a narrow pass first, whose value is
	// the distance when within its bound and else the bound of the exact
	// pass (as myersDistance does).
	u0 := abs(m-n) + max(wordBits, n/16)
	if u0 < max(m, n)/2 {
		v0 := blockPass(bp, t, bandFor(m, n, u0), -1, st)
		if v0 <= u0 {
			return v0
		}
		return blockPass(bp, t, bandFor(m, n, min(v0, max(m, n))), -1, st)
	}
	return blockPass(bp, t, bandFor(m, n, max(m, n)), -1, st)
}

// capAt is d under the cap k: k+1 when k ≥ 0 and d > k.
func capAt(d, k int) int {
	if k >= 0 && d > k {
		return k + 1
	}
	return d
}

// blockPass computes the band bd (see band) and returns D[m][n] as computed,
// or k+1 once every computed word is past k (k ≥ 0).
func blockPass[S symbol](bp *blockPattern, t []S, bd band, k int, st *blockState) int {
	m, W := bp.m, bp.words
	st.reset(W)
	pv, mv, score := st.pv, st.mv, st.score
	// Column 0: D[i][0] = i, vertical deltas +1.
	last := min(W-1, (bd.lo)/wordBits) // rows up to 0+lo at column 0… and 1+lo at column 1
	for w := 0; w <= last; w++ {
		pv[w], mv[w] = ^uint64(0), 0
		score[w] = min(m, (w+1)*wordBits)
	}
	first := 0
	heightLast := int(bp.lastBit) + 1
	// The columns [from, j) have run the words [first, last]: their cells,
	// 64 a word a column, are counted where the words change, not a column
	// at a time.
	from := 1
	for j := 1; j <= len(t); j++ {
		// Words meeting rows [j−hi, j+lo]: [next, bottom]. A word entering
		// at the bottom starts from the one above it, which the band held
		// at column j−1 (the band's bottom moves a row a column):
		// D[top−1][j−1] exact there, +1 a row below it.
		bottom, next := min(W-1, (j+bd.lo-1)/wordBits), first
		if top := j - bd.hi; top > 1 {
			next = max(first, (top-1)/wordBits)
		}
		if last < bottom || next > first {
			st.cells += int64(last-first+1) * int64(j-from) * wordBits
			from = j
		}
		for last < bottom {
			last++
			pv[last], mv[last] = ^uint64(0), 0
			score[last] = score[last-1] + min(wordBits, m-last*wordBits)
		}
		first = next

		c := int(t[j-1])
		var eqs []uint64
		if c < bp.sigma {
			eqs = bp.peq[c*W : c*W+W]
		}
		hp, hm := uint64(1), uint64(0)
		full := min(last, W-2) // words whose bottom row is bit 63
		for w := first; w <= full; w++ {
			var eq uint64
			if eqs != nil {
				eq = eqs[w]
			}
			var op, om uint64
			pv[w], mv[w], op, om = bitpar.Step(pv[w], mv[w], eq, hp, hm)
			score[w] += int(op) - int(om)
			hp, hm = op, om
		}
		if last == W-1 {
			w := W - 1
			var eq uint64
			if eqs != nil {
				eq = eqs[w]
			}
			var ph, mh uint64
			pv[w], mv[w], ph, mh = stepLast(pv[w], mv[w], eq, hp, hm)
			score[w] += int(ph>>bp.lastBit&1) - int(mh>>bp.lastBit&1)
		}
		if k >= 0 && j&7 == 0 && pastCap(score, first, last, W, heightLast, k) {
			st.cells += int64(last-first+1) * int64(j+1-from) * wordBits
			return k + 1
		}
	}
	st.cells += int64(last-first+1) * int64(len(t)+1-from) * wordBits
	// A band of bandFor reaches row m by column n (u ≥ |m−n|).
	return capAt(score[W-1], k)
}

// pastCap reports whether every word in [first, last] has no value ≤ k:
// its bottom value less its height−1 is past k.
func pastCap(score []int, first, last, words, heightLast, k int) bool {
	for w := first; w <= last; w++ {
		h := wordBits
		if w == words-1 {
			h = heightLast
		}
		if score[w]-(h-1) <= k {
			return false
		}
	}
	return true
}

// maxLanes is the most texts blockLanes runs against the pattern at once.
const maxLanes = 8

// laneWidth is how many texts blockLanes takes at once on this machine:
// eight in the lanes of a ZMM register with AVX-512, else four (in a YMM
// register with AVX2, else as four interleaved chains in Go).
func laneWidth() int {
	if useAVX512 {
		return 8
	}
	return 4
}

// laneState is blockLanes' buffers: word w of lane l at [w*lanes+l].
type laneState struct{ pv, mv []uint64 }

// blockLanes writes to out the distances of the pattern against the texts
// of ts, laneWidth() of them, at once: every cell of each matrix (no band,
// no cap), a lane a pair. The pairs' steps are independent, so a vector
// register holds them all and their carries wait on each other no more
// than one pair's would. A text shorter than the longest is read past its
// end as symbol 0, its distance taken at its own last column.
func blockLanes[S symbol](bp *blockPattern, ts [][]S, st *laneState, out []int) {
	m, W, L := bp.m, bp.words, len(ts)
	n := 0
	for l, t := range ts {
		n = max(n, len(t))
		out[l] = m // an empty text
		if m == 0 {
			out[l] = len(t)
		}
	}
	if m == 0 {
		return
	}
	if cap(st.pv) < L*W {
		st.pv, st.mv = make([]uint64, L*W), make([]uint64, L*W)
	}
	pv, mv := st.pv[:L*W], st.mv[:L*W]
	for i := range pv {
		pv[i], mv[i] = ^uint64(0), 0
	}
	if tb, ok := any(ts).([][]uint8); ok && L == wordLaneCount && n > 0 {
		// Eight texts of bytes in one call, as a many-pairs run's groups.
		var o [wordLaneCount]int
		g := &wordGroups(byteAlphabet, tb, L)[0] // sorted by length
		lanesGroup(bp, g, st, &o)
		for l := range g.texts {
			out[g.js[l]] = o[l]
		}
		return
	}
	var score [maxLanes]int
	for l := range L {
		score[l] = m
	}
	var off, d [maxLanes]int64
	lb := bp.lastBit
	peq := bp.peq
	for j := 1; j <= n; j++ {
		for l, t := range ts {
			var c int
			if j <= len(t) {
				c = int(t[j-1])
			}
			off[l] = int64(c * W)
		}
		switch {
		case L == 8:
			lanesColumnAVX512(&pv[0], &mv[0], &peq[0], &off, W, uint64(lb), &d)
		case useAVX2:
			lanesColumnAVX2(&pv[0], &mv[0], &peq[off[0]], &peq[off[1]], &peq[off[2]], &peq[off[3]], W, uint64(lb), (*[4]int64)(d[:4]))
		default:
			laneColumn(pv, mv, peq[off[0]:off[0]+int64(W)], peq[off[1]:off[1]+int64(W)],
				peq[off[2]:off[2]+int64(W)], peq[off[3]:off[3]+int64(W)], lb, (*[4]int64)(d[:4]))
		}
		for l, t := range ts {
			score[l] += int(d[l])
			if j == len(t) {
				out[l] = score[l]
			}
		}
	}
}

// lanesGroup sets out[l] to the distance of the pattern and text l of
// g, a group of up to eight texts of bytes coded as themselves
// (byteAlphabet), on AVX-512: every column in one call (lanesRunAVX512).
func lanesGroup(bp *blockPattern, g *wordGroup, st *laneState, out *[wordLaneCount]int) {
	m, W := bp.m, bp.words
	for l := range out {
		out[l] = m // an empty text, or no text
		if m == 0 {
			out[l] = g.lens[l]
		}
	}
	if m == 0 || g.n == 0 {
		return
	}
	const L = wordLaneCount
	if cap(st.pv) < L*W {
		st.pv, st.mv = make([]uint64, L*W), make([]uint64, L*W)
	}
	pv, mv := st.pv[:L*W], st.mv[:L*W]
	for i := range pv {
		pv[i], mv[i] = ^uint64(0), 0
	}
	var lens, o [L]int64
	for l := range L {
		lens[l], o[l] = int64(g.lens[l]), int64(m)
	}
	lanesRunAVX512(&pv[0], &mv[0], &bp.peq[0], &g.codes[0], g.n, W, m, uint64(bp.lastBit), &lens, &o)
	for l := range out {
		out[l] = int(o[l])
	}
}

// laneColumn is lanesColumnAVX2 in Go: one column of four lanes, as four
// interleaved chains of steps; the last row's deltas go to d.
func laneColumn(pv, mv, e0, e1, e2, e3 []uint64, lb uint, d *[4]int64) {
	const L = 4
	W := len(e0)
	h0p, h1p, h2p, h3p := uint64(1), uint64(1), uint64(1), uint64(1)
	var h0m, h1m, h2m, h3m uint64
	w := 0
	for ; w < W-1; w++ {
		v := pv[w*L : w*L+L : w*L+L]
		u := mv[w*L : w*L+L : w*L+L]
		v[0], u[0], h0p, h0m = bitpar.Step(v[0], u[0], e0[w], h0p, h0m)
		v[1], u[1], h1p, h1m = bitpar.Step(v[1], u[1], e1[w], h1p, h1m)
		v[2], u[2], h2p, h2m = bitpar.Step(v[2], u[2], e2[w], h2p, h2m)
		v[3], u[3], h3p, h3m = bitpar.Step(v[3], u[3], e3[w], h3p, h3m)
	}
	v := pv[w*L : w*L+L : w*L+L]
	u := mv[w*L : w*L+L : w*L+L]
	v[0], u[0], h0p, h0m = stepLast(v[0], u[0], e0[w], h0p, h0m)
	v[1], u[1], h1p, h1m = stepLast(v[1], u[1], e1[w], h1p, h1m)
	v[2], u[2], h2p, h2m = stepLast(v[2], u[2], e2[w], h2p, h2m)
	v[3], u[3], h3p, h3m = stepLast(v[3], u[3], e3[w], h3p, h3m)
	d[0] = int64(h0p>>lb&1) - int64(h0m>>lb&1)
	d[1] = int64(h1p>>lb&1) - int64(h1m>>lb&1)
	d[2] = int64(h2p>>lb&1) - int64(h2m>>lb&1)
	d[3] = int64(h3p>>lb&1) - int64(h3m>>lb&1)
}

// stepLast is bitpar.Step for the pattern's last word: it returns the
// horizontal deltas of every row (ph, mh before the shift) instead of the
// one at bit 63, for the caller to read the pattern's last row.
func stepLast(pv, mv, eq, hp, hm uint64) (npv, nmv, ph, mh uint64) {
	xv := eq | mv
	eq |= hm
	xh := (((eq & pv) + pv) ^ pv) | eq
	ph = mv | ^(xh | pv)
	mh = pv & xh
	p, q := ph<<1|hp, mh<<1|hm
	return q | ^(xv | p), p & xv, ph, mh
}
