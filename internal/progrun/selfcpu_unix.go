//go:build unix

package progrun

import "syscall"

// SelfCPU returns the processor time this process has taken so far, user
// and system, over all its threads, in seconds (getrusage RUSAGE_SELF);
// ok is false where the system does not say. The difference of two calls
// around a call of Go code is the processor time of the call, and of
// whatever else ran in the process meanwhile (the garbage collector's
// workers included).
func SelfCPU() (seconds float64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return tvSeconds(ru.Utime) + tvSeconds(ru.Stime), true
}

func tvSeconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
