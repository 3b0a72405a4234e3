package lev

import "sync"

// tiledBarrier returns the Levenshtein distance of a and b by the same tile
// wavefront as tiled, organised as report 001's C++ threads version: c.workers
// long-lived goroutines (the caller and c.workers-1 others) walk every
// antidiagonal of tiles in step, each computing the tiles statically
// assigned to it, and meet at an explicit reusable barrier (barrier, a
// counterpart of the boost::barrier the report used) after every
// antidiagonal. Tile (I, J) belongs to worker I mod W: a tile row always
// stays with one worker, so the vertical boundary it hands from tile to tile
// stays in that worker's cache, and the tiles of one antidiagonal, which
// have consecutive I, are dealt round-robin.
//
// Time O(mn/W) plus one barrier per antidiagonal of tiles; memory O(m+n), as
// tiled. Invariant: a worker starts antidiagonal k only after every worker
// has passed the barrier that ends k-1.
func tiledBarrier[S symbol](a, b []S, c *config) (int, error) {
	if fitsInt32(len(a), len(b)) {
		return tiledBarrierCells[S, int32](a, b, c)
	}
	return tiledBarrierCells[S, int64](a, b, c)
}

func tiledBarrierCells[S symbol, C dpCell](a, b []S, c *config) (int, error) {
	g := newTileGrid[S, C](a, b, tileSide(c))
	w := c.workers
	bar := newBarrier(w)
	var (
		errOnce sync.Once
		err     error
	)
	work := func(id int) {
		for k := range g.antidiagonals() {
			lo, hi := g.span(k)
			// The first tile row of this antidiagonal that is ours.
			first := lo + ((id-lo)%w+w)%w
			for I := first; I <= hi; I += w {
				if e := canceled(c.ctx); e != nil {
					errOnce.Do(func() { err = e })
					// Release everyone at or bound for the barrier.
					bar.abort()
					return
				}
				g.tile(I, k-I)
			}
			if !bar.wait() {
				return
			}
		}
	}
	runWorkers(w, work)
	if err != nil {
		return 0, err
	}
	c.count(int64(len(a)) * int64(len(b)))
	return g.distance(), nil
}
