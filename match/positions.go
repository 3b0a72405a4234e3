package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Positions calls fn with each position of text where the pattern p matches
// within k edits — the positions Count counts (see Mode: where a window
// starts, or where an occurrence ends), 0-based — in ascending order, as
// they are found: the workers search chunks of the text at once, and a
// chunk's positions reach fn once every chunk before it has. fn runs on
// the calling goroutine; an error from it stops the search and is
// returned as it is. The options are Count's; WithGPURatio above 0 is
// refused. Where the context is canceled the error says so, and fn may
// have had only some of the positions.
//
// Each chunk is counted by Count's kernel, and where it holds matches it
// is halved until the positions are single: the positions are exactly
// those Count counts, at the cost of a count, and for every match about
// log₂(chunk) more, each over a shrinking part of the chunk. Memory: the
// positions of up to twice the workers' chunks waiting for their turn.
func Positions(text, p []byte, k int, fn func(j int) error, opts ...Option) error {
	if fn == nil {
		return fmt.Errorf("match: %w: fn is nil: want a function to call with each position", ErrInvalidOption)
	}
	mt, err := newMatcher(text, [][]byte{p}, k, opts)
	if err != nil {
		return err
	}
	if mt.c.gpuRatio > 0 {
		return fmt.Errorf("match: %w: gpu ratio = %v: Positions searches on the CPU alone (use ratio 0)", ErrInvalidOption, mt.c.gpuRatio)
	}
	pp := new(pattern)
	pp.reset(p, mt.k, !mt.naive)
	n := mt.to - mt.from
	ch := mt.chunkSize(len(p), n)
	chunks := (n + ch - 1) / ch
	workers := max(1, min(mt.c.workers, chunks))
	window := 2 * workers // chunks found ahead of the one delivered

	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	stop := func() { // wakes every waiter to see the flag
		mu.Lock()
		mt.abort.Store(true)
		cond.Broadcast()
		mu.Unlock()
	}
	stopWatch := context.AfterFunc(mt.c.ctx, stop)
	defer stopWatch()

	found := make([][]int, window) // found[c % window]: chunk c's positions, once ready
	ready := make([]bool, window)
	next, delivered := 0, 0 // the next chunk to hand out; chunks delivered
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			pl := &poller{stop: &mt.abort, left: pollWork}
			for {
				mu.Lock()
				for next < chunks && next >= delivered+window && !mt.abort.Load() {
					cond.Wait()
				}
				if next >= chunks || mt.abort.Load() {
					mu.Unlock()
					return
				}
				c := next
				next++
				mu.Unlock()
				a := mt.from + c*ch
				got := mt.find(pp, a, min(a+ch, mt.to), pl, nil)
				mu.Lock()
				if mt.abort.Load() { // got may be partial
					mu.Unlock()
					return
				}
				found[c%window], ready[c%window] = got, true
				cond.Broadcast()
				mu.Unlock()
			}
		})
	}
	var ferr error
	for c := range chunks {
		if mt.c.ctx.Err() != nil {
			break // fn may cancel: no more positions after it has
		}
		mu.Lock()
		for !ready[c%window] && !mt.abort.Load() {
			cond.Wait()
		}
		if !ready[c%window] { // stopped
			mu.Unlock()
			break
		}
		got := found[c%window]
		found[c%window], ready[c%window] = nil, false
		mu.Unlock()
		for _, j := range got {
			if ferr = fn(j); ferr != nil {
				break
			}
		}
		if ferr != nil {
			break
		}
		mu.Lock()
		delivered++
		cond.Broadcast()
		mu.Unlock()
	}
	if delivered < chunks {
		stop()
	}
	wg.Wait()
	switch {
	case ferr != nil:
		return ferr
	case canceled(mt.c.ctx) != nil:
		// Canceled, even after the last position: as Count, never a nil
		// error once the context is done.
		return fmt.Errorf("match: %w", canceled(mt.c.ctx))
	case delivered < chunks:
		return fmt.Errorf("match: %w", errors.New("stopped before the last position"))
	}
	return nil
}

// leaf is the part of a chunk whose positions find counts one by one.
const leaf = 32

// find appends to out the positions in [a, b) where pp matches: a count
// of the part, then, where it holds matches, its halves (one by one below
// leaf positions). It returns early, with what it has, once pl says stop.
func (mt *matcher) find(pp *pattern, a, b int, pl *poller, out []int) []int {
	if a >= b || mt.kernel(pp, mt.text, a, b, mt.k, pl) == 0 || mt.abort.Load() {
		return out
	}
	if b-a <= leaf {
		for j := a; j < b && !mt.abort.Load(); j++ {
			if mt.kernel(pp, mt.text, j, j+1, mt.k, pl) > 0 {
				out = append(out, j)
			}
		}
		return out
	}
	mid := a + (b-a)/2
	out = mt.find(pp, a, mid, pl, out)
	return mt.find(pp, mid, b, pl, out)
}
