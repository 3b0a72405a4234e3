package lev

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Alignment: not only how far apart two sequences are, but which edits
// take one to the other, in memory linear in their lengths.
//
// Hirschberg's divide and conquer (CACM 18(6), 1975) over the pipelined
// bit-parallel pass of myers.go. The longer sequence x is cut in half;
// the shorter y gives the rows. One pass of y against the first half of x
// yields D(y[:i], x[:mid]) for every i — the pass's last column, read from
// its vertical deltas when it ends — and one of y reversed against the
// second half reversed yields D(y[i:], x[mid:]); the i where their sum is
// least splits y, and the two pieces are aligned alone, on half the workers
// each, down to pieces small enough for a DP with a traceback.
//
// Band. Both passes keep to the Ukkonen band of the piece's bound u (see
// myers.go): every value computed is the cost of a real path, and every
// value on an optimal path is exact when the distance is at most u. So the
// least sum is the distance when it is at most u, and more than u when the
// distance is; and the two halves' values at the split are their own
// distances, the bounds of the next level. Only the first level guesses:
// from a narrow band, then (if the distance is past it) from the least sum
// found, a real path's cost — or from WithMax's k, where a sum past k
// answers k+1 at once. A level costs O(⌈|y|/64⌉·u) word steps per piece,
// the levels together about twice one banded distance; memory O(m+n).

// An Op is one kind of edit of an alignment, as in an extended CIGAR with
// a as the query and b as the reference (SAM).
type Op byte

const (
	OpMatch Op = '=' // a symbol of a equal to one of b
	OpSubst Op = 'X' // a symbol of a replaced by another of b
	OpIns   Op = 'I' // a symbol of a only
	OpDel   Op = 'D' // a symbol of b only
)

// An Edit is a run of one Op: Len symbols.
type Edit struct {
	Op  Op
	Len int
}

// An Alignment is an optimal edit script from a to b: its edits walk both
// sequences to their ends, OpMatch only on equal symbols, OpSubst only on
// unequal ones, and every edit but OpMatch costs one a symbol, so that
// Cost() is the distance. Under WithMax(k), a distance past k is answered
// as Distance k+1 and no Edits.
type Alignment struct {
	Distance int
	Edits    []Edit // runs of one Op, consecutive runs of different Ops
}

// CIGAR returns the alignment as an extended CIGAR string, e.g. "1X3=1X1=1D"
// for kitten → sitting ("" for two empty sequences, "*" for a distance past
// WithMax's cap, as SAM writes an unavailable CIGAR).
func (al Alignment) CIGAR() string {
	if al.Edits == nil && al.Distance > 0 {
		return "*"
	}
	var b strings.Builder
	for _, e := range al.Edits {
		b.WriteString(strconv.Itoa(e.Len))
		b.WriteByte(byte(e.Op))
	}
	return b.String()
}

// Cost returns the edits that cost one: every one but OpMatch.
func (al Alignment) Cost() int {
	c := 0
	for _, e := range al.Edits {
		if e.Op != OpMatch {
			c += e.Len
		}
	}
	return c
}

// Align returns an optimal alignment of a and b, compared byte by byte,
// and their distance. Options: WithWorkers (the pieces of each split run
// side by side), WithMax (past k: Distance k+1, no edits, computed only in
// the band of cost k), WithContext and WithStats. The algorithm is the
// bit-parallel Hirschberg above, whatever WithAlgorithm says (only Auto is
// taken, to leave the choice to later algorithms).
func Align(a, b []byte, opts ...Option) (Alignment, error) {
	c, err := alignConfig(opts)
	if err != nil {
		return Alignment{}, err
	}
	return alignSeqs(c, a, b)
}

// AlignString is Align counted in runes, as DistanceString counts them:
// each invalid UTF-8 byte is one U+FFFD, as in a for-range loop, so that
// different invalid bytes match (check utf8.ValidString first where they
// must not).
func AlignString(a, b string, opts ...Option) (Alignment, error) {
	c, err := alignConfig(opts)
	if err != nil {
		return Alignment{}, err
	}
	ca, cb, small := encodeRunes(a, b)
	if small {
		return alignSeqs(c, narrow(ca), narrow(cb))
	}
	return alignSeqs(c, ca, cb)
}

func alignConfig(opts []Option) (*config, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if c.alg != Auto {
		return nil, fmt.Errorf("lev: %w: Align runs its own algorithm (bit-parallel Hirschberg): algorithm %s is not taken (leave it auto)", ErrInvalidOption, c.alg)
	}
	if c.ranks != nil {
		return nil, fmt.Errorf("lev: %w: ranks: Align runs in one process; WithRanks is for Distance", ErrInvalidOption)
	}
	if c.stats != nil {
		*c.stats = Stats{Algorithm: Auto, Workers: c.workers}
	}
	return c, nil
}

func alignSeqs[S symbol](c *config, a, b []S) (Alignment, error) {
	m, n := len(a), len(b)
	if max(m, n) >= unreached {
		return Alignment{}, fmt.Errorf("lev: %w: Align takes sequences of fewer than %d symbols, not %d", ErrTooLarge, unreached, max(m, n))
	}
	k := c.capK()
	if k >= 0 && abs(m-n) > k {
		return Alignment{Distance: k + 1}, nil
	}
	al := &aligner[S]{ctx: c.ctx, kernel: c.kernel, counting: c.stats != nil}
	defer func() { c.count(al.cells.Load()) }()
	u := k
	if u < 0 {
		u = min(max(m, n), abs(m-n)+max(2*bandRows, (m+n)/1024))
	}
	for {
		es, v, ok, err := al.solve(a, b, u, c.workers, &alignScratch[S]{})
		switch {
		case err != nil:
			return Alignment{}, fmt.Errorf("lev: Align: %w", err)
		case ok && (k < 0 || v <= k):
			if es == nil {
				es = []Edit{}
			}
			return Alignment{Distance: v, Edits: es}, nil
		case k >= 0:
			return Alignment{Distance: k + 1}, nil
		}
		// Past the guess: v is a real path's cost, so a bound.
		u = min(v, max(m, n))
	}
}

type aligner[S symbol] struct {
	ctx      context.Context
	kernel   myersKernel // the passes' kernel: Auto, unless a test asks
	counting bool        // count the cells computed in cells (Stats.Computed)
	cells    atomic.Int64
}

// alignScratch is one goroutine's buffers, reused piece after piece.
type alignScratch[S symbol] struct {
	fwd, bwd lastCol
	rx, ry   []S
	dp       []int32
	ops      []Op
}

// addEdit appends n edits op to es, merging runs.
func addEdit(es []Edit, op Op, n int) []Edit {
	if n == 0 {
		return es
	}
	if k := len(es); k > 0 && es[k-1].Op == op {
		es[k-1].Len += n
		return es
	}
	return append(es, Edit{op, n})
}

// alignSmall is the size (cells) up to which a piece is aligned by a DP
// with a traceback: small enough for its matrix to stay in cache.
const alignSmall = 1 << 12

// solve aligns a and b, given u: when their distance is at most u it
// returns their edits, the distance and ok; otherwise a real path's cost
// v > u, and not ok.
func (al *aligner[S]) solve(a, b []S, u, workers int, sc *alignScratch[S]) (es []Edit, v int, ok bool, err error) {
	// The common prefix and suffix are matches.
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	a, b = a[p:len(a)-s], b[p:len(b)-s]
	es = addEdit(es, OpMatch, p)
	switch {
	case len(a) == 0:
		es, v = addEdit(es, OpDel, len(b)), len(b)
	case len(b) == 0:
		es, v = addEdit(es, OpIns, len(a)), len(a)
	case len(a) == 1 || len(b) == 1:
		es, v = alignOne(es, a, b)
	case int64(len(a))*int64(len(b)) <= alignSmall:
		es, v = sc.traceback(es, a, b)
		if al.counting {
			al.cells.Add(int64(len(a)) * int64(len(b)))
		}
	default:
		if err := canceled(al.ctx); err != nil {
			return nil, 0, false, err
		}
		var ma, mb, dl, dr int
		v, ma, mb, dl, dr, err = al.split(a, b, u, workers, sc)
		if err != nil || v > u {
			return nil, v, false, err
		}
		left, right, err := al.halves(a, b, ma, mb, dl, dr, workers, sc)
		if err != nil {
			return nil, 0, false, err
		}
		es = append(addEdit(es, left[0].Op, left[0].Len), left[1:]...)
		es = append(addEdit(es, right[0].Op, right[0].Len), right[1:]...)
	}
	return addEdit(es, OpMatch, s), v, true, nil
}

// halves aligns a[:ma] with b[:mb] (distance dl) and a[ma:] with b[mb:]
// (distance dr), side by side on half the workers each when there are two
// or more.
func (al *aligner[S]) halves(a, b []S, ma, mb, dl, dr, workers int, sc *alignScratch[S]) (left, right []Edit, err error) {
	piece := func(a, b []S, d, w int, sc *alignScratch[S]) ([]Edit, error) {
		es, v, ok, err := al.solve(a, b, d, w, sc)
		if err == nil && (!ok || v != d) {
			err = fmt.Errorf("internal error: a piece of distance %d aligned at %d", d, v)
		}
		return es, err
	}
	if workers < 2 {
		if left, err = piece(a[:ma], b[:mb], dl, 1, sc); err != nil {
			return nil, nil, err
		}
		right, err = piece(a[ma:], b[mb:], dr, 1, sc)
		return left, right, err
	}
	var rerr error
	var wg sync.WaitGroup
	wg.Go(func() { right, rerr = piece(a[ma:], b[mb:], dr, workers-workers/2, &alignScratch[S]{}) })
	left, err = piece(a[:ma], b[:mb], dl, workers/2, sc)
	wg.Wait()
	if err == nil {
		err = rerr
	}
	return left, right, err
}

// split cuts the longer of a and b in half and returns where the shorter
// is cut: a[:ma] with b[:mb], of distance dl, and a[ma:] with b[mb:], of
// distance dr, when the distance v = dl+dr is at most u; otherwise a real
// path's cost v > u.
func (al *aligner[S]) split(a, b []S, u, workers int, sc *alignScratch[S]) (v, ma, mb, dl, dr int, err error) {
	x, y := a, b
	if len(b) > len(a) {
		x, y = b, a
	}
	mid, ny := len(x)/2, len(y)
	bd := bandFor(ny, len(x), u)
	sigma := alphabetSize(x, y)
	sc.rx, sc.ry = reverseInto(sc.rx, x[mid:]), reverseInto(sc.ry, y)
	fwd := func(w int) error { return al.lastColumn(y, x[:mid], bd, sigma, w, &sc.fwd) }
	bwd := func(w int) error { return al.lastColumn(sc.ry, sc.rx, bd, sigma, w, &sc.bwd) }
	if workers < 2 {
		err = fwd(1)
		if err == nil {
			err = bwd(1)
		}
	} else {
		var berr error
		var wg sync.WaitGroup
		wg.Go(func() { berr = bwd(workers - workers/2) })
		err = fwd(workers / 2)
		wg.Wait()
		if err == nil {
			err = berr
		}
	}
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	// The least fwd[i] + bwd[ny−i], the columns unpacked a block at a time.
	const block = 256
	var fb, bb [block]int32
	best, at := int64(-1), 0
	for i0 := 0; i0 <= ny; i0 += block {
		k := min(block, ny+1-i0)
		sc.fwd.values(i0, fb[:k])
		sc.bwd.values(ny-i0-k+1, bb[:k])
		for j := range k {
			if s := int64(fb[j]) + int64(bb[k-1-j]); best < 0 || s < best {
				best, at = s, i0+j
			}
		}
	}
	dl, dr = int(sc.fwd.at(at)), int(sc.bwd.at(ny-at))
	if len(b) > len(a) {
		return int(best), at, mid, dl, dr, nil
	}
	return int(best), mid, at, dl, dr, nil
}

// lastColumn sets col to D(p[:i], t), i = 0 … len(p), as the band bd
// computes it (see myersPass), on workers goroutines: the cost of a real
// path, exact on an optimal one, and unreached outside the band.
func (al *aligner[S]) lastColumn(p, t []S, bd band, sigma, workers int, col *lastCol) error {
	// Rows past len(t)+lo meet no column of t within the band.
	rows := min(len(p), len(t)+bd.lo)
	col.reset(len(p), rows, int32(len(t)))
	ps := &myersPass[S]{p: p[:rows], t: t, m: rows, n: len(t), sigma: sigma, band: bd,
		workers: workers, chunk: myersChunk(bd, len(t), workers, 0), ctx: al.ctx, kernel: al.kernel, col: col}
	_, err := ps.run()
	if err == nil && al.counting {
		al.cells.Add(ps.computed())
	}
	return err
}

func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func reverseInto[S symbol](dst, src []S) []S {
	dst = append(dst[:0], src...)
	slices.Reverse(dst)
	return dst
}

// alignOne aligns a and b when one of them is a single symbol: matched
// with its first occurrence in the other, else substituted for its first
// symbol, the rest inserted or deleted.
func alignOne[S symbol](es []Edit, a, b []S) ([]Edit, int) {
	one, long, rest := a[0], b, OpDel
	if len(a) > 1 {
		one, long, rest = b[0], a, OpIns
	}
	j := slices.Index(long, one)
	if j < 0 {
		es = addEdit(es, OpSubst, 1)
		return addEdit(es, rest, len(long)-1), len(long)
	}
	es = addEdit(es, rest, j)
	es = addEdit(es, OpMatch, 1)
	return addEdit(es, rest, len(long)-1-j), len(long) - 1
}

// traceback aligns a small piece by the whole DP and a walk back from its
// end, preferring a diagonal step, then a symbol of a, then one of b; it
// appends the edits to es and returns them with the distance.
func (sc *alignScratch[S]) traceback(es []Edit, a, b []S) ([]Edit, int) {
	m, n := len(a), len(b)
	w := n + 1
	sc.dp = growInt32(sc.dp, (m+1)*w)
	d := sc.dp
	for j := 0; j <= n; j++ {
		d[j] = int32(j)
	}
	for i := 1; i <= m; i++ {
		d[i*w] = int32(i)
		for j := 1; j <= n; j++ {
			v := d[(i-1)*w+j-1]
			if a[i-1] != b[j-1] {
				v = 1 + min(v, d[(i-1)*w+j], d[i*w+j-1])
			}
			d[i*w+j] = v
		}
	}
	rev := sc.ops[:0]
	i, j := m, n
	for i > 0 || j > 0 {
		switch {
		case i > 0 && j > 0 && a[i-1] == b[j-1] && d[i*w+j] == d[(i-1)*w+j-1]:
			rev, i, j = append(rev, OpMatch), i-1, j-1
		case i > 0 && j > 0 && d[i*w+j] == d[(i-1)*w+j-1]+1:
			rev, i, j = append(rev, OpSubst), i-1, j-1
		case i > 0 && d[i*w+j] == d[(i-1)*w+j]+1:
			rev, i = append(rev, OpIns), i-1
		default:
			rev, j = append(rev, OpDel), j-1
		}
	}
	sc.ops = rev
	for k := len(rev) - 1; k >= 0; k-- {
		es = addEdit(es, rev[k], 1)
	}
	return es, int(d[m*w+n])
}
