package lev

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/levlab/levlab/cudaext"
)

// Many pairs: the distances of every query against a set (Cross), of every
// pair of one set (All), nearest first (WithTop) or only those within a cap
// (WithMax), streamed to a callback so that no dense matrix is ever needed;
// Matrix for small sets.

// A Pair is one distance of Cross or All: between a[I] and b[J] (All: set[I]
// and set[J]).
type Pair struct {
	I, J     int
	Distance int
}

// blockMaxRows is the longest query the block kernel takes with Auto;
// longer ones run as lev.Distance would, through the group pipeline of
// myers.go, which is faster once a column is more than a few dozen words.
const blockMaxRows = 1 << 13

// Cross calls fn with the distance of every a[i] against every b[j],
// compared byte by byte, in the order i, then j — with WithTop(n), each
// i's n nearest, by distance then j; with WithMax(k), only the pairs within
// k. fn is called from one goroutine at a time, the caller's; an error it
// returns stops the work and is returned, and a panic in it stops the work
// and goes on up to the caller.
//
// The pairs are spread over WithWorkers goroutines (0: GOMAXPROCS), a
// query at a time. With Auto (the default) a query of up to 8192 symbols
// runs the block kernel (blockmyers.go): its match table built once and
// run against each b[j], the band and, with WithMax, the early exit of
// each pair; longer queries run as Distance's Auto. Another algorithm runs
// pair by pair as Distance runs it on one worker, except CUDAFast, which
// runs every pair as one job on the GPU (cudaext.Pairs: the strings
// uploaded once, tiles of about a million pairs computed a warp per pair
// and read back while the next runs; WithMax and WithTop are applied to
// each query's row on the host). WithContext stops the work within a
// query's pairs (CUDAFast: between tiles).
//
// Memory: the results of the queries in flight (a few per worker) and a
// match table per worker, never a matrix.
func Cross(a, b [][]byte, fn func(Pair) error, opts ...Option) error {
	return manyPairs(a, b, false, fn, opts)
}

// All calls fn with the distance of every pair i < j of set, in the order
// i, then j, as Cross does; with WithTop(n), each i's n nearest among all
// j ≠ i.
func All(set [][]byte, fn func(Pair) error, opts ...Option) error {
	return manyPairs(set, set, true, fn, opts)
}

// CrossStrings is Cross counted in runes, as DistanceString counts them:
// each invalid UTF-8 byte is one U+FFFD.
func CrossStrings(a, b []string, fn func(Pair) error, opts ...Option) error {
	ca, cb, wide := encodeSets(a, b)
	if wide == nil {
		return manyPairs(ca, cb, false, fn, opts)
	}
	return manyPairs(wide[:len(a)], wide[len(a):], false, fn, opts)
}

// AllStrings is All counted in runes, as DistanceString counts them: each
// invalid UTF-8 byte is one U+FFFD.
func AllStrings(set []string, fn func(Pair) error, opts ...Option) error {
	cs, _, wide := encodeSets(set, nil)
	if wide == nil {
		return manyPairs(cs, cs, true, fn, opts)
	}
	return manyPairs(wide, wide, true, fn, opts)
}

// Matrix returns the distances of every a[i] against every b[j] as a dense
// matrix, d[i][j], computed as Cross computes them (with WithMax, k+1 for a
// pair past k; WithTop is not taken). It is for small sets: a matrix of
// more bytes than WithMatrixLimit allows is an error wrapping ErrTooLarge,
// before anything is allocated.
func Matrix(a, b [][]byte, opts ...Option) ([][]int, error) {
	c, err := parseOptions(opts)
	if err != nil {
		return nil, err
	}
	if c.top > 0 {
		return nil, fmt.Errorf("lev: %w: top = %d: Matrix gives every pair; WithTop is for Cross and All", ErrInvalidOption, c.top)
	}
	if c.ranks != nil {
		return nil, errRanksPairs("Matrix")
	}
	cells := uint64(len(a)) * uint64(len(b))
	if need := cells * 8; need > uint64(c.matrixLimit) || cells > uint64(math.MaxInt/8) {
		return nil, fmt.Errorf("lev: %w: a %d×%d distance matrix needs %d bytes, more than the %d the matrix limit allows (WithMatrixLimit); stream the pairs with Cross",
			ErrTooLarge, len(a), len(b), need, c.matrixLimit)
	}
	d := make([][]int, len(a))
	flat := make([]int, len(a)*len(b))
	for i := range d {
		d[i] = flat[i*len(b) : (i+1)*len(b)]
		if k := c.capK(); k >= 0 {
			for j := range d[i] {
				d[i][j] = k + 1
			}
		}
	}
	err = Cross(a, b, func(p Pair) error { d[p.I][p.J] = p.Distance; return nil }, opts...)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// encodeSets maps the runes of every string of a and b to dense codes:
// bytes when there are at most 256 distinct runes (small), else a single
// list of wide codes, a's then b's.
func encodeSets(a, b []string) (small, smallB [][]byte, wide [][]uint32) {
	codes := runeCodes{}
	all := make([][]uint32, 0, len(a)+len(b))
	for _, s := range a {
		all = append(all, codes.encode(s))
	}
	for _, s := range b {
		all = append(all, codes.encode(s))
	}
	if len(codes) > 256 {
		return nil, nil, all
	}
	narrowAll := make([][]byte, len(all))
	for i, s := range all {
		narrowAll[i] = narrow(s)
	}
	return narrowAll[:len(a)], narrowAll[len(a):], nil
}

// errRanksPairs refuses WithRanks for the many-pairs calls named.
func errRanksPairs(calls string) error {
	return fmt.Errorf("lev: %w: ranks: %s run in one process (levlab matrix spreads pairs over ranks); WithRanks is for Distance", ErrInvalidOption, calls)
}

// pairsWindow is how many queries ahead of the one being delivered the
// workers may run, per worker: it bounds the results held.
const pairsWindow = 4

// manyPairs is Cross (tri false) and All (tri true: a and b are the same
// set; j > i, or j ≠ i with a top).
func manyPairs[S symbol](a, b [][]S, tri bool, fn func(Pair) error, opts []Option) error {
	c, err := parseOptions(opts)
	if err != nil {
		return err
	}
	if c.ranks != nil {
		return errRanksPairs("Cross and All")
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	if fn == nil {
		return fmt.Errorf("lev: %w: the callback is nil", ErrInvalidOption)
	}
	if c.alg.GPU() && c.alg != CUDAFast {
		return fmt.Errorf("lev: %w: %s runs a pair a launch per antidiagonal; many pairs on the GPU take cuda-fast (one launch per query)", ErrInvalidOption, c.alg)
	}
	if c.alg.GPU() {
		if err := ready(c.alg, c); err != nil {
			return err
		}
	}
	workers := c.workers // over the pairs, whatever the algorithm
	if c.stats != nil {
		*c.stats = Stats{Algorithm: c.alg, Workers: workers}
	}
	if err := c.ctx.Err(); err != nil {
		return fmt.Errorf("lev: canceled: %w", err)
	}
	sigma := 256
	var zero S
	if _, wide := any(zero).(uint32); wide {
		sigma = 0
		for _, set := range [][][]S{a, b} {
			for _, s := range set {
				sigma = max(sigma, alphabetSize(s, nil))
			}
		}
	}
	ps := &pairsRun[S]{a: a, b: b, tri: tri, c: c, sigma: sigma, fn: fn,
		window: workers * pairsWindow, rows: make([][]Pair, len(a))}
	if c.alg == CUDAFast {
		// One job on the GPU; sets whose match tables are too large for
		// it run a job per query (cudaext.Batch) below.
		if err := ps.gpu(); !errors.Is(err, cudaext.ErrTablesTooLarge) {
			return err
		}
	}
	ps.words = newWordRun(a, b, c, tri && c.top == 0)
	ps.lanes = newLaneRun(b, c, tri && c.top == 0, ps.words)
	ps.cond.L = &ps.mu
	return ps.run(workers)
}

// modelTileRows is the tile of the many-pairs model under WithFastModel:
// a few queries, so that the conformance suite's sets cross tiles.
const modelTileRows = 2

// gpu runs every pair as one job on the GPU (cudaext.Pairs), or through
// its CPU model (cudaext.PairsModel) under WithFastModel: the tiles of
// queries come back in order, and each query's row is capped, cut to its
// top and delivered here, in the caller's goroutine. All with a top takes
// whole rows (j ≠ i); without, only the pairs i < j are computed.
func (ps *pairsRun[S]) gpu() error {
	c, k := ps.c, ps.c.capK()
	tri := ps.tri && c.top == 0
	var b [][]S // nil: one set, on the device once
	if !ps.tri {
		b = ps.b
	}
	nb := len(ps.b)
	var cells int64
	var fnErr error
	row := make([]Pair, 0, nb)
	tile := func(first int, d []int32) error {
		for x := 0; x*nb < len(d); x++ {
			i := first + x
			from, skipSelf := ps.targets(i)
			row = row[:0]
			for j := from; j < nb; j++ {
				if skipSelf && j == i {
					continue
				}
				cells += int64(len(ps.a[i])) * int64(len(ps.b[j])) // the whole matrix
				if dist := capAt(int(d[x*nb+j]), k); k < 0 || dist <= k {
					row = append(row, Pair{I: i, J: j, Distance: dist})
				}
			}
			if c.top > 0 {
				slices.SortStableFunc(row, func(x, y Pair) int { return cmp.Compare(x.Distance, y.Distance) })
				row = row[:min(len(row), c.top)]
			}
			for _, p := range row {
				if err := ps.fn(p); err != nil {
					fnErr = err
					return err
				}
			}
		}
		return nil
	}
	var err error
	if c.fastModel != nil {
		err = cudaext.PairsModel(c.ctx, ps.a, b, tri, *c.fastModel, modelTileRows, tile)
	} else {
		var t cudaext.Timing
		t, err = cudaext.Pairs(c.ctx, ps.a, b, tri, tile)
		if c.stats != nil {
			c.stats.GPU = t
			c.stats.Workers = 1 // the host's side: one goroutine, the caller's
		}
	}
	c.count(cells)
	switch {
	case err == nil || (fnErr != nil && errors.Is(err, fnErr)):
		return err
	case errors.Is(err, cudaext.ErrTablesTooLarge):
		return err
	case c.ctx.Err() != nil:
		return fmt.Errorf("lev: canceled: %w", context.Cause(c.ctx))
	}
	return fmt.Errorf("lev: %s: %w", c.alg, err)
}

// pairsRun is one manyPairs call: workers take queries from next, compute
// their rows and put them in rows; the caller's goroutine delivers the
// rows in order.
type pairsRun[S symbol] struct {
	a, b  [][]S
	tri   bool
	c     *config
	sigma int
	fn    func(Pair) error
	words *wordRun // the word-major lanes' alphabet and texts, nil where they do not run
	lanes *wordRun // the block lanes' texts in groups (lanesGroup), nil where they do not run

	next   atomic.Int64 // the next query to take
	window int
	cells  atomic.Int64 // the cells the workers computed, added as each stops

	mu        sync.Mutex
	cond      sync.Cond
	rows      [][]Pair // a finished query's pairs, until delivered
	ready     []bool
	delivered int   // queries delivered
	err       error // the first error: a worker's, fn's, the context's
}

func (ps *pairsRun[S]) run(workers int) error {
	ps.ready = make([]bool, len(ps.a))
	workers = max(1, min(workers, len(ps.a)))
	stop := context.AfterFunc(ps.c.ctx, func() {
		ps.fail(fmt.Errorf("lev: canceled: %w", ps.c.ctx.Err()))
	})
	defer stop()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(ps.worker)
	}
	defer func() {
		// fn panicked: stop the workers, who would otherwise wait for
		// room for ever, then let the panic go on to the caller.
		if r := recover(); r != nil {
			ps.fail(errCallbackPanicked)
			wg.Wait()
			panic(r)
		}
	}()
	ps.deliver()
	wg.Wait()
	ps.c.count(ps.cells.Load())
	return ps.err
}

// errCallbackPanicked stops the workers of a run whose callback panicked;
// the caller gets the panic, not this error.
var errCallbackPanicked = errors.New("lev: the callback panicked")

// fail keeps the first error and wakes everyone to stop.
func (ps *pairsRun[S]) fail(err error) {
	ps.mu.Lock()
	if ps.err == nil {
		ps.err = err
	}
	ps.cond.Broadcast()
	ps.mu.Unlock()
}

// deliver calls fn with each query's pairs in query order, as they come.
func (ps *pairsRun[S]) deliver() {
	for i := range ps.a {
		ps.mu.Lock()
		for !ps.ready[i] && ps.err == nil {
			ps.cond.Wait()
		}
		row := ps.rows[i]
		ps.rows[i] = nil
		ps.delivered = i + 1
		failed := ps.err != nil
		ps.cond.Broadcast() // a worker may wait for room
		ps.mu.Unlock()
		if failed {
			return
		}
		for _, p := range row {
			if err := ps.fn(p); err != nil {
				ps.fail(err)
				return
			}
		}
	}
}

func (ps *pairsRun[S]) worker() {
	var st pairsState
	defer func() { ps.cells.Add(st.cells) }()
	row := make([]Pair, 0, len(ps.b))
	for {
		i := int(ps.next.Add(1) - 1)
		if i >= len(ps.a) {
			return
		}
		// Wait for room: at most window queries ahead of delivery.
		ps.mu.Lock()
		for i >= ps.delivered+ps.window && ps.err == nil {
			ps.cond.Wait()
		}
		failed := ps.err != nil
		ps.mu.Unlock()
		if failed {
			return
		}
		var err error
		row, err = ps.query(i, row[:0], &st)
		if err != nil {
			ps.fail(err)
			return
		}
		out := slices.Clone(row)
		ps.mu.Lock()
		ps.rows[i], ps.ready[i] = out, true
		ps.cond.Broadcast()
		ps.mu.Unlock()
	}
}

// pairsState is one worker's buffers: the block kernel's, and the
// word-major lanes' deltas.
type pairsState struct {
	blockState
	words wordState
}

// targets returns the first target of query i and whether j = i is left
// out.
func (ps *pairsRun[S]) targets(i int) (from int, skipSelf bool) {
	switch {
	case !ps.tri:
		return 0, false
	case ps.c.top > 0:
		return 0, true
	}
	return i + 1, false
}

// query computes query i's row: its pairs within the cap, its top n if
// asked, in j order (top: distance, then j).
func (ps *pairsRun[S]) query(i int, row []Pair, st *pairsState) ([]Pair, error) {
	c, k := ps.c, ps.c.capK()
	q := ps.a[i]
	from, skipSelf := ps.targets(i)
	keep := func(j, d int) {
		if k < 0 || d <= k {
			row = append(row, Pair{I: i, J: j, Distance: d})
		}
	}
	switch {
	case c.alg == CUDAFast && c.fastModel == nil:
		var qs, ts [][]S
		var js []int
		for j := from; j < len(ps.b); j++ {
			if !(skipSelf && j == i) {
				qs, ts, js = append(qs, q), append(ts, ps.b[j]), append(js, j)
			}
		}
		ds, _, err := cudaext.Batch(c.ctx, qs, ts)
		if err != nil {
			return nil, fmt.Errorf("lev: %s: query %d: %w", c.alg, i, err)
		}
		for x, d := range ds {
			keep(js[x], capAt(d, k))
			st.cells += int64(len(q)) * int64(len(ts[x])) // the whole matrix
		}
	case c.alg == Auto && len(q) <= blockMaxRows && (k < 0 || c.noBand) && (ps.words != nil || ps.lanes != nil):
		// No cap, and targets in groups of eight: an alphabet of a few
		// symbols, a word of the query at a time (wordLanes), or else
		// bytes, every column of a group in one call (lanesGroup); capped
		// after. The groups hold the targets sorted by length
		// (newWordRun), so each group's distances go to dist by target,
		// and the row is read from it in order. A group is computed
		// whole, its targets before from (All's upper triangle) left out
		// of the row.
		wr, words := ps.words, 0
		var run func(g *wordGroup, out *[wordLaneCount]int)
		if wr != nil {
			wp := newWordPattern(wr.alphabet, any(q).([]uint8))
			words = wp.words
			run = func(g *wordGroup, out *[wordLaneCount]int) { wordLanes(wp, g, &st.words, out) }
		} else {
			wr = ps.lanes
			bp := newBlockPattern(q, ps.sigma)
			words = bp.words
			run = func(g *wordGroup, out *[wordLaneCount]int) { lanesGroup(bp, g, &st.lanes, out) }
		}
		if len(st.words.dist) < len(ps.b) {
			st.words.dist = make([]int, len(ps.b))
		}
		dist := st.words.dist
		var out [wordLaneCount]int
		for gi := wr.firstGroup(from); gi < len(wr.groups); gi++ {
			if gi&7 == 0 && ps.stopped() {
				return row, nil
			}
			g := &wr.groups[gi]
			run(g, &out)
			for l := range g.texts {
				if j := g.js[l]; j >= from && !(skipSelf && j == i) {
					dist[j] = out[l]
					st.cells += int64(words*wordBits) * int64(g.lens[l])
				}
			}
		}
		for j := from; j < len(ps.b); j++ {
			if !(skipSelf && j == i) {
				keep(j, capAt(dist[j], k))
			}
		}
	case c.alg == Auto && len(q) <= blockMaxRows && (k < 0 || c.noBand):
		// No cap (or every cell asked for, WithoutBand): laneWidth()
		// targets at a time, a lane each (blockLanes), capped after.
		bp := newBlockPattern(q, ps.sigma)
		L := laneWidth()
		ts := make([][]S, 0, L)
		js := make([]int, 0, L)
		ds := make([]int, L)
		flush := func() {
			n := len(ts)
			for len(ts) < L {
				ts = append(ts, nil)
			}
			blockLanes(bp, ts, &st.lanes, ds)
			for l := range n {
				keep(js[l], capAt(ds[l], k))
				// Every word over the lane's own columns; the padding of
				// a shorter text, and empty lanes, compute no pair's cells.
				st.cells += int64(bp.words*wordBits) * int64(len(ts[l]))
			}
			ts, js = ts[:0], js[:0]
		}
		for j := from; j < len(ps.b); j++ {
			if skipSelf && j == i {
				continue
			}
			if j&63 == 0 && ps.stopped() {
				return row, nil
			}
			ts, js = append(ts, ps.b[j]), append(js, j)
			if len(ts) == L {
				flush()
			}
		}
		if len(ts) > 0 {
			flush()
		}
	case c.alg == Auto && len(q) <= blockMaxRows:
		// A cap: a pair at a time, each in its band and stopping early.
		bp := newBlockPattern(q, ps.sigma)
		for j := from; j < len(ps.b); j++ {
			if skipSelf && j == i {
				continue
			}
			if j&63 == 0 && ps.stopped() {
				return row, nil
			}
			keep(j, blockDistance(bp, ps.b[j], k, &st.blockState))
		}
	default:
		pc := *c // one worker a pair: the workers are over the pairs
		pc.workers, pc.stats = 1, nil
		if c.stats != nil {
			// The pairs' cells, counted as Distance counts them.
			var pst Stats
			pc.stats = &pst
			defer func() { st.cells += pst.Computed }()
		}
		for j := from; j < len(ps.b); j++ {
			if skipSelf && j == i {
				continue
			}
			if ps.stopped() {
				return row, nil
			}
			d, err := pairDistance(&pc, q, ps.b[j])
			if err != nil {
				return nil, fmt.Errorf("lev: query %d, target %d: %w", i, j, err)
			}
			keep(j, d)
		}
	}
	if c.top > 0 {
		slices.SortStableFunc(row, func(x, y Pair) int { return cmp.Compare(x.Distance, y.Distance) })
		row = row[:min(len(row), c.top)]
	}
	return row, nil
}

// stopped reports whether the run is failing or canceled.
func (ps *pairsRun[S]) stopped() bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.err != nil
}

// pairDistance is one pair as Distance computes it with c (one worker).
func pairDistance[S symbol](c *config, a, b []S) (int, error) {
	alg := c.resolve(len(a), len(b))
	d, err := capped(c.resolved(alg), alg, a, b, kernelOf[S](alg))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", alg, err)
	}
	return d, nil
}

// kernelOf returns an algorithm's kernel for the symbol type S.
func kernelOf[S symbol](alg Algorithm) kernel[S] {
	var k any = impls[alg].bytes
	var zero S
	if _, wide := any(zero).(uint32); wide {
		k = impls[alg].wide
	}
	return k.(kernel[S])
}
