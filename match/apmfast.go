package match

import (
	"math/bits"

	"github.com/levlab/levlab/internal/bitpar"
)

// apm-fast: a q-gram filter (match_filter.go) picks the stretches of text
// where a match can end; Myers' bit-vector algorithm (G. Myers, "A fast
// bit-vector algorithm for approximate string matching based on dynamic
// programming", J. ACM 46(3), 1999) in search mode, with Ukkonen's cut-off
// for patterns longer than a word, scans those stretches exactly.
//
// Search mode. Rows are the pattern's symbols, columns the text's; the top
// row is 0 in every column (a match may start anywhere), so the horizontal
// delta entering a column's top is 0. The score D[m][j] — the least distance
// between p and a substring ending at j — starts at m and moves by the
// horizontal delta leaving the bottom row. A match of cost ≤ k is at most
// m+k long, so a scan started m+k symbols before a position has the exact
// score there.
//
// Window mode. The window at j of full size m matches when
// Levenshtein(p, text[j:j+m]) ≤ k; that substring ends at e = j+m−1, so the
// search score at e, a minimum over the substrings ending at e — text[j..e]
// among them as long as the scan started at or before j — is ≤ k too, and
// the q-gram filter, which passes every end of a match of cost ≤ k, passes
// e. Hence only the windows whose end passes the filter and then scores ≤ k
// are verified, each by a global DP (windowVerify). The short windows at the
// text's end (fewer than m symbols) are verified directly. With k ≥ m every
// window matches.

// occurrenceFast counts the end positions in [a, b) whose search score is at
// most k, scanning the runs of ends the q-gram filter passes (all of [a, b)
// without a filter) each from m+k symbols before it. A run is scanned in
// pieces of pollWork positions, pl looked at between them.
func occurrenceFast(pp *pattern, text []byte, a, b, k int, pl *poller) int64 {
	m := len(pp.p)
	ctx := m + k
	if k >= m {
		return int64(b - a) // the empty substring is within m ≤ k
	}
	var count int64
	if m <= bitpar.WordBits {
		top := pp.top
		scan := func(rs, re int) {
			if pl.done(0) {
				return
			}
			sc := newScan1(m, k).warm(top, text[max(0, rs-ctx):rs])
			for rs < re {
				e := min(re, rs+pollWork)
				var c int64
				sc, c = sc.count(top, text[rs:e])
				count += c
				if pl.done(e - rs) {
					return
				}
				rs = e
			}
		}
		if pp.filter == nil {
			scan(a, b)
		} else {
			pp.filter.runs(text, a, b, ctx, scan)
		}
		return count
	}
	scan := func(rs, re int) {
		sc := newScanN(pp, k)
		if sc.run(pp, text[max(0, rs-ctx):rs], k, pl, nil) {
			sc.run(pp, text[rs:re], k, pl, func(int) { count++ })
		}
	}
	if pp.filter == nil {
		scan(a, b)
	} else {
		pp.filter.runs(text, a, b, ctx, scan)
	}
	return count
}

// windowFast counts the positions in [a, b) whose window matches; see the
// comment at the top of the file. Scans look at pl every pollWork
// positions or word operations, verifications every column.
func windowFast(pp *pattern, text []byte, a, b, k int, pl *poller) int64 {
	p := pp.p
	m, n := len(p), len(text)
	if k >= m {
		return int64(b - a) // a window of size s ≤ m is within s ≤ k edits
	}
	var count int64
	jEnd := max(a, min(b, n-m+1)) // full windows are [a, jEnd)
	if jEnd > a {
		t := text[a : jEnd+m-1]
		verify := func(e int) { // e: end of a candidate window in t
			if windowVerify(pp, m, t[e-m+1:e+1], k, pl) {
				count++
			}
		}
		// Scan t[rs:re] and verify the windows ending where the score is
		// ≤ k: t[:rs] or the m+k symbols before rs warm the scan up, either
		// of which is enough (see above).
		scan := func(rs, re int) {
			if pl.done(0) {
				return
			}
			warm := t[max(0, rs-(m+k)):rs]
			if m <= bitpar.WordBits {
				sc := newScan1(m, k).warm(pp.top, warm)
				for e := rs; e < re; {
					// Up to the next candidate or the end of the piece.
					from, end := e, min(re, e+pollWork)
					sc, e = sc.next(pp.top, t[:end], e)
					if pl.done(e - from) {
						return
					}
					if e < end {
						verify(e)
						e++
					}
				}
				return
			}
			sc := newScanN(pp, k)
			if sc.run(pp, warm, k, pl, nil) {
				sc.runFrom(pp, t[:re], rs, k, pl, verify)
			}
		}
		if pp.filter == nil {
			scan(m-1, len(t))
		} else {
			// The filter works on ends in text; t starts at a.
			pp.filter.runs(text, a+m-1, jEnd+m-1, m+k, func(rs, re int) { scan(rs-a, re-a) })
		}
	}
	for j := jEnd; j < b; j++ {
		size := n - j
		if pl.done(1) {
			break
		}
		if size <= k || windowVerify(pp, size, text[j:n], k, pl) {
			count++
		}
	}
	return count
}

// scan1 is the search state of a pattern of m ≤ 64 symbols: vertical deltas
// pv (+1 bits) and mv (−1 bits), and below = score − (k+1), negative exactly
// at a match. The pattern's rows are the top m bits of the word, so that the
// bottom row's horizontal delta is bit 63 (a constant shift, where a
// variable one would take a register the loop needs); the 64−m bits below
// are wildcard rows, matching every symbol (see pattern.top). Their
// values stay 0 in every column when they start at 0, so the pattern's first
// row sees 0 above it in every column: search mode exactly.
//
// The step is Myers' (Hyyrö's formulation) with 0 entering at the top:
//
//	xv = eq | mv;  xh = (((eq & pv) + pv) ^ pv) | eq
//	ph = mv | ^(xh | pv);  mh = pv & xh          (horizontal +1 / −1)
//	score += ph>>63 − mh>>63                     (bottom row)
//	ph <<= 1;  mh <<= 1
//	pv = mh | ^(xv | ph);  mv = ph & xv
//
// The loops compute ^ph = ^mv & (v | eq | pv) with v = ((eq&pv)+pv)^pv and
// ^(ph<<1) = 2·^ph + 1, which shortens the chain from pv to the next pv from
// 11 dependent operations to 9. The methods take and return the state by
// value so that it stays in registers: a pointer or k kept live across the
// loop would push a value of the loop to the stack.
type scan1 struct {
	pv, mv uint64
	below  int
}

// newScan1 returns the state before the first column: the wildcard rows at
// 0, the pattern's rows at 1, 2, …, m (vertical deltas +1), the score m.
func newScan1(m, k int) scan1 {
	return scan1{pv: ^uint64(0) << (bitpar.WordBits - m), below: m - k - 1}
}

// warm advances over t.
func (s scan1) warm(top *[256]uint64, t []byte) scan1 {
	pv, mv, below := s.pv, s.mv, s.below
	for _, c := range t {
		eq := top[c]
		xv := eq | mv
		epv := eq | pv
		v := ((eq & pv) + pv) ^ pv
		mh := pv & (v | eq)
		nph := ^mv & (v | epv)
		below += 1 - int(nph>>63) - int(mh>>63)
		nph = nph + nph + 1
		pv = mh<<1 | ^xv&nph
		mv = xv &^ nph
	}
	return scan1{pv, mv, below}
}

// count advances over t and returns how many of its positions score ≤ k.
func (s scan1) count(top *[256]uint64, t []byte) (scan1, int64) {
	pv, mv, below := s.pv, s.mv, s.below
	var count uint64
	for _, c := range t {
		eq := top[c]
		xv := eq | mv
		epv := eq | pv
		v := ((eq & pv) + pv) ^ pv
		mh := pv & (v | eq)
		nph := ^mv & (v | epv) // ^ph
		below += 1 - int(nph>>63) - int(mh>>63)
		nph = nph + nph + 1 // ^(ph<<1)
		pv = mh<<1 | ^xv&nph
		mv = xv &^ nph
		count += uint64(below) >> 63 // 1 at a match, without a branch
	}
	return scan1{pv, mv, below}, int64(count)
}

// next advances over t[i:] up to the first position whose score is ≤ k,
// included, and returns it; len(t) if there is none.
func (s scan1) next(top *[256]uint64, t []byte, i int) (scan1, int) {
	pv, mv, below := s.pv, s.mv, s.below
	for ; i < len(t); i++ {
		eq := top[t[i]]
		xv := eq | mv
		epv := eq | pv
		v := ((eq & pv) + pv) ^ pv
		mh := pv & (v | eq)
		nph := ^mv & (v | epv)
		below += 1 - int(nph>>63) - int(mh>>63)
		nph = nph + nph + 1
		pv = mh<<1 | ^xv&nph
		mv = xv &^ nph
		if below < 0 {
			break
		}
	}
	return scan1{pv, mv, below}, i
}

// scanN is the search state of a pattern longer than 64 symbols: one word
// pair per block of 64 rows, the score at each block's bottom row, and
// Ukkonen's cut-off (E. Ukkonen, "Finding approximate patterns in strings",
// J. Algorithms 6, 1985) as Myers (1999, section 4) applies it to blocks:
// only blocks 0..y are computed.
//
// Invariant: after each column, every cell of value ≤ k lies in blocks
// 0..y, and every computed value is an upper bound of the true one and exact
// where the true one is ≤ k. It holds because the last row ≤ k can move
// down by at most one per column (D[i][j+1] ≥ D[i−1][j]): block y+1 joins
// when y's bottom value is ≤ k, starting from the upper bounds
// score[y]+1, score[y]+2, … (vertical deltas all +1); block y leaves when its
// bottom value is ≥ k + its height, since vertical deltas ≥ −1 then keep its
// every row above k. A block that is not computed has no cell ≤ k, so the
// bottom row matches only when y is the last block.
type scanN struct {
	pv, mv []uint64
	score  []int
	y      int
	last   int
	height []int // rows per block: 64 but in the last block
}

func newScanN(pp *pattern, k int) *scanN {
	m := len(pp.p)
	nb := len(pp.peq)
	s := &scanN{pv: make([]uint64, nb), mv: make([]uint64, nb), score: make([]int, nb),
		last: nb - 1, height: make([]int, nb)}
	for b := range nb {
		s.height[b] = min(bitpar.WordBits, m-b*bitpar.WordBits)
		s.pv[b] = ^uint64(0)
		s.score[b] = min(m, (b+1)*bitpar.WordBits)
	}
	// Column 0 holds D[i][0] = i: the rows ≤ k, and one more, are active.
	s.y = min(s.last, k/bitpar.WordBits)
	return s
}

// run advances over t; hit, if not nil, gets each position whose score is
// ≤ k. It reports each position's blocks to pl and returns false, having
// stopped part way, where pl says stop; true once over t.
func (s *scanN) run(pp *pattern, t []byte, k int, pl *poller, hit func(i int)) bool {
	return s.runFrom(pp, t, 0, k, pl, hit)
}

// runFrom advances over t[from:].
func (s *scanN) runFrom(pp *pattern, t []byte, from, k int, pl *poller, hit func(i int)) bool {
	peq := pp.peq
	pvs, mvs, score := s.pv, s.mv, s.score
	y := s.y
	for i := from; i < len(t); i++ {
		if pl.done(y + 1) {
			s.y = y
			return false
		}
		c := t[i]
		var hp, hm uint64 // search mode: 0 enters the top row
		for b := 0; b <= y; b++ {
			pv, mv := pvs[b], mvs[b]
			eq := peq[b][c]
			xv := eq | mv
			eq |= hm
			xh := (((eq & pv) + pv) ^ pv) | eq
			ph := mv | ^(xh | pv)
			mh := pv & xh
			hi := uint(s.height[b] - 1)
			op, om := ph>>hi&1, mh>>hi&1
			score[b] += int(op) - int(om)
			ph = ph<<1 | hp
			mh = mh<<1 | hm
			pvs[b], mvs[b] = mh|^(xv|ph), ph&xv
			hp, hm = op, om
		}
		for y > 0 && score[y] >= k+s.height[y] {
			y--
		}
		if y < s.last && score[y] <= k {
			y++
			pvs[y], mvs[y] = ^uint64(0), 0
			score[y] = score[y-1] + s.height[y]
		}
		if y == s.last && score[y] <= k && hit != nil {
			hit(i)
		}
	}
	s.y = y
	return true
}

// windowVerify reports whether Levenshtein(p[:size], w) ≤ k, for len(w) =
// size ≤ len(p), with the bit-parallel global DP (top row D[0][j] = j, so
// +1 enters each column's top). It stops as soon as the diagonal cell
// D[j][j] exceeds k: values never decrease along a diagonal (Ukkonen 1985),
// so D[size][size] ≥ D[j][j]. Rows past size, present in the match table,
// never influence rows above them. O(size·⌈size/64⌉) time at most, pl
// told of each column's (a window of a long pattern is milliseconds of
// work); false where pl says stop.
func windowVerify(pp *pattern, size int, w []byte, k int, pl *poller) bool {
	w = w[:size]
	if size <= bitpar.WordBits {
		if pl.done(size) {
			return false
		}
		peq := &pp.peq[0]
		pv, mv := ^uint64(0), uint64(0)
		for j, c := range w {
			eq := peq[c] // hm = 0 enters the top, hp = 1
			xv := eq | mv
			xh := (((eq & pv) + pv) ^ pv) | eq
			ph := mv | ^(xh | pv)
			mh := pv & xh
			ph = ph<<1 | 1
			mh <<= 1
			pv = mh | ^(xv | ph)
			mv = ph & xv
			// D[j+1][j+1] = (j+1) + Σ_{rows ≤ j+1} vertical deltas.
			mask := ^uint64(0) >> (bitpar.WordBits - 1 - j)
			if j+1+bits.OnesCount64(pv&mask)-bits.OnesCount64(mv&mask) > k {
				return false
			}
		}
		return true
	}
	nb := (size + bitpar.WordBits - 1) / bitpar.WordBits
	var buf [2 * 8]uint64
	var pvs, mvs []uint64
	if nb <= 8 {
		pvs, mvs = buf[:nb], buf[8:8+nb]
	} else {
		pvs, mvs = make([]uint64, nb), make([]uint64, nb)
	}
	for b := range pvs {
		pvs[b], mvs[b] = ^uint64(0), 0
	}
	for j, c := range w {
		if pl.done(nb) {
			return false
		}
		hp, hm := uint64(1), uint64(0)
		for b := range nb {
			pvs[b], mvs[b], hp, hm = bitpar.Step(pvs[b], mvs[b], pp.peq[b][c], hp, hm)
		}
		d := j + 1
		full := (j + 1) / bitpar.WordBits
		for b := range full {
			d += bits.OnesCount64(pvs[b]) - bits.OnesCount64(mvs[b])
		}
		if r := (j + 1) % bitpar.WordBits; r != 0 {
			mask := uint64(1)<<r - 1
			d += bits.OnesCount64(pvs[full]&mask) - bits.OnesCount64(mvs[full]&mask)
		}
		if d > k {
			return false
		}
	}
	return true
}
