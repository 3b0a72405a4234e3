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
	bundle  int // groups a unit: what a worker runs at once (worker); 0: run chooses
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
	col *lastCol

	// trim, where not 0, is a trimmed pass's threshold (myerstrim.go):
	// each group's columns are chosen from the group above's, spanJ its
	// first, trimEnd its last once set (−1 before).
	trim    int
	spanJ   []int
	trimEnd []atomic.Int64

	// link, under WithRanks, is this process's share of the groups and
	// the messages to the ranks computing the others (ranks.go); nil,
	// every group is this process's.
	link *rankLink
}

// maxBundle is the most groups a unit holds: under ranks, a unit's
// bottom row is what crosses to another rank.
const maxBundle = 4

// units is the number of units of the pass.
func (ps *myersPass[S]) units() int { return (ps.groups + ps.bundle - 1) / ps.bundle }

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
	if ps.trim == 0 {
		ps.width = bandWidth(ps.kernel, ps.width, ps.band)
	}
	if ps.link != nil {
		ps.kernel, ps.width = narrowTo(ps.kernel, ps.width, ps.link.width)
	}
	ps.rows = ps.width * wordBits
	ps.groups = (ps.m + ps.rows - 1) / ps.rows
	switch {
	case ps.bundle > 0: // as asked (tests)
	case ps.link != nil:
		ps.bundle = max(1, min(maxBundle, ps.groups/(8*ps.link.workers*ps.link.size)))
	default:
		ps.bundle = 1
	}
	if ps.link != nil {
		// Every rank deals the units alike: no clamp to this machine.
		ps.workers = max(1, min(ps.link.workers, ps.units()/ps.link.size))
	} else {
		ps.workers = max(1, min(ps.workers, ps.units(), runtime.GOMAXPROCS(0)))
	}
	ps.bound = make([]uint8, ps.n+1)
	ps.tops = make([]int, ps.groups)
	if ps.trim > 0 {
		ps.spanJ = make([]int, ps.groups)
		ps.trimEnd = make([]atomic.Int64, ps.groups)
		for g := range ps.trimEnd {
			ps.trimEnd[g].Store(-1)
		}
	}
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

// worker computes units w, w+W, w+2W, … in order (with ranks, its share:
// firstUnit, stride): a unit is ps.bundle consecutive groups, which the
// worker runs over each chunk of columns in turn, top to bottom, so that
// only the unit's first group waits for another worker (or rank) and only
// its last is waited for.
func (ps *myersPass[S]) worker(w int) error {
	members := make([]member[S], ps.bundle)
	for b := range members {
		members[b].g = getGroup(ps.kernel, ps.width, ps.sigma)
		defer putGroup(members[b].g)
	}
	for u := ps.firstUnit(w); u*ps.bundle < ps.groups; u += ps.stride() {
		g0, g1 := u*ps.bundle, min((u+1)*ps.bundle, ps.groups)
		if err := ps.unit(w, u, members[:g1-g0]); err != nil {
			return err
		}
	}
	return nil
}

// member is a group of the unit a worker runs.
type member[S symbol] struct {
	g              *group
	gi, J, E       int
	prevE          int // the last column of the group above (0: none)
	rows           []S
	topSum         int // Σ hin over [J, c0): D[top−1][c0−1] − tops[gi]
	last, collect  bool
	started, ended bool
}

// unit runs unit u, of the groups of ms, on worker w's progress counter,
// which tells the unit below (u·(n+1) + col) that its last group has
// finished column col, and so has set its top-left value.
func (ps *myersPass[S]) unit(w, u int, ms []member[S]) error {
	if ps.trim > 0 { // one group a unit, no ranks, no column collected
		return ps.unitTrim(w, u, &ms[0])
	}
	row := ps.bound // read as the group above's deltas, written as each group's
	n1 := int64(ps.n + 1)
	first := u * ps.bundle
	for b := range ms {
		m := &ms[b]
		m.gi = first + b
		m.J, m.E = ps.span(m.gi)
		m.prevE = 0
		if m.gi > 0 {
			_, m.prevE = ps.span(m.gi - 1)
		}
		m.rows = ps.p[m.gi*ps.rows : min((m.gi+1)*ps.rows, ps.m)]
		m.topSum, m.last, m.collect = 0, m.gi == ps.groups-1, ps.col != nil && m.E == ps.n
		m.started, m.ended = false, false
	}
	// start readies m for its first column: its top-left value from the
	// group above's (another unit's once its column J is done), and +1s
	// past the band of the group above.
	start := func(m *member[S]) error {
		m.started = true
		if m.gi == 0 {
			ps.tops[0] = m.J - 1
		} else {
			if m.gi == first {
				if err := ps.waitAbove(u, min(m.J, ps.n)); err != nil {
					return err
				}
			}
			pJ, _ := ps.span(m.gi - 1)
			ps.tops[m.gi] = ps.tops[m.gi-1] + ps.rows + sumDeltas(row[pJ:m.J])
		}
		for j := max(m.prevE+1, m.J); j <= m.E; j++ {
			row[j] = hPlus
		}
		load(m.g, m.rows)
		return nil
	}
	end := func(m *member[S]) {
		m.ended = true
		unload(m.g, m.rows)
		if m.last {
			ps.result = ps.tops[m.gi] + m.topSum + verticalSum(m.g, len(m.rows))
		}
		if m.collect {
			ps.col.set(m.gi*ps.rows, ps.tops[m.gi]+m.topSum, m.g, len(m.rows))
		}
	}
	fail := func(err error) error {
		for b := range ms {
			if ms[b].started && !ms[b].ended {
				unload(ms[b].g, ms[b].rows)
			}
		}
		return err
	}

	J0, E1 := ms[0].J, ms[len(ms)-1].E
	for c0 := J0; c0 <= E1; {
		c1 := min(E1+1, c0+ps.chunk)
		for b := range ms {
			m := &ms[b]
			if m.ended || m.J >= c1 {
				continue
			}
			if !m.started {
				if err := start(m); err != nil {
					return fail(err)
				}
			}
			lo, hi := max(c0, m.J), min(c1, m.E+1)
			if lo < hi {
				if m.gi == first && m.gi > 0 && lo <= m.prevE {
					if err := ps.waitAbove(u, min(hi-1, m.prevE)); err != nil {
						return fail(err)
					}
				}
				if m.last || m.collect {
					m.topSum += sumDeltas(row[lo:hi])
				}
				advance(m.g, ps.t[lo-1:hi-1], row[lo:hi], row[lo:hi])
			}
			if hi > m.E {
				end(m)
			}
		}
		ps.prog[w].Store(int64(u)*n1 + int64(c1-1))
		if err := canceled(ps.ctx); err != nil {
			return fail(err)
		}
		c0 = c1
	}
	// A group whose band holds no column (J > E).
	for b := range ms {
		if m := &ms[b]; !m.ended {
			if !m.started {
				if err := start(m); err != nil {
					return fail(err)
				}
			}
			end(m)
		}
	}
	ps.prog[w].Store(int64(u)*n1 + int64(ps.n))
	return nil
}

// computed returns the cells a pass that ended without error computed
// (Stats.Computed): for each group, 64 a strip a column over the columns
// it ran, [J, E] of its band (span) or, in a trimmed pass, of what the
// group above asked for (spanJ, trimEnd). Every group's, this process's
// or another rank's: each rank runs the same groups' spans. O(groups),
// after the pass, so that the workers count nothing.
func (ps *myersPass[S]) computed() int64 {
	var steps int64
	for g := range ps.groups {
		J, E := ps.span(g)
		if ps.trim > 0 {
			J, E = ps.spanJ[g], int(ps.trimEnd[g].Load())
		}
		rows := min((g+1)*ps.rows, ps.m) - g*ps.rows
		steps += int64(max(0, E-J+1)) * int64((rows+wordBits-1)/wordBits)
	}
	return steps * wordBits
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

// wait blocks until unit u, one of this process's, has finished column
// col.
func (ps *myersPass[S]) wait(u, col int) error {
	return ps.await(&ps.prog[ps.slot(u)], int64(u)*int64(ps.n+1)+int64(col))
}

// await blocks until p reaches target. It spins first (a chunk takes
// microseconds), then yields, then sleeps, so that a worker waiting on a
// descheduled one — more workers than cores, or a busy machine — gives its
// core back; it gives up when another worker stopped or ctx is done.
func (ps *myersPass[S]) await(p *paddedInt64, target int64) error {
	return ps.awaitUpTo(p, target, 20*time.Microsecond)
}

// awaitUpTo is await sleeping up to nap at a time, twice as long each time
// from 20 µs: a goroutine off the pipeline's critical path (ranks.go's
// send and receive) then wakes seldom.
func (ps *myersPass[S]) awaitUpTo(p *paddedInt64, target int64, nap time.Duration) error {
	sleep := 20 * time.Microsecond
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
			continue
		}
		time.Sleep(sleep)
		sleep = min(2*sleep, nap)
	}
	return nil
}

var errAborted = errors.New("stopped: another worker failed")
