package match_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/levlab/levlab/lev/levtest"
	"github.com/levlab/levlab/match"
)

// matchCancelPrompt bounds the time Count may take to return after
// its context is canceled: the kernels look at it every ~0.1 ms of work
// (a few ms under the race detector); the rest is room for a loaded
// machine's scheduler.
const matchCancelPrompt = 100*time.Millisecond + 200*time.Millisecond

// TestCountMatchesCancelLong checks that every loop of Count watches
// its context: each mode and algorithm, with 1 and 2 workers, on a pattern
// of 20,000 symbols (313 words for Myers) with k = 12,000, so that the
// q-gram filter is off and every window reaches verification, over 8 MiB
// of text — minutes of work uncanceled. A cancel 50 ms in must come back
// within matchCancelPrompt as an error wrapping context.Canceled, with no
// counts and no goroutine left running; a context canceled before the call,
// or a deadline, likewise. It runs no sub-test in parallel: it counts
// goroutines.
func TestCountMatchesCancelLong(t *testing.T) {
	rng := levtest.NewRand(t)
	text := levtest.RandomBytes(rng, 1<<23, levtest.DNA)
	pats := [][]byte{levtest.RandomBytes(rng, 20_000, levtest.DNA)}
	const k = 12_000
	for _, mode := range matchModes {
		for _, alg := range matchAlgs {
			for _, w := range []int{1, 2} {
				t.Run(fmt.Sprintf("mode=%s/alg=%s/workers=%d", mode, alg, w), func(t *testing.T) {
					opts := []match.Option{match.WithMode(mode), match.WithAlgorithm(alg), match.WithWorkers(w)}

					ctx, cancel := context.WithCancel(context.Background())
					cancel()
					start := time.Now()
					got, err := match.Count(text, pats, k, append(opts, match.WithContext(ctx))...)
					if !errors.Is(err, context.Canceled) || got != nil {
						t.Errorf("canceled before the call: %v, %v; want no counts and an error wrapping context.Canceled", got, err)
					}
					if took := time.Since(start); took > matchCancelPrompt {
						t.Errorf("canceled before the call: returned after %v, want under %v", took.Round(time.Millisecond), matchCancelPrompt)
					}

					expectMatchCanceled(t, text, pats, k, opts, false)
					expectMatchCanceled(t, text, pats, k, opts, true)
				})
			}
		}
	}
}

// expectMatchCanceled runs Count with a context canceled (or, with
// deadline, timed out) 50 ms in, and checks the error, how long after the
// cancel it returned, and the goroutines.
func expectMatchCanceled(t *testing.T, text []byte, pats [][]byte, k int, opts []match.Option, deadline bool) {
	t.Helper()
	const delay = 50 * time.Millisecond
	before := runtime.NumGoroutine()
	var (
		ctx       context.Context
		cancel    context.CancelFunc
		canceled  atomic.Int64 // when the context was canceled, UnixNano
		want      = context.Canceled
		what      = "canceled after 50ms"
		stopTimer = func() {}
	)
	if deadline {
		ctx, cancel = context.WithTimeout(context.Background(), delay)
		want, what = context.DeadlineExceeded, "deadline of 50ms"
		go func() { <-ctx.Done(); canceled.Store(time.Now().UnixNano()) }()
	} else {
		ctx, cancel = context.WithCancel(context.Background())
		timer := time.AfterFunc(delay, func() {
			canceled.Store(time.Now().UnixNano())
			cancel()
		})
		stopTimer = func() { timer.Stop() }
	}
	defer cancel()
	defer stopTimer()

	type result struct {
		counts []int64
		err    error
	}
	done := make(chan result, 1)
	go func() {
		got, err := match.Count(text, pats, k, append(opts, match.WithContext(ctx))...)
		done <- result{got, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(delay + 10*time.Second):
		t.Fatalf("%s: still running 10s after the cancel", what)
	}
	returned := time.Now()
	if r.err == nil && canceled.Load() == 0 {
		t.Fatalf("%s: finished before the cancel (%v): the test's input is too small", what, r.counts)
	}
	if !errors.Is(r.err, want) || r.counts != nil {
		t.Fatalf("%s: Count = %v, %v; want no counts and an error wrapping %v", what, r.counts, r.err, want)
	}
	for canceled.Load() == 0 { // the deadline's watcher may lag the kernels
		runtime.Gosched()
	}
	late := returned.Sub(time.Unix(0, canceled.Load()))
	t.Logf("%s: returned %v after the cancel", what, late.Round(10*time.Microsecond))
	if late > matchCancelPrompt {
		t.Errorf("%s: returned %v after the cancel, want under %v", what, late.Round(time.Millisecond), matchCancelPrompt)
	}
	cancel()
	if after := levtest.Settled(before); after > before {
		t.Errorf("%s: %d goroutines before, %d after", what, before, after)
	}
}
