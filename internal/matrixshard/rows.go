package matrixshard

import (
	"context"
	"math/bits"

	"github.com/levlab/levlab/lev"
)

// A Shard is the Index-th of Count parts of a matrix's rows (Index from
// 0): a batch job's (levlab matrix --shard I/N), or a band of an MPI job.
type Shard struct{ Index, Count int }

// A Matrix is the pairs levlab matrix computes: every string of A (the
// rows) against every string of B, or, with Tri, the pairs of A (B is A
// then): those with j > i, or with Top > 0 each string's Top nearest
// among the others (j ≠ i). Pairs computes them; against B, its options
// hold the top, if any.
type Matrix struct {
	A, B  [][]byte
	Tri   bool
	Top   int
	Pairs PairsFunc
}

// PairsFunc runs lev's Cross (b given) or All (b nil) over byte or rune
// strings with the run's options and extra ones.
type PairsFunc func(a, b [][]byte, fn func(lev.Pair) error, extra ...lev.Option) error

// Rows returns the rows (strings of A) of shard s: a run of them whose
// cells — each pair's |a|·|b|, summed — come to about a Count-th of all,
// so that shards of strings of skewed lengths finish together. The runs
// of shards 0 … Count−1 follow each other from row 0 to the last.
func (m Matrix) Rows(s Shard) (from, to int) {
	return RowsOf(len(m.A), len(m.B), func(i int) int { return len(m.A[i]) }, func(j int) int { return len(m.B[j]) }, m.Tri, m.Top > 0, s)
}

// RowsOf is Matrix.Rows over the strings' lengths only: A's na strings,
// string i la(i) bytes long, and B's nb, string j lb(j) bytes long (A's
// own with tri); with tri, row i's pairs are those with j > i, or, with
// top, every j ≠ i.
//
// Row i costs (la(i)+1)·Σ(lb(j)+1) over its pairs' j (an empty string
// still costs its pairs), and goes to shard k of N where its midpoint —
// the cells of the rows before it and half its own, rounded down — lies
// in [total·k/N, total·(k+1)/N). Every sum and product is exact in 128
// bits, whatever the lengths and N, as long as each file's bytes and
// strings together fit in 64 bits (they are in memory): a million reads
// of 150 bytes hold 1.1·10^16 cells, past math.MaxInt64 once multiplied
// by a shard's index. Time O(na+nb) and two passes over the rows; memory
// O(1).
func RowsOf(na, nb int, la, lb func(int) int, tri, top bool, s Shard) (from, to int) {
	var bytesB uint64
	for j := range nb {
		bytesB += uint64(lb(j))
	}
	costs := func(yield func(int, u128) bool) {
		rest := bytesB // one set: the bytes of the strings after row i
		for i := range na {
			var other uint64 // the bytes of row i's pairs' strings, and one a pair
			switch {
			case !tri:
				other = bytesB + uint64(nb)
			case top:
				other = bytesB - uint64(lb(i)) + uint64(nb-1)
			default:
				rest -= uint64(lb(i))
				other = rest + uint64(nb-1-i)
			}
			if !yield(i, mul64(uint64(la(i))+1, other)) {
				return
			}
		}
	}
	var total u128
	for _, c := range costs {
		total = total.add(c)
	}
	bound := func(k int) int {
		switch k {
		case 0:
			return 0
		case s.Count:
			return na
		}
		// The first row whose midpoint m has m·N ≥ total·k, that is m ≥
		// ⌈total·k/N⌉ = q·k + ⌈r·k/N⌉ with total = q·N + r: q·k ≤ total
		// and r·k < N², so neither passes 128 bits.
		q, r := total.divmod(uint64(s.Count))
		part, rem := mul64(r, uint64(k)).divmod(uint64(s.Count))
		target := q.mul(uint64(k)).add(part)
		if rem > 0 {
			target = target.add(u128{lo: 1})
		}
		var sum u128
		for i, c := range costs {
			if !sum.add(c.half()).less(target) {
				return i
			}
			sum = sum.add(c)
		}
		return na
	}
	return bound(s.Index), bound(s.Index + 1)
}

// u128 is an unsigned 128-bit integer: a matrix's cells, bytes times
// bytes, pass 64 bits.
type u128 struct{ hi, lo uint64 }

// mul64 is x·y.
func mul64(x, y uint64) u128 {
	hi, lo := bits.Mul64(x, y)
	return u128{hi, lo}
}

// add is x+y; the sum must fit.
func (x u128) add(y u128) u128 {
	lo, carry := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, carry)
	return u128{hi, lo}
}

// mul is x·y; the product must fit.
func (x u128) mul(y uint64) u128 {
	hi, lo := bits.Mul64(x.lo, y)
	return u128{x.hi*y + hi, lo}
}

// half is ⌊x/2⌋.
func (x u128) half() u128 { return u128{x.hi >> 1, x.hi<<63 | x.lo>>1} }

// less reports whether x < y.
func (x u128) less(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

// divmod is ⌊x/d⌋ and x mod d, for d > 0.
func (x u128) divmod(d uint64) (u128, uint64) {
	hi, r := bits.Div64(0, x.hi, d)
	lo, r := bits.Div64(r, x.lo, d)
	return u128{hi, lo}, r
}

// Run calls emit with the pairs of rows from … to−1 of A, in the order
// and numbering one process gives them (I and J index the whole sets).
// Of the pairs of A, the rows' triangle and the rectangle to its right
// are computed side by side and joined, each with a context that ends
// with ctx or when the other fails.
func (m Matrix) Run(ctx context.Context, from, to int, emit func(lev.Pair) error) error {
	if from >= to {
		return nil
	}
	a, b, top, pairs := m.A, m.B, m.Top, m.Pairs
	band := a[from:to]
	shift := func(dj int, fn func(lev.Pair) error) func(lev.Pair) error {
		return func(p lev.Pair) error {
			p.I += from
			p.J += dj
			return fn(p)
		}
	}
	switch {
	case !m.Tri:
		return pairs(band, b, shift(0, emit))
	case top > 0:
		// Every j ≠ i: the band against the whole set, one nearer kept so
		// that the row still has top pairs once the string itself (at
		// distance 0) is left out.
		return withoutSelf(top, func(fn func(lev.Pair) error) error {
			return pairs(band, a, shift(0, fn), lev.WithTop(top+1))
		}, emit)
	}
	// j > i: the triangle within the band and the rectangle to its right,
	// run side by side and joined row by row, as one process orders them.
	return joinRows(ctx, from, to,
		func(fn func(lev.Pair) error, extra lev.Option) error { return pairs(band, nil, shift(from, fn), extra) },
		func(fn func(lev.Pair) error, extra lev.Option) error {
			return pairs(band, a[to:], shift(to, fn), extra)
		}, emit)
}

// withoutSelf passes run's rows to emit, each without its pair (i, i) and
// cut to top pairs.
func withoutSelf(top int, run func(func(lev.Pair) error) error, emit func(lev.Pair) error) error {
	row, cur := make([]lev.Pair, 0, top+1), -1
	flush := func() error {
		kept := 0
		for _, p := range row {
			if p.J == p.I || kept == top {
				continue
			}
			kept++
			if err := emit(p); err != nil {
				return err
			}
		}
		row = row[:0]
		return nil
	}
	err := run(func(p lev.Pair) error {
		if p.I != cur {
			if err := flush(); err != nil {
				return err
			}
			cur = p.I
		}
		row = append(row, p)
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// joinRows runs first and second side by side, each with a context that
// ends when either fails, and passes their pairs to emit row by row: row
// i's pairs of first, then its pairs of second.
func joinRows(ctx context.Context, from, to int, first, second func(func(lev.Pair) error, lev.Option) error, emit func(lev.Pair) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type stream struct {
		c   chan lev.Pair
		err error
	}
	start := func(run func(func(lev.Pair) error, lev.Option) error) *stream {
		s := &stream{c: make(chan lev.Pair, 4096)}
		go func() {
			defer close(s.c)
			s.err = run(func(p lev.Pair) error {
				select {
				case s.c <- p:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}, lev.WithContext(ctx))
		}()
		return s
	}
	streams := []*stream{start(first), start(second)}
	heads := make([]*lev.Pair, 2)
	next := func(k int) bool {
		if heads[k] == nil {
			p, ok := <-streams[k].c
			if !ok {
				return false
			}
			heads[k] = &p
		}
		return true
	}
	var err error
	for i := from; i < to && err == nil; i++ {
		for k := range streams {
			for err == nil && next(k) && heads[k].I == i {
				err = emit(*heads[k])
				heads[k] = nil
			}
		}
	}
	cancel()
	for _, s := range streams {
		for range s.c { // let a stopped run end
		}
		if err == nil && s.err != nil {
			err = s.err
		}
	}
	return err
}
