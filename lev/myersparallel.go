package lev

import (
	"cmp"
	"context"
	"errors"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// myersParallel runs the bit-parallel algorithm of myers.go as a wavefront
// pipeline: tiles of a group's word-strips × a chunk of columns (WithTile
// sets the chunk width, myersChunk chooses it otherwise). Worker w owns
// groups w, w+W, w+2W, …, keeps a group's bit vectors in registers across
// its chunks, and starts chunk c of group g once group g−1 has published
// (through a per-worker progress counter on its own cache line) that it
// finished chunk c. One boundary row holds the bottom deltas of the last
// group to pass each column: group g reads group g−1's there and writes
// its own over them, column by column, and group g+1 reads a column only
// once group g has published it.
//
// O(⌈m/64⌉·n/W) word operations at most, O(n + W·σ + m) memory.
//
// The pipeline is myersPass below; the sequential myers runs it with one
// worker, so that both share one code path and one conformance suite.
func myersParallel[S symbol](a, b []S, c *config) (int, error) {
	return myersDistance(a, b, c, c.workers)
}

// myersPass computes the distance of p (rows) and t (columns) restricted to
// a band, over workers goroutines. The result is exact when the band
// contains an optimal path, and an upper bound (the cost of a real path)
// otherwise.
type myersPass[S symbol] struct {
	p, t    []S
	m, n    int
	sigma   int
	band    band
	groups  int
	workers int
	chunk   int
	ctx     context.Context
	kernel  myersKernel // as asked (Auto: the best); run resolves it
	width   int         // strips per group, set by run from the kernel
	rows    int         // pattern rows per group: width·64

	bound  []uint8       // the boundary row: the bottom deltas of the last group to pass each column
	tops   []int         // per group: D[top−1][J−1], its top-left value
	prog   []paddedInt64 // per worker: g·(n+1) + last column done
	abort  atomic.Bool   // set by a worker that stops early
	result int

	// col, when set, receives D[i][n] for the rows i of every group whose
	// band reaches column n (Align's last column); other rows are left.
	col []int32

	// link, under WithRanks, is this process's share of the groups and
	// the messages to the ranks computing the others (ranks.go); nil,
	// every group is this process's.
	link *rankLink
}

// paddedInt64 keeps each worker's progress on its own cache line, so that
// publishing progress does not slow the other workers' reads.
type paddedInt64 struct {
	atomic.Int64
	_ [56]byte
}

// span returns the columns [J, E] (1-based) group g computes.
func (ps *myersPass[S]) span(g int) (J, E int) {
	top := g*ps.rows + 1
	bot := min((g+1)*ps.rows, ps.m)
	return max(1, top-ps.band.lo), min(ps.n, bot+ps.band.hi)
}

func (ps *myersPass[S]) run() (int, error) {
	ps.kernel, ps.width = kernelFor[S](ps.kernel, ps.m)
	if ps.link != nil {
		ps.kernel, ps.width = narrowTo(ps.kernel, ps.width, ps.link.width)
	}
	ps.rows = ps.width * wordBits
	ps.groups = (ps.m + ps.rows - 1) / ps.rows
	if ps.link != nil {
		// Every rank deals the groups alike: no clamp to this machine.
		ps.workers = max(1, min(ps.link.workers, ps.groups/ps.link.size))
	} else {
		ps.workers = max(1, min(ps.workers, ps.groups, runtime.GOMAXPROCS(0)))
	}
	ps.bound = make([]uint8, ps.n+1)
	ps.tops = make([]int, ps.groups)
	ps.prog = make([]paddedInt64, ps.workers)
	for w := range ps.prog {
		ps.prog[w].Store(-1)
	}
	errs := make([]error, ps.workers, ps.workers+2)
	var links sync.WaitGroup
	if ps.link != nil {
		ps.link.in.Store(-1)
		ps.link.out.Store(-1)
		errs = errs[:ps.workers+2]
		for i, f := range []func() error{ps.send, ps.receive} {
			links.Go(func() {
				if errs[ps.workers+i] = f(); errs[ps.workers+i] != nil {
					ps.abort.Store(true)
				}
			})
		}
	}
	runWorkers(ps.workers, func(w int) {
		if errs[w] = ps.worker(w); errs[w] != nil {
			ps.abort.Store(true)
		}
	})
	if !ps.abort.Load() {
		// A failed pass leaves them: a message may never come.
		links.Wait()
	}
	// Report the cause, not a worker that stopped because another did.
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, errAborted) {
			return 0, err
		}
		first = cmp.Or(first, err)
	}
	if first != nil {
		return 0, first
	}
	if ps.link != nil {
		if err := ps.shareResult(); err != nil {
			return 0, err
		}
	}
	return ps.result, nil
}

// worker computes groups w, w+W, w+2W, … in order (with ranks, its share:
// firstGroup, stride).
func (ps *myersPass[S]) worker(w int) error {
	g0 := newGroup(ps.kernel, ps.width, ps.sigma)
	row := ps.bound // read as the group above's deltas, written as this group's
	for gi := ps.firstGroup(w); gi < ps.groups; gi += ps.stride() {
		J, E := ps.span(gi)
		prevE := 0
		if gi > 0 {
			// The group above must have reached column J−1 before its
			// bottom values up to there can be read from the row.
			if err := ps.waitAbove(gi, J-1); err != nil {
				return err
			}
			var pJ int
			pJ, prevE = ps.span(gi - 1)
			ps.tops[gi] = ps.tops[gi-1] + ps.rows + sumDeltas(row[pJ:J])
		} else {
			ps.tops[gi] = J - 1
		}
		// Past the group above's band its bottom row goes on with +1s.
		for j := max(prevE+1, J); j <= E; j++ {
			row[j] = hPlus
		}
		ps.prog[w].Store(int64(gi)*int64(ps.n+1) + int64(J-1))

		rows := ps.p[gi*ps.rows : min((gi+1)*ps.rows, ps.m)]
		load(g0, rows)
		last := gi == ps.groups-1
		collect := ps.col != nil && E == ps.n
		topSum := 0 // Σ hin over [J, c0): D[top−1][c0−1] − tops[gi]
		for c0 := J; c0 <= E; {
			c1 := min(E+1, c0+ps.chunk)
			if gi > 0 && c0 <= prevE {
				if err := ps.waitAbove(gi, min(c1-1, prevE)); err != nil {
					unload(g0, rows)
					return err
				}
			}
			if last || collect {
				topSum += sumDeltas(row[c0:c1])
			}
			advance(g0, ps.t[c0-1:c1-1], row[c0:c1], row[c0:c1])
			ps.prog[w].Store(int64(gi)*int64(ps.n+1) + int64(c1-1))
			if err := canceled(ps.ctx); err != nil {
				unload(g0, rows)
				return err
			}
			c0 = c1
		}
		unload(g0, rows)
		if last {
			ps.result = ps.tops[gi] + topSum + verticalSum(g0, len(rows))
		}
		if collect {
			lastValues(ps.col[gi*ps.rows+1:], ps.tops[gi]+topSum, g0, len(rows))
		}
	}
	return nil
}

// verticalSum returns the sum of the vertical deltas of the first rows rows
// of g's current column.
func verticalSum(g *group, rows int) int {
	sum := 0
	for k := 0; k < maxStrips && rows > 0; k++ {
		mask := ^uint64(0)
		if rows < wordBits {
			mask = 1<<rows - 1
		}
		sum += bits.OnesCount64(g.pv[k]&mask) - bits.OnesCount64(g.mv[k]&mask)
		rows -= wordBits
	}
	return sum
}

// lastValues sets col[r] to the value of g's row r+1 at its current
// column, from the value top of the row above the group.
func lastValues(col []int32, top int, g *group, rows int) {
	v := int32(top)
	for r := range rows {
		k, bit := r/wordBits, uint(r%wordBits)
		v += int32(g.pv[k]>>bit&1) - int32(g.mv[k]>>bit&1)
		col[r] = v
	}
}

// wait blocks until group g, one of this process's, has finished column
// col.
func (ps *myersPass[S]) wait(g, col int) error {
	return ps.await(&ps.prog[ps.slot(g)], int64(g)*int64(ps.n+1)+int64(col))
}

// await blocks until p reaches target. It spins first (a chunk takes
// microseconds), then yields, then sleeps, so that a worker waiting on a
// descheduled one — more workers than cores, or a busy machine — gives its
// core back; it gives up when another worker stopped or ctx is done.
func (ps *myersPass[S]) await(p *paddedInt64, target int64) error {
	for spins := 0; p.Load() < target; spins++ {
		if spins < 256 {
			continue
		}
		if ps.abort.Load() {
			return errAborted
		}
		if err := canceled(ps.ctx); err != nil {
			return err
		}
		if spins < 2048 {
			runtime.Gosched()
		} else {
			time.Sleep(20 * time.Microsecond)
		}
	}
	return nil
}

var errAborted = errors.New("stopped: another worker failed")
