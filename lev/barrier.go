package lev

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// barrier is a reusable, abortable barrier for a fixed party of n
// goroutines, the Go counterpart of the boost::barrier that report 001's C++
// threads used between antidiagonals.
//
// It counts generations: the last of the n goroutines to arrive at a
// generation resets the count and starts the next generation, which releases
// the others. Waiters wait as parking describes, so that parties
// outnumbering GOMAXPROCS still make progress. abort releases every waiter,
// present and future, so that a party that stops early (on cancellation)
// cannot leave the others waiting forever.
type barrier struct {
	n int32

	// The fields the parties hammer sit on a cache line of their own, away
	// from whatever the allocator puts next to the barrier.
	_       [64]byte
	count   atomic.Int32  // arrivals in the current generation
	gen     atomic.Uint64 // generation number, bumped on every release
	aborted atomic.Bool
	_       [64]byte

	park parking
}

// newBarrier returns a barrier for n >= 1 parties.
func newBarrier(n int) *barrier {
	if n < 1 {
		panic("lev: barrier needs at least one party")
	}
	b := &barrier{n: int32(n)}
	b.park.init(n)
	return b
}

// wait blocks until all n parties have called wait for the current
// generation, and reports true; or, once the barrier is aborted, returns
// false at once without waiting.
func (b *barrier) wait() bool {
	if b.aborted.Load() {
		return false
	}
	// Read the generation before arriving: after the arrival the last
	// party may already have moved it on.
	g := b.gen.Load()
	if b.count.Add(1) == b.n {
		// Reset before release: no party can arrive at the next
		// generation before it sees the new generation number.
		b.count.Store(0)
		b.gen.Add(1)
		b.park.wake()
	} else {
		b.park.await(&b.gen, g, &b.aborted)
	}
	return !b.aborted.Load()
}

// abort releases every party waiting now or later; wait then reports false.
// It is safe to call more than once and from any goroutine.
func (b *barrier) abort() {
	b.aborted.Store(true)
	b.park.wake()
}

// parking is how the parallel DP kernels wait for one another: for a word
// to change from a value they saw, or for a stop flag. A waiter first spins
// on the word (a hand-off then costs well under a microsecond when every
// goroutine has a core to itself), then yields, then sleeps on a condition
// variable until woken, as OpenMP runtimes spin and then sleep at their
// barriers and task waits. Spinning is skipped when the goroutines sharing a
// parking outnumber GOMAXPROCS: a spinner would burn the very time slice
// the goroutine it waits for needs.
type parking struct {
	spin     int // looks at the word before sleeping
	sleepers atomic.Int32
	mu       sync.Mutex
	cond     sync.Cond
}

// init readies p for goroutines parties sharing it.
func (p *parking) init(parties int) {
	p.cond.L = &p.mu
	if parties <= runtime.GOMAXPROCS(0) {
		p.spin = 2000
	}
}

// await returns once word holds a value other than old, or stop is set.
// Whoever changes the word or sets stop must call wake afterwards.
func (p *parking) await(word *atomic.Uint64, old uint64, stop *atomic.Bool) {
	for i := 0; i < p.spin; i++ {
		if word.Load() != old || stop.Load() {
			return
		}
		if i >= p.spin/2 {
			runtime.Gosched()
		}
	}
	p.mu.Lock()
	// The count goes up before the last look at the word; wake reads the
	// count after changing the word. Atomics being sequentially
	// consistent, either this look sees the change or wake sees a sleeper
	// and broadcasts under the lock, which this goroutine holds until
	// cond.Wait releases it: the wake-up cannot be lost.
	p.sleepers.Add(1)
	for word.Load() == old && !stop.Load() {
		p.cond.Wait()
	}
	p.sleepers.Add(-1)
	p.mu.Unlock()
}

// wake releases the goroutines asleep in await, if any, to look again.
func (p *parking) wake() {
	if p.sleepers.Load() > 0 {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

// runWorkers runs work(0) on the calling goroutine and work(1) … work(w−1)
// on new ones, and returns once every one has returned: a kernel that calls
// it leaves no goroutine behind.
func runWorkers(w int, work func(id int)) {
	var others sync.WaitGroup
	for id := 1; id < w; id++ {
		others.Go(func() { work(id) })
	}
	work(0)
	others.Wait()
}
