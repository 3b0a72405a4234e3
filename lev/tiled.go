package lev

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// DefaultTile is the tile side, in cells, of tiled and tiled-barrier when
// WithTile is not given, within report 001's good range (128–1024). On the
// 2-core Xeon this was tuned on, with 2 workers at 10k–30k, sides of 256,
// 512 and 1024 ran within the noise of a shared machine of one another
// (1.6–1.8× tworow); larger tiles pay less per tile (calls per pair of rows,
// boundaries moving between cores), smaller ones idle less in the ramp-up
// and ramp-down of the wavefront, which matters more with more workers.
// 512 still leaves 20 tiles a side at the reports' smallest size, 10k.
const DefaultTile = 512

// tileSide is the tile side a run uses.
func tileSide(c *config) int {
	if c.tile > 0 {
		return c.tile
	}
	return DefaultTile
}

// tileGrid is the state tiled and tiled-barrier share: the matrix D of a
// (rows of D, column sequence) against b (columns) cut into t×t tiles, tile
// (I, J) covering D[I*t+1 .. min((I+1)t, m)][J*t+1 .. min((J+1)t, n)], and
// the O(m+n) boundaries the tiles hand to one another. Only the boundaries
// are kept, never the matrix.
//
// Tiles on one antidiagonal I+J = k depend only on tiles of antidiagonals
// k-1 and k-2 and touch disjoint parts of the boundaries, so they may run
// concurrently; the callers must finish antidiagonal k (with a
// happens-before edge) before starting k+1.
type tileGrid[S symbol, C dpCell] struct {
	a, b       []S
	t          int
	rows, cols int // tiles down and across
	stride     int // cells between the starts of two boundary segments

	// Segment J of hb (hseg) holds D[i][J*t+1 .. J*t+w] for i the bottom
	// row of the last tile computed in tile column J (row 0 before any); it
	// doubles as the row buffer of the tile computing there.
	hb []C
	// Segment I of vb (vseg) holds D[I*t+1 .. I*t+h][j] for j the right
	// column of the last tile computed in tile row I (column 0 before any).
	vb []C
	// corner[J] = D[top-1][left-1] for the next tile of tile column J. By
	// the time tile (I, J) runs, tile (I, J-1) has overwritten that value
	// in hb and tile (I-1, J) in vb, so it is kept apart: tile (I-1, J)
	// stores it, having read it as the last of its own left column; no other
	// tile of column J can run between the two.
	corner []C
}

// tilePad is the gap, in cells, left between boundary segments when tiles
// are large enough for it to be cheap: segment starts are then a multiple of
// tilePad apart, plus tilePad more, so at least a 64-byte cache line
// separates the segments that tiles running side by side on an
// antidiagonal rewrite on every pair of rows; packed end to end, their ends
// would share a line (false sharing). On the 2-core test machine the effect
// was within noise; it costs nothing.
const tilePad = 16

func newTileGrid[S symbol, C dpCell](a, b []S, t int) *tileGrid[S, C] {
	m, n := len(a), len(b)
	g := &tileGrid[S, C]{
		a: a, b: b, t: t,
		rows: (m-1)/t + 1, // m, n >= 1; written so that m+t cannot overflow
		cols: (n-1)/t + 1,
	}
	// A segment is at most min(t, length) cells long; small tiles are not
	// padded, which would multiply the boundaries' size.
	g.stride = min(t, max(m, n))
	if g.stride >= 4*tilePad {
		g.stride = (g.stride+tilePad-1)/tilePad*tilePad + tilePad
	}
	g.hb = make([]C, g.cols*g.stride)
	g.vb = make([]C, g.rows*g.stride)
	g.corner = make([]C, g.cols)
	for J := range g.cols {
		for x := range g.hseg(J) {
			g.hseg(J)[x] = C(J*t + 1 + x) // D[0][j] = j
		}
		g.corner[J] = C(J * t) // D[0][J*t]
	}
	for I := range g.rows {
		for x := range g.vseg(I) {
			g.vseg(I)[x] = C(I*t + 1 + x) // D[i][0] = i
		}
	}
	return g
}

// hseg is tile column J's segment of the horizontal boundary.
func (g *tileGrid[S, C]) hseg(J int) []C {
	w := min(g.t, len(g.b)-J*g.t)
	return g.hb[J*g.stride : J*g.stride+w]
}

// vseg is tile row I's segment of the vertical boundary.
func (g *tileGrid[S, C]) vseg(I int) []C {
	h := min(g.t, len(g.a)-I*g.t)
	return g.vb[I*g.stride : I*g.stride+h]
}

// antidiagonals is the number of tile antidiagonals, rows+cols-1.
func (g *tileGrid[S, C]) antidiagonals() int { return g.rows + g.cols - 1 }

// span returns the tile rows on antidiagonal k: I in [lo, hi].
func (g *tileGrid[S, C]) span(k int) (lo, hi int) {
	return max(0, k-g.cols+1), min(k, g.rows-1)
}

// distance is D[m][n], valid once the last tile has run.
func (g *tileGrid[S, C]) distance() int {
	last := g.hseg(g.cols - 1)
	return int(last[len(last)-1])
}

// tile computes tile (I, J) row by row, two rows at a time, with the same
// kernels as twoRow, in place in its segment of hb; then the bottom row is
// in hb, the right column in vb and the corner for tile (I+1, J) in corner.
func (g *tileGrid[S, C]) tile(I, J int) {
	row := g.hseg(J)
	left := g.vseg(I) // D[i][lo] in, D[i][hi] out
	a := g.a[I*g.t:][:len(left)]
	b := g.b[J*g.t:][:len(row)]
	diag := g.corner[J]
	g.corner[J] = left[len(left)-1]
	r := 0
	for ; r+1 < len(a); r += 2 {
		l0, l1 := left[r], left[r+1]
		left[r], left[r+1] = wfRowPair(a[r], a[r+1], b, row, diag, l0, l1)
		diag = l1 // D[i+1][lo], the upper-left of the next pair's first row
	}
	if r < len(a) {
		left[r] = wfRow(a[r], b, row, diag, left[r])
	}
}

// tiled returns the Levenshtein distance of a and b by an antidiagonal
// wavefront of tiles, report 000's OpenMP version (Listing 3): the tiles of
// one antidiagonal are tasks for a pool of c.workers goroutines (the caller,
// which hands out the tasks as OpenMP's master thread did, and c.workers-1
// helpers alive for the whole run); every member claims tasks one at a time
// from a shared counter, as a taskloop's threads take its tasks, and the
// antidiagonal ends when every task is done. Each tile is filled row by row
// by the tworow kernels (tileGrid.tile).
//
// Time O(mn/W) plus one hand-off per antidiagonal of tiles; memory O(m+n):
// a horizontal and a vertical boundary and a corner per tile column, never
// the matrix. Invariant: when antidiagonal k is handed out, every tile of
// antidiagonals < k is done and the boundaries hold their edges.
func tiled[S symbol](a, b []S, c *config) (int, error) {
	if fitsInt32(len(a), len(b)) {
		return tiledCells[S, int32](a, b, c)
	}
	return tiledCells[S, int64](a, b, c)
}

func tiledCells[S symbol, C dpCell](a, b []S, c *config) (int, error) {
	g := newTileGrid[S, C](a, b, tileSide(c))
	p := &tilePool[S, C]{grid: g, ctx: c.ctx}
	p.park.init(c.workers)
	var helpers sync.WaitGroup
	for range c.workers - 1 {
		helpers.Go(p.help)
	}
	// However the loop ends, the helpers are told to stop and joined
	// before returning: none is left behind.
	defer func() {
		p.stop.Store(true)
		p.park.wake()
		helpers.Wait()
	}()

	for k := range g.antidiagonals() {
		lo, hi := g.span(k)
		p.pending.Store(int64(hi - lo + 1))
		p.next.Store(uint64(k) << 32)
		p.epoch.Store(uint64(k) + 1) // publishes the antidiagonal
		if hi > lo {
			p.park.wake()
		}
		p.work(k)
		// The helpers may still be at work on the last tiles.
		p.park.await(&p.finished, uint64(k), &p.stop)
		if p.stop.Load() {
			return 0, p.err
		}
	}
	c.count(int64(len(a)) * int64(len(b)))
	return g.distance(), nil
}

// tilePool is the shared state of one tiled run.
//
// Antidiagonal k is published by storing k+1 in epoch; its tasks t (tile
// (lo+t, k-lo-t), lo from span) are claimed from next, which holds k in its
// high 32 bits and the next t in its low 32 bits, so that a member still
// claiming from an antidiagonal that has ended finds k changed and claims
// nothing of the next one. pending counts the tasks not yet done; whoever
// finishes the last stores k+1 in finished, which the caller waits for.
type tilePool[S symbol, C dpCell] struct {
	grid *tileGrid[S, C]
	ctx  context.Context

	_        [64]byte // the atomics below on cache lines of their own
	epoch    atomic.Uint64
	next     atomic.Uint64
	pending  atomic.Int64
	finished atomic.Uint64
	stop     atomic.Bool
	_        [64]byte

	park    parking
	errOnce sync.Once
	err     error // set before stop
}

// help is a helper's life: wait for an antidiagonal to be published, take
// part in it, repeat until stopped.
func (p *tilePool[S, C]) help() {
	var seen uint64
	for {
		p.park.await(&p.epoch, seen, &p.stop)
		if p.stop.Load() {
			return
		}
		// A helper late by more than one antidiagonal joins the newest.
		seen = p.epoch.Load()
		p.work(int(seen - 1))
	}
}

// work claims and computes tiles of antidiagonal k until none is left, the
// antidiagonal has ended, or the run is stopped.
func (p *tilePool[S, C]) work(k int) {
	lo, hi := p.grid.span(k)
	count := uint64(hi - lo + 1)
	for !p.stop.Load() {
		v := p.next.Load()
		if v>>32 != uint64(k) || v&math.MaxUint32 >= count {
			return
		}
		if !p.next.CompareAndSwap(v, v+1) {
			continue
		}
		if err := canceled(p.ctx); err != nil {
			p.errOnce.Do(func() { p.err = err })
			p.stop.Store(true)
			p.park.wake()
			return
		}
		I := lo + int(v&math.MaxUint32)
		p.grid.tile(I, k-I)
		if p.pending.Add(-1) == 0 {
			p.finished.Store(uint64(k) + 1)
			p.park.wake()
		}
	}
}
