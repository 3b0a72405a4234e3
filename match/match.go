package lev

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/levlab/levlab/cudaext"
)

// Approximate pattern matching, report 003 (INF560, Benbaki & Mammadov,
// 2021): count, for each pattern, the text positions where it matches within
// k edits. CountMatches is the one entry point; WithMode chooses what a
// match is, WithMatchAlgorithm how it is found.

// MatchMode says what CountMatches counts. The zero value is ModeWindow.
type MatchMode uint8

const (
	// ModeWindow ("window") is report 003's count: the positions j whose
	// window matches. The window at j has size = min(len(p), len(text)−j)
	// and matches when Levenshtein(p[:size], text[j:j+size]) ≤ k; the short
	// windows at the end of the text are counted too.
	ModeWindow MatchMode = iota
	// ModeOccurrence ("occurrence") is approximate string matching as in
	// Sellers (1980), Myers (1999) and agrep: the end positions j (0-based,
	// inclusive) such that some substring text[i..j] — the empty one
	// included — is within k edits of p.
	ModeOccurrence

	numMatchModes
)

var matchModeNames = [numMatchModes]string{ModeWindow: "window", ModeOccurrence: "occurrence"}

// String returns the mode's stable name, "window" or "occurrence".
func (m MatchMode) String() string {
	if m < numMatchModes {
		return matchModeNames[m]
	}
	return fmt.Sprintf("MatchMode(%d)", uint8(m))
}

// ParseMatchMode returns the mode with the given stable name.
func ParseMatchMode(name string) (MatchMode, error) {
	for i, n := range matchModeNames {
		if n == name {
			return MatchMode(i), nil
		}
	}
	return 0, fmt.Errorf("lev: %w: match mode %q is unknown; valid: %s", ErrInvalidOption, name, strings.Join(matchModeNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler with the stable name.
func (m MatchMode) MarshalText() ([]byte, error) {
	if m >= numMatchModes {
		return nil, fmt.Errorf("lev: %w: match mode %d is unknown", ErrInvalidOption, uint8(m))
	}
	return []byte(matchModeNames[m]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with the stable name.
func (m *MatchMode) UnmarshalText(text []byte) error {
	v, err := ParseMatchMode(string(text))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// MatchAlgorithm names one way of counting matches. The zero value is
// MatchAuto. Every algorithm returns exactly the same counts.
type MatchAlgorithm uint8

const (
	// MatchAuto ("auto") is APMFast.
	MatchAuto MatchAlgorithm = iota
	// APMNaive ("apm-naive") is report 003's sequential program made
	// parallel as the report did: in window mode one Wagner–Fischer DP per
	// position (O(len(p)²) per position), in occurrence mode Sellers' column
	// DP over the text (O(len(p)) per position).
	APMNaive
	// APMFast ("apm-fast") filters, then scans bit-parallel: the k+1
	// pieces of the pattern (pigeonhole) are looked up at every text
	// position, and only around their hits does Myers' (1999) search scan
	// run, a machine word per 64 pattern symbols per position with
	// Ukkonen's cut-off; in window mode only the windows that scan cannot
	// exclude are verified, each by a bit-parallel DP. Where the pieces are
	// shorter than 5 symbols (k ≥ len(p)/5) the scan covers the whole text.
	APMFast

	numMatchAlgorithms
)

var matchAlgorithmNames = [numMatchAlgorithms]string{MatchAuto: "auto", APMNaive: "apm-naive", APMFast: "apm-fast"}

// MatchAlgorithms returns every match algorithm, MatchAuto first, in a
// stable order.
func MatchAlgorithms() []MatchAlgorithm {
	all := make([]MatchAlgorithm, numMatchAlgorithms)
	for i := range all {
		all[i] = MatchAlgorithm(i)
	}
	return all
}

// String returns the algorithm's stable name, e.g. "apm-fast".
func (a MatchAlgorithm) String() string {
	if a < numMatchAlgorithms {
		return matchAlgorithmNames[a]
	}
	return fmt.Sprintf("MatchAlgorithm(%d)", uint8(a))
}

// ParseMatchAlgorithm returns the match algorithm with the given stable name.
func ParseMatchAlgorithm(name string) (MatchAlgorithm, error) {
	for i, n := range matchAlgorithmNames {
		if n == name {
			return MatchAlgorithm(i), nil
		}
	}
	return 0, fmt.Errorf("lev: %w: match algorithm %q is unknown; valid: %s", ErrInvalidOption, name, strings.Join(matchAlgorithmNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler with the stable name.
func (a MatchAlgorithm) MarshalText() ([]byte, error) {
	if a >= numMatchAlgorithms {
		return nil, fmt.Errorf("lev: %w: match algorithm %d is unknown", ErrInvalidOption, uint8(a))
	}
	return []byte(matchAlgorithmNames[a]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with the stable name.
func (a *MatchAlgorithm) UnmarshalText(text []byte) error {
	v, err := ParseMatchAlgorithm(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// WithMode chooses what CountMatches counts; the default is ModeWindow.
func WithMode(m MatchMode) Option {
	return func(c *config) {
		if m >= numMatchModes {
			c.fail("match mode %d is unknown; valid: %s", uint8(m), strings.Join(matchModeNames[:], ", "))
			return
		}
		c.matchMode = m
	}
}

// WithMatchAlgorithm chooses how CountMatches counts; the default is
// MatchAuto.
func WithMatchAlgorithm(a MatchAlgorithm) Option {
	return func(c *config) {
		if a >= numMatchAlgorithms {
			c.fail("match algorithm %d is unknown; valid: %s", uint8(a), strings.Join(matchAlgorithmNames[:], ", "))
			return
		}
		c.matchAlg = a
	}
}

// WithGPURatio sends the share r ∈ [0, 1] of the positions of each pattern
// to the GPU (cudaext.CountWindows), the rest to the goroutines, both at
// once, as report 003 split its positions between CUDA and OpenMP. The GPU
// takes the first round(r·N) of the N positions. Window mode only. r = 0
// (the default) never touches the GPU; with r > 0 a GPU failure is the
// call's error, never a silent fallback to the CPU.
func WithGPURatio(r float64) Option {
	return func(c *config) {
		if !(r >= 0 && r <= 1) { // NaN fails both
			c.fail("gpu ratio = %v is out of range [0, 1]", r)
			return
		}
		c.gpuRatio = r
	}
}

// WithRange makes CountMatches count only the positions j in [from, to) of
// the text; the text outside is read as context (the windows starting
// before to in window mode, the substrings ending in the range in
// occurrence mode). The default is the whole text. to > len(text) is an
// error of CountMatches.
//
// This is what distribution over processes relies on: in window mode the
// count over [lo, hi) of text equals that of text[lo:min(hi+len(p)−1, n)]
// over [0, hi−lo); in occurrence mode that of
// text[max(0, lo−(len(p)+k)):hi] over the last hi−lo positions.
func WithRange(from, to int) Option {
	return func(c *config) {
		if from < 0 || from > to {
			c.fail("range [%d, %d) is invalid: want 0 <= from <= to", from, to)
			return
		}
		c.rangeSet, c.rangeFrom, c.rangeTo = true, from, to
	}
}

// matchKernel counts the matching positions in [a, b) of text for one
// pattern; the driver hands it chunks of the range. It reports its work to
// pl as it goes and returns early, with a count to be discarded, once pl
// says stop.
type matchKernel func(pp *matchPattern, text []byte, a, b, k int, pl *poller) int64

// matchPollWork is the work, in DP cells or word operations, a kernel does
// between two looks at the stop flag: about 0.1 ms (a few ms under the race
// detector), which bounds how long a canceled CountMatches runs on, however
// long the pattern or large k; an atomic load per 2^16 units costs nothing
// measurable.
const matchPollWork = 1 << 16

// poller tells a kernel when to stop: it counts the kernel's work down and
// looks at the flag each time matchPollWork units are done, so that the hot
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
	p.left = matchPollWork
	return false
}

// matchKernels is indexed by mode and concrete algorithm.
var matchKernels = [numMatchModes][numMatchAlgorithms]matchKernel{
	ModeWindow:     {APMNaive: windowNaive, APMFast: windowFast},
	ModeOccurrence: {APMNaive: occurrenceNaive, APMFast: occurrenceFast},
}

// CountMatches returns, for each pattern in order, the number of positions
// of text where it matches within k edits (see MatchMode for what a match
// is; unit costs, bytes compared as bytes).
//
// Options: WithMode, WithMatchAlgorithm, WithWorkers (goroutines over
// positions; 0 means GOMAXPROCS), WithRange, WithGPURatio (window mode),
// WithContext (a canceled context stops every worker within about
// matchPollWork units of its work, whatever the pattern's length or k;
// CountMatches then returns no counts and an error wrapping the context's;
// the GPU's share runs to its end) and WithStats (which gets the workers; its Algorithm, a
// distance algorithm, stays Auto). The distance options WithTile,
// WithBlockSize, WithMatrixLimit and WithoutBand are ignored; WithAlgorithm
// with anything but Auto is an error, since a distance algorithm cannot
// count matches (use WithMatchAlgorithm).
//
// Positions are handed to the workers in chunks from a shared counter and
// the counts reduced, so the result does not depend on the workers.
// Time: apm-naive O(N·m²) in window mode, O(N·m) in occurrence mode; apm-fast
// O(N) for the filter plus O(⌈m/64⌉) per position it passes, plus
// O(m·⌈m/64⌉) per window the scan passes, for N positions and a pattern of
// length m: on random text with k small against m nearly all the time is
// the filter's. Memory per pattern O(σ·⌈m/64⌉) and an 8 KiB bitmap, beside
// the inputs.
func CountMatches(text []byte, patterns [][]byte, k int, opts ...Option) ([]int64, error) {
	c := &config{ctx: context.Background()}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	if c.alg != Auto {
		return nil, fmt.Errorf("lev: %w: algorithm %q is a distance algorithm; CountMatches takes WithMatchAlgorithm (%s)",
			ErrInvalidOption, c.alg, strings.Join(matchAlgorithmNames[:], ", "))
	}
	switch {
	case k < 0:
		return nil, fmt.Errorf("lev: %w: k = %d must be >= 0", ErrInvalidOption, k)
	case len(patterns) == 0:
		return nil, fmt.Errorf("lev: %w: no patterns: want at least one", ErrInvalidOption)
	case c.gpuRatio > 0 && c.matchMode != ModeWindow:
		return nil, fmt.Errorf("lev: %w: gpu ratio = %v with mode %s: the GPU share is for window mode only (use ratio 0)",
			ErrInvalidOption, c.gpuRatio, c.matchMode)
	}
	longest := 0
	for i, p := range patterns {
		if len(p) == 0 {
			return nil, fmt.Errorf("lev: %w: pattern %d is empty: want at least one byte", ErrInvalidOption, i)
		}
		longest = max(longest, len(p))
	}
	// Every position matches once k ≥ len(p) (in window mode a window is at
	// most len(p) long, in occurrence mode the empty substring is len(p)
	// edits away): a larger k counts the same and cannot overflow the
	// kernels' arithmetic.
	k = min(k, longest)
	from, to := 0, len(text)
	if c.rangeSet {
		if c.rangeTo > len(text) {
			return nil, fmt.Errorf("lev: %w: range [%d, %d) ends past the text's length %d", ErrInvalidOption, c.rangeFrom, c.rangeTo, len(text))
		}
		from, to = c.rangeFrom, c.rangeTo
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	if c.stats != nil {
		*c.stats = Stats{Workers: c.workers}
	}
	if err := c.ctx.Err(); err != nil {
		return nil, fmt.Errorf("lev: CountMatches: canceled: %w", err)
	}
	alg := c.matchAlg
	if alg == MatchAuto {
		alg = APMFast
	}
	m := &matcher{
		text: text, k: k, from: from, to: to, c: c,
		kernel: matchKernels[c.matchMode][alg],
		naive:  alg == APMNaive,
	}
	return m.run(patterns)
}

// matcher is one CountMatches call: the patterns' chunks of positions as
// work items for the workers, and the GPU's share beside them.
type matcher struct {
	text     []byte
	k        int
	from, to int
	c        *config
	kernel   matchKernel
	naive    bool

	pats   []*matchPattern
	gpuEnd []int // per pattern: the GPU takes [from, gpuEnd)
	starts []int // per pattern: its first item; starts[len] = items
	chunk  []int // per pattern: positions per item
	next   atomic.Int64
	// abort is set when the workers are to stop: the context is done (set
	// by context.AfterFunc, so that no kernel has to look at the context)
	// or the GPU failed.
	abort atomic.Bool
}

// Work per chunk, in units of a word operation per position: large enough to
// amortise the hand-out and a scan's warm-up, small enough for a prompt
// cancellation and a balanced end.
const (
	matchChunkWork   = 1 << 20
	matchChunkMin    = 64
	matchChunkMax    = 1 << 18
	matchChunksPerW  = 8 // at least this many chunks per worker where positions allow
	matchWarmupRatio = 8 // chunks at least this many times the scan's warm-up
)

func (mt *matcher) run(patterns [][]byte) ([]int64, error) {
	n := mt.to - mt.from
	W := mt.c.workers
	mt.pats = make([]*matchPattern, len(patterns))
	mt.gpuEnd = make([]int, len(patterns))
	mt.starts = make([]int, len(patterns)+1)
	mt.chunk = make([]int, len(patterns))
	for i, p := range patterns {
		pp := newMatchPattern(p, mt.k, !mt.naive)
		mt.pats[i] = pp
		g := 0
		if mt.c.gpuRatio > 0 {
			g = int(math.Round(mt.c.gpuRatio * float64(n)))
		}
		mt.gpuEnd[i] = mt.from + g
		cpu := n - g
		cost := max(1, (len(p)+63)/64)
		if mt.naive {
			cost = len(p)
			if mt.c.matchMode == ModeWindow {
				cost = len(p) * len(p)
			}
		}
		ch := max(matchChunkMin, min(matchChunkMax, matchChunkWork/cost))
		ch = min(ch, max(matchChunkMin, (cpu+W*matchChunksPerW-1)/(W*matchChunksPerW)))
		if !mt.naive || mt.c.matchMode != ModeWindow {
			// Scans start len(p)+k before their chunk (occurrence mode) or
			// read len(p)−1 positions before the first end (window filter).
			ch = max(ch, matchWarmupRatio*(len(p)+mt.k))
		}
		mt.chunk[i] = ch
		mt.starts[i+1] = mt.starts[i] + (cpu+ch-1)/ch
	}
	items := mt.starts[len(patterns)]
	workers := max(1, min(W, items))

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
					gpuErr = fmt.Errorf("lev: CountMatches: gpu ratio %v: pattern %d: %w", mt.c.gpuRatio, i, err)
					mt.abort.Store(true)
					return
				}
				atomic.AddInt64(&counts[i], got)
			}
		})
	}
	var cpuErr error
	if items > 0 {
		local := make([][]int64, workers)
		errs := make([]error, workers)
		runWorkers(workers, func(w int) {
			local[w] = make([]int64, len(patterns))
			errs[w] = mt.worker(local[w])
		})
		for _, l := range local {
			for i, v := range l {
				atomic.AddInt64(&counts[i], v)
			}
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, errAborted) {
				cpuErr = err
				break
			}
		}
	}
	wg.Wait()
	if gpuErr != nil {
		return nil, gpuErr
	}
	if cpuErr != nil {
		return nil, fmt.Errorf("lev: CountMatches: %w", cpuErr)
	}
	// Canceled after the workers' last look (or with every worker stopped
	// by the flag alone): counts that may be partial are never returned
	// with a nil error.
	if err := canceled(mt.c.ctx); err != nil {
		return nil, fmt.Errorf("lev: CountMatches: %w", err)
	}
	return counts, nil
}

// worker takes items from the shared counter until none is left, adding
// each item's count to counts. It stops, with the context's error or
// errAborted, at the first item or the first look of a kernel after abort
// is set.
func (mt *matcher) worker(counts []int64) error {
	items := int64(mt.starts[len(mt.pats)])
	pl := &poller{stop: &mt.abort, left: matchPollWork}
	stopped := func() error {
		if err := canceled(mt.c.ctx); err != nil {
			mt.abort.Store(true)
			return err
		}
		if mt.abort.Load() {
			return errAborted
		}
		return nil
	}
	pi := 0
	for {
		it := mt.next.Add(1) - 1
		if it >= items {
			return nil
		}
		if err := stopped(); err != nil {
			return err
		}
		for pi > 0 && int64(mt.starts[pi]) > it {
			pi--
		}
		for int64(mt.starts[pi+1]) <= it {
			pi++
		}
		a := mt.gpuEnd[pi] + (int(it)-mt.starts[pi])*mt.chunk[pi]
		b := min(a+mt.chunk[pi], mt.to)
		got := mt.kernel(mt.pats[pi], mt.text, a, b, mt.k, pl)
		if mt.abort.Load() { // got may be partial
			return stopped()
		}
		counts[pi] += got
	}
}

// matchPattern is a pattern with what the kernels precompute for it.
type matchPattern struct {
	p   []byte
	peq [][256]uint64 // apm-fast: per 64-symbol block b, bit r of peq[b][c] set where p[64b+r] == c
	// apm-fast, len(p) ≤ 64: peq[0] shifted to the top of the word, the
	// bits below set for every symbol (wildcard rows; see scan1).
	top *[256]uint64
	// apm-fast: the q-gram filter for k, nil where it would not filter
	// (match_filter.go).
	filter *qgramFilter
}

func newMatchPattern(p []byte, k int, bitParallel bool) *matchPattern {
	pp := &matchPattern{p: p}
	if bitParallel {
		pp.peq = make([][256]uint64, (len(p)+wordBits-1)/wordBits)
		for i, c := range p {
			pp.peq[i/wordBits][c] |= 1 << (i % wordBits)
		}
		if len(p) <= wordBits {
			pad := uint(wordBits - len(p))
			pp.top = new([256]uint64)
			for c, eq := range pp.peq[0] {
				pp.top[c] = eq<<pad | (1<<pad - 1)
			}
		}
		pp.filter = newQgramFilter(p, k)
	}
	return pp
}
