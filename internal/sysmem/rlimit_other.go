//go:build !unix

package sysmem

// rlimitAS: no ulimit -v here.
func rlimitAS() (uint64, bool) { return 0, false }
