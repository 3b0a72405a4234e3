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
// the others. A waiter first spins on the generation (cheap when every party
// has a core of its own), then yields, then sleeps on a condition variable,
// so that parties outnumbering GOMAXPROCS still make progress. abort releases
// every waiter, present and future, so that a party that stops early (on
// cancellation) cannot leave the others waiting forever.
type barrier struct {
	n    int32
	spin int // generation checks before a waiter sleeps

	// The fields the parties hammer sit on a cache line of their own, away
	// from whatever the allocator puts next to the barrier.
	_        [64]byte
	count    atomic.Int32  // arrivals in the current generation
	gen      atomic.Uint32 // generation number, bumped on every release
	aborted  atomic.Bool
	sleepers atomic.Int32 // waiters that may be in cond.Wait
	_        [64]byte

	mu   sync.Mutex
	cond sync.Cond
}

// newBarrier returns a barrier for n >= 1 parties.
func newBarrier(n int) *barrier {
	if n < 1 {
		panic("lev: barrier needs at least one party")
	}
	b := &barrier{n: int32(n)}
	b.cond.L = &b.mu
	// Spinning only pays when every party can run at once; otherwise the
	// spinner burns the time slice of the party it is waiting for.
	if n <= runtime.GOMAXPROCS(0) {
		b.spin = 2000
	}
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
		// generation until it sees the new generation number.
		b.count.Store(0)
		b.gen.Add(1)
		if b.sleepers.Load() > 0 {
			b.mu.Lock()
			b.cond.Broadcast()
			b.mu.Unlock()
		}
		return !b.aborted.Load()
	}
	for i := 0; i < b.spin; i++ {
		if b.gen.Load() != g || b.aborted.Load() {
			return !b.aborted.Load()
		}
		if i >= b.spin/2 {
			runtime.Gosched()
		}
	}
	b.mu.Lock()
	// A releaser that bumped gen after this increment takes the lock
	// before broadcasting, so the wake-up cannot be lost; one that read
	// sleepers before it bumped gen first, which the check below sees.
	b.sleepers.Add(1)
	for b.gen.Load() == g && !b.aborted.Load() {
		b.cond.Wait()
	}
	b.sleepers.Add(-1)
	b.mu.Unlock()
	return !b.aborted.Load()
}

// abort releases every party waiting now or later; wait then reports false.
// It is safe to call more than once and from any goroutine.
func (b *barrier) abort() {
	b.aborted.Store(true)
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}
