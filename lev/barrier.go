package lev

import (
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
