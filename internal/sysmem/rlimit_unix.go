//go:build unix

package sysmem

import "syscall"

// rlimitAS returns the soft RLIMIT_AS (ulimit -v), ok false when it is
// not set.
func rlimitAS() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return r.Cur, true
}
