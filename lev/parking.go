package lev

import (
	"runtime"
	"sync"
	"sync/atomic"
)

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
