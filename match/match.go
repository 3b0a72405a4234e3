// Package match counts approximate matches of patterns in a text, the
// question of report 003 (INF560, Benbaki & Mammadov, 2021): for each
// pattern, the text positions where it matches within k edits (unit-cost
// Levenshtein distance, bytes compared as bytes). Count counts them;
// Positions lists them, in order, as it finds them. WithMode chooses what a
// match is, WithAlgorithm how it is found, and the other options how it
// runs: workers, a range of the text, a share of the positions on the GPU
// (Count alone), a context.
//
//	counts, err := match.Count(text, patterns, 2, match.WithMode(match.Occurrence))
//	err = match.Positions(text, pattern, 2, func(j int) error { … })
//
// The distance between two whole sequences is package lev's question.
// Errors from bad options wrap ErrInvalidOption (lev.ErrInvalidOption, the
// same value), naming the option, the value and what is allowed.
package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/levlab/levlab/cudaext"
	"github.com/levlab/levlab/internal/bitpar"
	"github.com/levlab/levlab/internal/option"
)

// Mode says what Count counts. The zero value is Window.
type Mode uint8

const (
	// Window ("window") is report 003's count: the positions j whose
	// window matches. The window at j has size = min(len(p), len(text)−j)
	// and matches when Levenshtein(p[:size], text[j:j+size]) ≤ k; the short
	// windows at the end of the text are counted too.
	Window Mode = iota
	// Occurrence ("occurrence") is approximate string matching as in
	// Sellers (1980), Myers (1999) and agrep: the end positions j (0-based,
	// inclusive) such that some substring text[i..j] — the empty one
	// included — is within k edits of p.
	Occurrence

	numModes
)

var modeNames = option.NewNames[Mode]("match", "Mode", "match mode", "window", "occurrence")

// String returns the mode's stable name, "window" or "occurrence".
func (m Mode) String() string { return modeNames.String(m) }

// ParseMode returns the mode with the given stable name.
func ParseMode(name string) (Mode, error) { return modeNames.Parse(name) }

// MarshalText implements encoding.TextMarshaler with the stable name.
func (m Mode) MarshalText() ([]byte, error) { return modeNames.Marshal(m) }

// UnmarshalText implements encoding.TextUnmarshaler with the stable name.
func (m *Mode) UnmarshalText(text []byte) error { return modeNames.Unmarshal(m, text) }

// Algorithm names one way of counting matches. The zero value is Auto.
// Every algorithm returns exactly the same counts.
type Algorithm uint8

const (
	// Auto ("auto") is Fast.
	Auto Algorithm = iota
	// Naive ("apm-naive", apmnaive.go) is report 003's sequential program
	// made parallel as the report did: in window mode one Wagner–Fischer DP
	// per position (O(len(p)²) per position), in occurrence mode Sellers'
	// column DP over the text (O(len(p)) per position).
	Naive
	// Fast ("apm-fast", apmfast.go) filters, then scans bit-parallel: the
	// k+1 pieces of the pattern (pigeonhole) are looked up at every text
	// position, and only around their hits does Myers' (1999) search scan
	// run, a machine word per 64 pattern symbols per position with
	// Ukkonen's cut-off; in window mode only the windows that scan cannot
	// exclude are verified, each by a bit-parallel DP. Where the pieces are
	// shorter than 5 symbols (k ≥ len(p)/5) the scan covers the whole text.
	// With AVX-512 and k < 8, eight positions' words are compared with
	// every piece at once; otherwise a bitmap of the pieces' hashes is
	// looked up a position at a time. Many patterns of up to 64 symbols
	// (at least 16, or 2 too short to filter) are scanned side by side
	// instead, one pattern to a lane of a vector register — 16 of up to 32
	// symbols or 8 of up to 64 — the text read once for up to 4 registers
	// (lanes.go; AVX-512 or AVX2; where neither runs, the patterns' own
	// scans, faster than the lanes' steps in Go).
	Fast

	numAlgorithms
)

var algorithmNames = option.NewNames[Algorithm]("match", "Algorithm", "match algorithm", "auto", "apm-naive", "apm-fast")

// Algorithms returns every match algorithm, Auto first, in a stable order.
func Algorithms() []Algorithm { return algorithmNames.All() }

// String returns the algorithm's stable name, e.g. "apm-fast".
func (a Algorithm) String() string { return algorithmNames.String(a) }

// ParseAlgorithm returns the match algorithm with the given stable name.
func ParseAlgorithm(name string) (Algorithm, error) { return algorithmNames.Parse(name) }

// MarshalText implements encoding.TextMarshaler with the stable name.
func (a Algorithm) MarshalText() ([]byte, error) { return algorithmNames.Marshal(a) }

// UnmarshalText implements encoding.TextUnmarshaler with the stable name.
func (a *Algorithm) UnmarshalText(text []byte) error { return algorithmNames.Unmarshal(a, text) }

// kernel counts the matching positions in [a, b) of text for one
// pattern; the driver hands it chunks of the range. It reports its work to
// pl as it goes and returns early, with a count to be discarded, once pl
// says stop.
type kernel func(pp *pattern, text []byte, a, b, k int, pl *poller) int64

// pollWork is the work, in DP cells or word operations, a kernel does
// between two looks at the stop flag: about 0.1 ms (a few ms under the race
// detector), which bounds how long a canceled Count runs on, however
// long the pattern or large k; an atomic load per 2^16 units costs nothing
// measurable.
const pollWork = 1 << 16

// poller tells a kernel when to stop: it counts the kernel's work down and
// looks at the flag each time pollWork units are done, so that the hot
// loops look at no shared memory. The zero poller with a nil flag never
// stops.
type poller struct {
	stop *atomic.Bool // set when the call is to stop: canceled, or a worker failed
	left int          // work before the next look; ≤ 0 once stopped
}

// done adds work units done and reports whether the kernel is to stop now.
// Once it has said so it says so at every call.
func (p *poller) done(work int) bool {
	if p.left -= work; p.left > 0 {
		return false
	}
	if p.stop != nil && p.stop.Load() {
		p.left = 0 // stays ≤ 0: every later call looks again and stops
		return true
	}
	p.left = pollWork
	return false
}

// kernels is indexed by mode and concrete algorithm.
var kernels = [numModes][numAlgorithms]kernel{
	Window:     {Naive: windowNaive, Fast: windowFast},
	Occurrence: {Naive: occurrenceNaive, Fast: occurrenceFast},
}

// Count returns, for each pattern in order, the number of positions of
// text where it matches within k edits (see Mode for what a match is).
//
// Positions are handed to the workers in chunks from a shared counter and
// the counts reduced, so the result does not depend on the workers.
// Time: apm-naive O(N·m²) in window mode, O(N·m) in occurrence mode; apm-fast
// O(N) for the filter plus O(⌈m/64⌉) per position it passes, plus
// O(m·⌈m/64⌉) per window the scan passes, for N positions and a pattern of
// length m: on random text with k small against m nearly all the time is
// the filter's; patterns in lanes O(N) per register of 16 or 8 patterns.
// Memory: per pattern O(σ·⌈m/64⌉) and an 8 KiB bitmap (in lanes, σ words
// and about 1 KiB of the lanes' tables), for at most patternBatch (1024)
// patterns at a time, however many there are, and a count a pattern,
// beside the inputs.
func Count(text []byte, patterns [][]byte, k int, opts ...Option) ([]int64, error) {
	m, err := newMatcher(text, patterns, k, opts)
	if err != nil {
		return nil, err
	}
	if len(patterns) <= patternBatch {
		return m.run(patterns)
	}
	// Many patterns: a batch at a time, each reusing the last one's tables,
	// so that the memory is a batch's tables and a count a pattern, however
	// many patterns there are.
	counts := make([]int64, 0, len(patterns))
	for lo := 0; lo < len(patterns); lo += patternBatch {
		got, err := m.run(patterns[lo:min(lo+patternBatch, len(patterns))])
		if err != nil {
			return nil, err
		}
		counts = append(counts, got...)
	}
	return counts, nil
}

// patternBatch is how many patterns' tables (up to about 12 KiB each for
// patterns of up to 64 symbols: their match words, the shifted word and
// the q-gram bitmap) one Count holds at a time.
const patternBatch = 1024

// errStopped is a worker's error when it stopped because another part of the
// call failed or the context is done: not an error of its own.
var errStopped = errors.New("stopped")

// canceled reports ctx's error, wrapped, once ctx is done.
func canceled(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return fmt.Errorf("canceled: %w", ctx.Err())
	default:
		return nil
	}
}

// matcher is one Count call: the patterns' chunks of positions as
// work items for the workers, and the GPU's share beside them.
type matcher struct {
	text     []byte
	k        int
	from, to int
	c        *config
	kernel   kernel
	naive    bool

	pats []*pattern
	// laneMem is the memory of the last batch's lane bundles (their tables
	// and states), for the next batch's.
	laneMem [][]uint64
	gpuEnd  []int // per pattern: the GPU takes [from, gpuEnd)
	starts  []int // per pattern: its first item; starts[len] = items
	chunk   []int // per pattern: positions per item
	next    atomic.Int64
	// abort is set when the workers are to stop: the context is done (set
	// by context.AfterFunc, so that no kernel has to look at the context)
	// or the GPU failed.
	abort atomic.Bool
}

// Work per chunk, in units of a word operation per position: large enough to
// amortise the hand-out and a scan's warm-up, small enough for a prompt
// cancellation and a balanced end.
const (
	chunkWork   = 1 << 20
	chunkMin    = 64
	chunkMax    = 1 << 18
	chunksPerW  = 8 // at least this many chunks per worker where positions allow
	warmupRatio = 8 // chunks at least this many times the scan's warm-up
)

// chunkSize returns the positions per work item for a pattern of m
// symbols over cpu positions on the CPU.
func (mt *matcher) chunkSize(m, cpu int) int {
	W := mt.c.workers
	cost := max(1, (m+63)/64)
	if mt.naive {
		cost = m
		if mt.c.mode == Window {
			cost = m * m
		}
	}
	ch := max(chunkMin, min(chunkMax, chunkWork/cost))
	ch = min(ch, max(chunkMin, (cpu+W*chunksPerW-1)/(W*chunksPerW)))
	if !mt.naive || mt.c.mode != Window {
		// Scans start len(p)+k before their chunk (occurrence mode) or
		// read len(p)−1 positions before the first end (window filter).
		ch = max(ch, warmupRatio*(m+mt.k))
	}
	return ch
}

// run counts patterns over the text: in lanes those that lanes take
// (apm-fast, no GPU share; see lanes.go), the others each on its own.
func (mt *matcher) run(patterns [][]byte) ([]int64, error) {
	if !mt.naive && mt.c.gpuRatio == 0 {
		if bundles, rest := laneBundles(patterns, mt.k, &mt.laneMem); bundles != nil {
			return mt.runLanes(patterns, bundles, rest)
		}
	}
	return mt.runEach(patterns)
}

// runEach counts patterns over the text each on its own, its tables made
// anew in those of an earlier run of mt where there are any.
func (mt *matcher) runEach(patterns [][]byte) ([]int64, error) {
	n := mt.to - mt.from
	for len(mt.pats) < len(patterns) {
		mt.pats = append(mt.pats, new(pattern))
	}
	mt.pats = mt.pats[:len(patterns)]
	mt.gpuEnd = make([]int, len(patterns))
	mt.starts = make([]int, len(patterns)+1)
	mt.chunk = make([]int, len(patterns))
	for i, p := range patterns {
		pp := mt.pats[i]
		pp.reset(p, mt.k, !mt.naive)
		g := 0
		if mt.c.gpuRatio > 0 {
			g = int(math.Round(mt.c.gpuRatio * float64(n)))
		}
		mt.gpuEnd[i] = mt.from + g
		cpu := n - g
		ch := mt.chunkSize(len(p), cpu)
		mt.chunk[i] = ch
		mt.starts[i+1] = mt.starts[i] + (cpu+ch-1)/ch
	}
	items := mt.starts[len(patterns)]

	stopWatch := context.AfterFunc(mt.c.ctx, func() { mt.abort.Store(true) })
	defer stopWatch()

	counts := make([]int64, len(patterns))
	var gpuErr error
	var wg sync.WaitGroup
	if mt.c.gpuRatio > 0 {
		wg.Go(func() {
			for i, p := range patterns {
				if mt.abort.Load() {
					return
				}
				got, err := cudaext.CountWindows(mt.text, p, mt.k, mt.from, mt.gpuEnd[i])
				if err != nil {
					gpuErr = fmt.Errorf("match: gpu ratio %v: pattern %d: %w", mt.c.gpuRatio, i, err)
					mt.abort.Store(true)
					return
				}
				atomic.AddInt64(&counts[i], got)
			}
		})
	}
	cpuErr := mt.parallel(items, counts, mt.worker)
	wg.Wait()
	if gpuErr != nil {
		return nil, gpuErr
	}
	if cpuErr != nil {
		return nil, fmt.Errorf("match: %w", cpuErr)
	}
	// Canceled after the workers' last look (or with every worker stopped
	// by the flag alone): counts that may be partial are never returned
	// with a nil error.
	if err := canceled(mt.c.ctx); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	return counts, nil
}

// parallel runs items 0..items−1 on up to mt.c.workers goroutines, which
// take them from a shared counter, each with a function from newWork
// that adds an item's counts to a slice of its own (of len(counts)); the
// slices are summed into counts at the end. A worker stops, with the
// context's error or errStopped, at its next item or at the first look of
// a kernel after abort is set; parallel returns the first error that is
// not errStopped.
func (mt *matcher) parallel(items int, counts []int64, newWork func() func(it int, pl *poller, local []int64)) error {
	if items == 0 {
		return nil
	}
	mt.next.Store(0)
	workers := max(1, min(mt.c.workers, items))
	local := make([][]int64, workers)
	errs := make([]error, workers)
	var all sync.WaitGroup
	for w := range workers {
		all.Go(func() {
			local[w] = make([]int64, len(counts))
			errs[w] = mt.work(int64(items), local[w], newWork())
		})
	}
	all.Wait()
	for _, l := range local {
		for i, v := range l {
			atomic.AddInt64(&counts[i], v)
		}
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, errStopped) {
			return err
		}
	}
	return nil
}

// work takes items from the shared counter until none is left, running
// do on each.
func (mt *matcher) work(items int64, counts []int64, do func(it int, pl *poller, local []int64)) error {
	pl := &poller{stop: &mt.abort, left: pollWork}
	stopped := func() error {
		if err := canceled(mt.c.ctx); err != nil {
			mt.abort.Store(true)
			return err
		}
		if mt.abort.Load() {
			return errStopped
		}
		return nil
	}
	for {
		it := mt.next.Add(1) - 1
		if it >= items {
			return nil
		}
		if err := stopped(); err != nil {
			return err
		}
		do(int(it), pl, counts)
		if mt.abort.Load() { // the counts may be partial
			return stopped()
		}
	}
}

// worker returns a worker's function for run's items: item it is a chunk
// of positions of pattern pi, the pattern whose items start at or before it.
func (mt *matcher) worker() func(it int, pl *poller, counts []int64) {
	pi := 0
	return func(it int, pl *poller, counts []int64) {
		for pi > 0 && mt.starts[pi] > it {
			pi--
		}
		for mt.starts[pi+1] <= it {
			pi++
		}
		a := mt.gpuEnd[pi] + (it-mt.starts[pi])*mt.chunk[pi]
		b := min(a+mt.chunk[pi], mt.to)
		got := mt.kernel(mt.pats[pi], mt.text, a, b, mt.k, pl)
		if !mt.abort.Load() {
			counts[pi] += got
		}
	}
}

// resetPeq makes pp the pattern p with its match table peq alone, in the
// memory pp already holds where it is enough: what windowVerify reads.
func (pp *pattern) resetPeq(p []byte) {
	pp.p, pp.top, pp.filter = p, nil, nil
	words := (len(p) + bitpar.WordBits - 1) / bitpar.WordBits
	if cap(pp.peq) < words {
		pp.peq = make([][256]uint64, words)
	}
	pp.peq = pp.peq[:words]
	clear(pp.peq)
	for i, c := range p {
		pp.peq[i/bitpar.WordBits][c] |= 1 << (i % bitpar.WordBits)
	}
}

// pattern is a pattern with what the kernels precompute for it.
type pattern struct {
	p   []byte
	peq [][256]uint64 // apm-fast: per 64-symbol block b, bit r of peq[b][c] set where p[64b+r] == c
	// apm-fast, len(p) ≤ 64: peq[0] shifted to the top of the word, the
	// bits below set for every symbol (wildcard rows; see scan1).
	top *[256]uint64
	// apm-fast: the q-gram filter for k, nil where it would not filter
	// (match_filter.go).
	filter *qgramFilter

	// The memory of top and filter, kept for the next pattern of a batch
	// (reset) while they are nil.
	topBuf    *[256]uint64
	filterBuf *qgramFilter
}

// reset makes pp the pattern p for k edits, its tables (apm-fast's,
// where bitParallel) in the memory pp already holds where it is enough.
func (pp *pattern) reset(p []byte, k int, bitParallel bool) {
	pp.p, pp.top, pp.filter = p, nil, nil
	if !bitParallel {
		return
	}
	pp.resetPeq(p)
	if len(p) <= bitpar.WordBits {
		if pp.topBuf == nil {
			pp.topBuf = new([256]uint64)
		}
		pad := uint(bitpar.WordBits - len(p))
		pp.top = pp.topBuf
		for c, eq := range pp.peq[0] {
			pp.top[c] = eq<<pad | (1<<pad - 1)
		}
	}
	if pp.filterBuf == nil {
		pp.filterBuf = new(qgramFilter)
	}
	if pp.filterBuf.reset(p, k) {
		pp.filter = pp.filterBuf
	}
}
