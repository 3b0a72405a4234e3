package levtest

import (
	"runtime"
	"time"
)

// Settled waits up to 5 s for the process's goroutines to drop to at most n
// and returns their count: how a cancellation test checks that a canceled
// call left no goroutine behind.
func Settled(n int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}
