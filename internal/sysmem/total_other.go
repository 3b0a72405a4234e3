//go:build !linux

package sysmem

// sysinfoTotal: no sysinfo(2) here; Total reads /proc/meminfo.
func sysinfoTotal() (int64, bool) { return 0, false }
