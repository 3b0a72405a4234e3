package sysmem

import "syscall"

// sysinfoTotal returns the machine's physical memory as sysinfo(2) gives
// it: the same count of pages /proc/meminfo's MemTotal shows, for one
// system call rather than a file read.
func sysinfoTotal() (int64, bool) {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil || si.Totalram == 0 {
		return 0, false
	}
	unit := uint64(si.Unit)
	if unit == 0 {
		unit = 1
	}
	return int64(uint64(si.Totalram) * unit), true
}
